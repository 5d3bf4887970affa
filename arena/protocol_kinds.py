"""Each game's part of the bot protocol document: its views, its decision kinds (prompt and
move schemas) and its /move request, as OpenAPI 3.1 components (plain data, no I/O).

Per game `<game>`: `<game>.SeatView`; per decision kind `<kind>`: `<game>.<kind>.Prompt`,
`<game>.<kind>.Move` (the moves it takes), `<game>.<kind>.Decision` and
`<game>.<kind>.MoveAnswer`; `<game>.Decision` is one of the kinds' decisions told apart by
`kind` (a discriminator), `<game>.MoveRequest` the /move body of that game. `MoveRequest` is
one of the games' requests told apart by `game`.
"""

from __future__ import annotations

import re

from referee.service.described import view_schema

REF = "#/components/schemas/"


def kind_name(game: str, kind: str) -> str:
    """`<game>.<kind>`, the prefix of a decision kind's components (a character OpenAPI
    refuses in a component name, as the ':' of Yinzi's `command:transport`, becomes '_')."""
    return f"{game}." + re.sub(r"[^A-Za-z0-9._-]", "_", kind)


def ref(name: str) -> dict:
    """A reference to the component `name`."""
    return {"$ref": REF + name}


def _decision(game: str, kind: dict) -> dict:
    name = kind_name(game, kind["kind"])
    return {"type": "object", "additionalProperties": False,
            "required": ["seat", "kind", "move_types", "sealed", "prompt"],
            "description": f"A {game} `{kind['kind']}` decision: answer with a "
                           f"`{name}.Move`" + (" (sealed: the seats' moves are revealed "
                                               "together)" if kind["sealed"] else ""),
            "properties": {
                "seat": {"type": "integer", "minimum": 0, "description": "your seat"},
                "kind": {"type": "string", "const": kind["kind"]},
                "move_types": {"type": "array", "minItems": 1, "uniqueItems": True,
                               "items": {"type": "string", "enum": kind["move_types"]},
                               "description": "the move types open now"},
                "sealed": {"type": "boolean", "const": kind["sealed"]},
                "prompt": ref(f"{name}.Prompt")}}


def game_components(game, base: dict) -> dict:
    """The components of one game (`base`: the MoveRequest properties every game shares)."""
    g = game.spec.name
    seat = view_schema(game, False)
    if "properties" not in seat:   # undescribed: at least it names its game
        seat = {**seat, "required": ["game"], "properties": {"game": {"const": g}}}
    out = {f"{g}.SeatView": seat}
    kinds = game.decision_kinds()
    mapping = {k["kind"]: REF + kind_name(g, k["kind"]) + ".Decision" for k in kinds}
    for k in kinds:
        name = kind_name(g, k["kind"])
        out[f"{name}.Prompt"] = k["prompt"]
        out[f"{name}.Move"] = k["move"]
        out[f"{name}.Decision"] = _decision(g, k)
        out[f"{name}.MoveAnswer"] = {
            "type": "object", "required": ["move"], "properties": {"move": ref(f"{name}.Move")},
            "description": f"The answer to a `{k['kind']}` decision of {g}"}
    out[f"{g}.Decision"] = {"oneOf": [{"$ref": r} for r in mapping.values()],
                            "discriminator": {"propertyName": "kind", "mapping": mapping}} \
        if kinds else {"type": "object", "description": "not yet described for this game"}
    legal = {"anyOf": [ref(kind_name(g, k["kind"]) + ".Move") for k in kinds]} if kinds else \
        {"type": "object"}
    out[f"{g}.MoveRequest"] = {
        "type": "object", "required": list(base), "additionalProperties": False,
        "description": f"POST /move of a {g} match",
        "properties": {**base, "game": {"type": "string", "const": g},
                       "decision": ref(f"{g}.Decision"), "view": ref(f"{g}.SeatView"),
                       "legal_moves": {**base["legal_moves"], "items": legal}}}
    return out


def all_games(games, base: dict) -> dict:
    """Every game's components, `MoveRequest` (by `game`) and `View` (by `game`)."""
    out, requests, views = {}, {}, {}
    for game in games:
        out.update(game_components(game, base))
        requests[game.spec.name] = REF + f"{game.spec.name}.MoveRequest"
        views[game.spec.name] = REF + f"{game.spec.name}.SeatView"
    for name, mapping in (("MoveRequest", requests), ("View", views)):
        out[name] = {"oneOf": [{"$ref": r} for r in mapping.values()],
                     "discriminator": {"propertyName": "game", "mapping": mapping}} \
            if mapping else {"type": "object"}
    return out
