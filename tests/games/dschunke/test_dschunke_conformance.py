"""The core's conformance suite on Dschunke, deeper than the shared run, for every set-up
(internal chance, converted to external logs by the suite, and external chance).

Uniformly random bids are nearly always in several colours (void), so besides the suite's own
random playouts a biased driver plays real single-colour bids through the same contract
checks: that is what reaches poker payouts, S rewards, ties and round 10's choice.
"""

from __future__ import annotations

import os
from collections import Counter

import pytest

from referee import conformance as c
from referee.core import Rng
from referee.core.chance import CHANCE, EXTERNAL
from referee.games.dschunke import GAME

pytestmark = pytest.mark.slow  # a deep run: skipped by the fast lane, -m "not slow"

SEEDS = int(os.environ.get("DSCHUNKE_SEEDS", "20"))
SETUPS = [(3, {}), (4, {})]
VARIANTS = [(2, {"two_player_variant": True}),
            (2, {"two_player_variant": True, "setup_variant": True}),
            (3, {"setup_variant": True}), (4, {"setup_variant": True}),
            (3, {"load_single_last_strip": False}), (4, {"s_tie_settles": False})]


@pytest.mark.parametrize("players, options, seed", [
    pytest.param(p, o, s, id=f"{p}p-{'-'.join(o) or 'defaults'}-s{s}")
    for p, o in SETUPS for s in range(SEEDS)])
def test_conformance_random_playouts(players, options, seed):
    assert c.run_playout(GAME, players, options, seed).moves > 0


@pytest.mark.parametrize("players, options, seed", [
    pytest.param(p, o, s, id=f"{p}p-{'-'.join(o)}-s{s}")
    for p, o in VARIANTS for s in range(max(2, SEEDS // 10))])
def test_conformance_random_playouts_variants(players, options, seed):
    assert c.run_playout(GAME, players, options, seed).moves > 0


def _biased_choice(state, decision, moves, rng):
    """Prefer one-colour bids: a target colour per seat and poker round, 0 elsewhere."""
    if decision.kind != "bid":
        return rng.choice(moves)
    poker = state["poker"]
    hand = state["seats"][decision.seat]["hand"]
    stake = poker["bids"][decision.seat]["stake"]
    target = Rng(state["seed"], f"target:{decision.seat}:{state['round']}:{poker['round']}")
    colours = ["white", "brown", "lilac", "orange"]
    wanted = target.choice(colours)
    goods = decision.prompt["goods"]
    if goods != wanted or stake or hand[goods] == 0:
        return moves[0]
    return moves[1 + rng.below(len(moves) - 1)]


def biased_playout(players, options, seed, counts: Counter):
    """A conformance playout whose bids are biased; counts what it reached."""
    stats = c.run_playout(GAME, players, options, seed, accept_all=2, probes=3,
                          choose=_biased_choice)
    for _, move in stats.log:
        counts[move["type"] if move["type"] != "s_reward" else f"s_reward:{move['choice']}"] += 1
    counts["paid"] += sum(1 for s in stats.final_state["seats"] if s["cash"] > 0)


def test_conformance_biased_playouts_reach_every_poker_outcome():
    counts = Counter()
    for players, options in [(3, {}), (4, {}), (2, {"two_player_variant": True})]:
        for seed in range(max(3, SEEDS // 7)):
            biased_playout(players, options, seed, counts)
    assert counts["take_card"] > 2 * 9 * 3  # S events, plus cards won in the poker
    assert counts["s_reward:yuan"] > 0 and counts["s_reward:card"] > 0
    assert counts["paid"] > 0 and counts["trade_goods"] > 0 and counts["swap"] > 0
    assert counts["move_strip"] > 0 and counts["extra_action"] > 0


@pytest.mark.parametrize("players, options, seed", [
    pytest.param(p, o, s, id=f"{p}p-{'-'.join(o) or 'defaults'}-s{s}")
    for p, o in SETUPS + VARIANTS for s in range(max(1, SEEDS // 20))])
def test_conformance_external_chance_playouts(players, options, seed):
    """Every set-up with external chance: the chance seat's outcomes are chosen among those
    listed (bids biased to reach payouts and S rewards), every contract check as usual."""
    stats = c.run_playout(GAME, players, options, seed, accept_all=2, probes=3,
                          choose=_biased_choice, chance=EXTERNAL)
    kinds = {move["type"] for seat, move in stats.log if seat == CHANCE}
    assert kinds == {"chance"} and stats.final_state["market"]["deck"] == []
