"""The conformance suite on Yunnan for 2-5 players and every option, over more seeds.

The default depth keeps this directory well under a minute; set YUNNAN_CONFORMANCE_SEEDS
(e.g. 25) for a deep run. Seeds start at 100 so they differ from the shared suite's. Each
case runs with internal chance and with external chance (random legal chance moves).
"""

from __future__ import annotations

import os

import pytest

from referee.conformance import playable_setups, run_playout
from referee.core import InvalidOptions, engine
from referee.core.chance import EXTERNAL, INTERNAL
from referee.games.yunnan import GAME

SEEDS = int(os.environ.get("YUNNAN_CONFORMANCE_SEEDS", "1"))


def _name(players, options, seed, chance):
    opts = "-".join(f"{k}={v}" for k, v in options.items()) or "defaults"
    return f"{players}p-{opts}-s{seed}" + ("-external" if chance == EXTERNAL else "")


CASES = [pytest.param(players, options, seed, chance,
                      id=_name(players, options, seed, chance))
         for players, options in playable_setups(GAME)
         for seed in range(100, 100 + SEEDS) for chance in (INTERNAL, EXTERNAL)
         # external chance with the default options at each player count (the options
         # change the rules, not where chance is drawn), every option on a deep run
         if chance == INTERNAL or not options or SEEDS > 1]


def test_every_player_count_and_option_is_playable():
    setups = playable_setups(GAME)
    assert {p for p, _ in setups} == {2, 3, 4, 5}
    # defaults and every option at its other value per player count; Dúlì's only with 2
    duli = [o for o in GAME.spec.options if o.name.startswith("duli_")]
    assert len(duli) == 2
    assert len(setups) == 4 * (1 + len(GAME.spec.options) - len(duli)) + len(duli)
    for option in ({"duli_overflow": "supply"}, {"duli_no_bid": "spend_card"}):
        with pytest.raises(InvalidOptions):
            engine.start(GAME, 3, option, 0)


@pytest.mark.slow  # a deep run: skipped by the fast lane, -m "not slow"
@pytest.mark.parametrize("players, options, seed, chance", CASES)
def test_yunnan_random_playouts_keep_the_contract(players, options, seed, chance):
    stats = run_playout(GAME, players, options, seed, chance=chance)
    assert stats.moves > 0
    if players == 2 and chance == INTERNAL:
        assert stats.redeterminations_differing > 0  # Dúlì's deck really is re-dealt
    if chance == EXTERNAL:  # an external pile is an unordered set: nothing to re-deal
        assert stats.redeterminations_differing == 0
