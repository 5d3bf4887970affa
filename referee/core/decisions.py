"""Every decision kind of a game described as data: its move types, whether it is sealed, the
JSON Schema of its prompt and of the moves it takes (no I/O). GET /v1/games/{game} and the bot
protocol document serve it; the conformance tests hold every real prompt and legal move to it."""

from __future__ import annotations

from referee.core.schema import check_schema

UNDESCRIBED_PROMPT = {"type": "object", "description": "not yet described for this game"}


def describe_kinds(game, kinds, prompts: dict) -> list[dict]:
    """[{kind, move_types, sealed, prompt, move}] for `kinds` (a kit game's DecisionKinds),
    prompts from `prompts` (kind -> schema); `move` is oneOf the move types' schemas."""
    described = []
    for kind in kinds:
        prompt = prompts.get(kind.kind, UNDESCRIBED_PROMPT)
        check_schema(prompt, f"{game.spec.name} prompt {kind.kind!r}")
        moves = [game.spec.move_kind(t).schema() for t in kind.move_types]
        described.append({"kind": kind.kind, "move_types": list(kind.move_types),
                          "sealed": kind.sealed, "prompt": prompt,
                          "move": {"oneOf": moves} if len(moves) > 1 else moves[0]})
    return described
