"""The core's conformance suite on Yinzi: Ming, deeper than the shared run.

tests/test_conformance.py already plays seeds 0-2 of every setup with all checks (views
included). Here: more seeds, for 2, 3 and 4 players and every option, with the cheaper checks
by default so the directory stays under a minute. `YINZI_CONFORMANCE_SEEDS=N` plays seeds
3..N+2 of every setup with every check (views included): the deep run. External chance (issue
16): the default options' first seeds with random outcomes for the chance seat (every set-up
on a deep run).
"""

from __future__ import annotations

import os

import pytest

from referee.conformance import option_variants, run_playout
from referee.core.chance import EXTERNAL, INTERNAL
from tests.games.yinzi_ming.yinzi_helpers import GAME

pytestmark = pytest.mark.slow  # a deep run: skipped by the fast lane, -m "not slow"

DEEP = int(os.environ.get("YINZI_CONFORMANCE_SEEDS", "0"))
DEFAULT_SEEDS = range(3, 9)    # 6 more seeds with the default options
OPTION_SEEDS = range(3, 5)     # 2 more seeds per non-default option
EXTERNAL_SEEDS = range(3, 5)   # external chance, default options


def _cases():
    for players in (2, 3, 4):
        for options in option_variants(GAME):
            name = "-".join(f"{k}={v}" for k, v in options.items()) or "defaults"
            seeds = range(3, 3 + DEEP) if DEEP else (OPTION_SEEDS if options else DEFAULT_SEEDS)
            for seed in seeds:
                yield pytest.param(players, options, seed, INTERNAL,
                                   id=f"{players}p-{name}-s{seed}")
            for seed in seeds if DEEP else (EXTERNAL_SEEDS if not options else ()):
                yield pytest.param(players, options, seed, EXTERNAL,
                                   id=f"{players}p-{name}-s{seed}-external")


@pytest.mark.parametrize("players, options, seed, chance", list(_cases()))
def test_yinzi_random_playout_keeps_the_contract(players, options, seed, chance):
    """Random legal playouts keep the contract; view checks on a deep run and seed 3 defaults."""
    stats = run_playout(GAME, players, options, seed, chance=chance,
                        views=bool(DEEP) or (seed == 3 and not options))
    assert stats.moves > 0
