"""Rules version 2: Dúlì turns no card when no card could place a trader, and a player is
asked for the order of its building resolutions only when the order can change the result."""

from __future__ import annotations

import json
from itertools import combinations, permutations

import pytest

from referee.core.copying import deep_copy
from referee.core.kit import accepts
from referee.games.yunnan import GAME, duli, resolution
from referee.games.yunnan.data import BIDDABLE, SPACES
from tests.games.yunnan.helpers import new, play
from tests.games.yunnan.test_yunnan_resolution import resolve, with_bids

TS, CO, HT, TG, BY, TEMPLE = BIDDABLE


def _duli_everywhere(**options):
    """Seat 0 to bid; Dúlì has a trader in every Progress Building; seat 1 still bidding."""
    s = new(2, **options)
    for building in (CO, HT, TG, BY):  # the Trading School holds her opening bid
        s["bids"][building][SPACES[building].index(9)] = 2
        s["supply"][2] -= 1
    return s


def test_duli_turns_no_card_when_no_card_could_place_a_trader():
    # Rulebook: "When Dúlì bids, the top Dúlì Card of the draw pile is turned over and
    # executed." She can bid in no building ("she already has one Trader there"), so she does
    # not bid and turns no card; and "If both players have passed, Dúlì also passes": her only
    # pass, so she stays in the bidding.
    s = _duli_everywhere()
    deck = list(s["duli_cards"]["deck"])
    s = play(s, {"type": "market", "from": "supply"})  # seat 0
    s = play(s, {"type": "market", "from": "supply"})  # seat 1, then Dúlì's turn
    assert s["duli_cards"]["deck"] == deck and s["duli_cards"]["shown"] == []
    assert s["report"]["duli"][-1] == {"card": None, "bid": None}
    assert not s["passed"][2] and s["actor"] == 0


def test_duli_bids_again_once_a_space_frees_up():
    s = _duli_everywhere()
    s["bids"][CO][SPACES[CO].index(9)] = None  # her Customs Office trader is back
    s["supply"][2] += 1
    assert duli.can_bid(s)
    s["supply"][2] = 0  # ... but with an empty supply no card could place one
    s["reserve"][2] = 0
    assert not duli.can_bid(s)


def test_option_spend_card_keeps_rules_version_1():
    s = _duli_everywhere(duli_no_bid="spend_card")
    top = s["duli_cards"]["deck"][0]
    s = play(s, {"type": "market", "from": "supply"})
    s = play(s, {"type": "market", "from": "supply"})
    assert s["duli_cards"]["shown"] == [top]
    assert s["report"]["duli"][-1] == {"card": top, "bid": None}


def test_resolution_order_is_not_asked_when_it_cannot_matter():
    s = with_bids(3, [(TS, 9, 0), (CO, 12, 0), (TEMPLE, 6, 0)])
    s = resolve(s)
    # all three resolved in building order: the Temple's Gorge Blocker is the only choice
    assert s["step"] == "block" and s["reserve"][0] == 3 and s["passes"][0] == 3
    s = resolve(with_bids(3, [(BY, 9, 0), (TG, 12, 0)]))
    assert s["step"] == "yard" and s["influence"][0] == 1


def test_resolution_order_is_asked_when_the_yard_comes_with_the_horse_or_the_temple():
    for other in (HT, TEMPLE):
        s = resolve(with_bids(3, [(other, 6 if other == TEMPLE else 9, 0), (BY, 12, 0)]))
        assert s["step"] == "resolve"


def _outcomes(s, p, order):
    """Every state `p` can reach by resolving `order` one by one (all block/yard choices)."""
    frontier = [s]
    for building in order:
        nxt = []
        for state in frontier:
            state = deep_copy(state)
            resolution.resolve_building(state, p, building)
            nxt += _choices(state, p)
        frontier = nxt
    return {json.dumps(x, sort_keys=True) for x in frontier}


def _choices(s, p):
    """`s` after the pending block/yard choices of `p`, every way they can be made."""
    if s["step"] == "resolve":
        return [s]
    kind = GAME._kinds[s["step"]]
    out = []
    for rule, move in GAME._candidates(s, p, kind.kind, kind.move_types):
        if accepts(rule, s, p, move):
            t = deep_copy(s)
            rule.play(t, p, move)
            out += _choices(t, p)
    return out


def _resolution_state(buildings, horse=1):
    """Seat 0 with a bid in each of `buildings`, at the start of its resolution."""
    s = new(3)
    s["horse"][0], s["yard"][0]["trading_post"] = horse, 2
    for b in buildings:
        s["bids"][b][SPACES[b].index(max(SPACES[b]))] = 0
        s["supply"][0] -= 1 if s["supply"][0] else 0
    s["phase"], s["step"], s["cursor"] = "resolution", "resolve", 0
    return s


@pytest.mark.parametrize("size", [2, 3])
def test_every_order_gives_the_same_states_whenever_the_order_is_not_asked(size):
    """The criterion against brute force (all orders, all block/yard choices): sound where
    the order is not asked, and every asked combination does differ in some position."""
    for buildings in combinations(BIDDABLE, size):
        differs = False
        for horse in (0, 2, 3):
            s = _resolution_state(buildings, horse)
            results = [_outcomes(s, 0, order) for order in permutations(buildings)]
            same = all(r == results[0] for r in results)
            if not resolution.order_matters(list(buildings)):
                assert same, (buildings, horse)
            differs = differs or not same
        assert differs == resolution.order_matters(list(buildings)), buildings
