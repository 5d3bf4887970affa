"""The conformance suite over every registered game (and the test game)."""

from __future__ import annotations

import pytest

from referee.conformance import playable_setups, run_playout
from tests.conftest import ALL_GAMES, CONFORMANCE_SEEDS

LARGE_SEED = 7_340_000_000_000
"""Seeds this large let the suite spot a view that shows the seed."""

CASES = [
    pytest.param(game, players, options, seed,
                 id=f"{game.spec.name}-{players}p-{'-'.join(f'{k}={v}' for k, v in options.items()) or 'defaults'}-s{seed}",
                 marks=[pytest.mark.slow] if seed else [])  # seed 0 of each: the fast lane
    for game in ALL_GAMES
    for players, options in playable_setups(game)
    for seed in range(CONFORMANCE_SEEDS)
]


@pytest.mark.parametrize("game, players, options, seed", CASES)
def test_random_playout_keeps_the_contract(game, players, options, seed):
    """Random legal playouts to the end keep every promise of the game contract."""
    stats = run_playout(game, players, options, LARGE_SEED + seed)
    assert stats.moves > 0
