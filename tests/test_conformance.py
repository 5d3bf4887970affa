"""The conformance suite over every registered game (and the test games), in both chance modes."""

from __future__ import annotations

import pytest

from referee.conformance import playable_setups, run_playout
from referee.core.chance import EXTERNAL, INTERNAL
from tests.conftest import ALL_GAMES, CONFORMANCE_SEEDS
from tests.support.dealt import GAME as DEALT

LARGE_SEED = 7_340_000_000_000
"""Seeds this large let the suite spot a view that shows the seed."""


def _case_id(game, players, options, seed, chance):
    opts = '-'.join(f'{k}={v}' for k, v in options.items()) or 'defaults'
    mode = "" if chance == INTERNAL else "-external"
    return f"{game.spec.name}-{players}p-{opts}-s{seed}{mode}"


def _marks(game, seed, chance):
    marks = [pytest.mark.slow] if seed else []  # seed 0 of each: the fast lane
    if chance == EXTERNAL and not game.external_chance:
        marks.append(pytest.mark.skip(reason=f"{game.spec.name} does not support external "
                                             f"chance yet (it refuses it: chance.unsupported)"))
    return marks


CASES = [
    pytest.param(game, players, options, seed, chance,
                 id=_case_id(game, players, options, seed, chance),
                 marks=_marks(game, seed, chance))
    for chance in (INTERNAL, EXTERNAL)
    for game in [*ALL_GAMES, DEALT]
    for players, options in playable_setups(game)
    # external chance at every player count with the default options: the options change
    # the rules the internal playouts check, not where chance is drawn (each game's own
    # conformance file plays its variants with external chance too)
    if chance == INTERNAL or not options
    for seed in range(CONFORMANCE_SEEDS)
]


@pytest.mark.parametrize("game, players, options, seed, chance", CASES)
def test_random_playout_keeps_the_contract(game, players, options, seed, chance):
    """Random legal playouts to the end keep every promise of the game contract; with
    external chance the chance seat's outcomes are chosen at random among the listed ones."""
    stats = run_playout(game, players, options, LARGE_SEED + seed, chance=chance)
    assert stats.moves > 0
