"""Every prompt and every listed move the conformance playouts meet fits its decision kind's
schemas (Game.decision_kinds(), which the bot protocol document and GET /v1/games/{game}
serve): seed 0 of every set-up of every game (issue 39)."""

from __future__ import annotations

import jsonschema_rs
import pytest

from referee.conformance import playable_setups, run_playout, uniform_choice
from referee.games import GAMES

SETUPS = [(game, players, options) for game in GAMES
          for players, options in playable_setups(game)]


def _validators(game) -> dict:
    return {k["kind"]: (jsonschema_rs.validator_for(k["prompt"]),
                        jsonschema_rs.validator_for(k["move"]), set(k["move_types"]))
            for k in game.decision_kinds()}


@pytest.mark.parametrize("game,players,options", SETUPS,
                         ids=[f"{g.spec.name}-{p}p-{o}" for g, p, o in SETUPS])
def test_prompts_and_moves_fit_their_decision_kind(game, players, options):
    kinds, seen, bad = _validators(game), set(), []

    def choose(state, decision, moves, rng):
        prompt_ok, move_ok, types = kinds[decision.kind]
        seen.add(decision.kind)
        if not prompt_ok.is_valid(decision.prompt):
            bad.append((decision.kind, "prompt", decision.prompt))
        if not set(decision.move_types) <= types:
            bad.append((decision.kind, "move_types", decision.move_types))
        bad.extend((decision.kind, "move", m) for m in moves if not move_ok.is_valid(m))
        return uniform_choice(state, decision, moves, rng)

    run_playout(game, players, options, 0, accept_all=0, probes=0, views=False, choose=choose)
    assert bad[:3] == []
    assert seen   # the chooser was asked (the test can fail)


def test_a_prompt_of_another_kind_is_refused():
    """The schemas are strict: the check above could fail."""
    kinds = _validators(GAMES.get("dschunke"))
    assert not kinds["bid"][0].is_valid({"round": 1})
    assert not kinds["bid"][1].is_valid({"type": "pass"})
