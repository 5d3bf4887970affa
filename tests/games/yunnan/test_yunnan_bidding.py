"""Bidding & Progress: spaces, outbidding and rejoining, caps, the Bank, the Market, passing."""

from __future__ import annotations

import pytest

from referee.games.yunnan import GAME
from tests.games.yunnan.helpers import code_of, new, play

TS, CO, HT, TG, BY, TEMPLE = ("trading_school", "customs_office", "horse_trader",
                              "traders_guild", "building_yard", "temple")


def bid(building, space, source="supply"):
    return {"type": "bid", "building": building, "space": space, "from": source}


def space_of(s, building, value):
    from referee.games.yunnan.data import SPACES
    return s["bids"][building][SPACES[building].index(value)]


# (name, first bid by seat 0, second bid by seat 1, seat 0's trader still there?)
OUTBID_CASES = [
    ("small_outbid_by_higher_small", (TS, 5), (TS, 7), False),
    ("small_outbid_by_large", (HT, 7), (HT, 9), False),
    ("temple_outbid_by_higher", (TEMPLE, 2), (TEMPLE, 6), False),
    ("large_safe_from_higher_large", (CO, 9), (CO, 15), True),
    ("large_never_blocks_lower_large", (TG, 15), (TG, 9), True),
]


@pytest.mark.parametrize("name, first, second, stays", OUTBID_CASES,
                         ids=[c[0] for c in OUTBID_CASES])
def test_outbidding(name, first, second, stays):
    s = play(new(3), bid(*first))
    s = play(s, bid(*second))
    assert space_of(s, second[0], second[1]) == 1
    assert (space_of(s, *first) == 0) is stays
    assert s["supply"][0] == (2 if stays else 3)


@pytest.mark.parametrize("name, setup_bid, attempt, code", [
    ("small_space_needs_the_highest_bid", (HT, 9), (HT, 5), "bid.small_space"),
    ("small_space_7_below_a_large_bid", (HT, 12), (HT, 7), "bid.small_space"),
    ("temple_small_only_as_highest", (TEMPLE, 4), (TEMPLE, 2), "bid.small_space"),
    ("occupied_space", (BY, 12), (BY, 12), "bid.occupied"),
], ids=lambda c: c if isinstance(c, str) else "")
def test_bid_space_rules(name, setup_bid, attempt, code):
    s = play(new(3), bid(*setup_bid))
    assert code_of(s, bid(*attempt)) == f"move.illegal.{code}"
    assert bid(*attempt) not in GAME.legal_moves(s, 1)


def test_one_trader_per_building_in_the_standard_game():
    s = new(3)
    s["bids"][HT][2] = 0  # seat 0 on the 9
    s["supply"][0] -= 1
    assert code_of(s, bid(HT, 12)) == "move.illegal.bid.one_per_building"


@pytest.mark.parametrize("building, patch", [
    (TS, lambda s: s["reserve"].__setitem__(0, 0)),
    (CO, lambda s: s["passes"].__setitem__(0, 6)),
    (HT, lambda s: s["horse"].__setitem__(0, 4)),
    (TG, lambda s: s["influence"].__setitem__(0, 4)),
    (BY, lambda s: s["yard"][0].update(trading_post=0, bridge=0, teahouse=0)),
], ids=[TS, CO, HT, TG, BY])
def test_no_bid_where_the_progress_is_used_up(building, patch):
    s = new(3)
    patch(s)
    assert code_of(s, bid(building, 9)) == "move.illegal.bid.progress_cap"


def test_payment_cap_counts_all_bids():
    s = new(3)
    s["coins"][0] = 13
    s["bids"][HT][2] = 0  # 9 coins already bid
    s["supply"][0] -= 1
    assert code_of(s, bid(CO, 5)) == "move.illegal.bid.payment_cap"
    assert play(s, bid(TEMPLE, 4))["bids"][TEMPLE][1] == 0  # 9 + 4 = 13 is affordable
    assert not [m for m in GAME.legal_moves(s, 0) if m["type"] == "bid" and m["space"] > 4]


def test_outbid_player_who_passed_rejoins_and_market_traders_stay():
    s = play(new(3), bid(TS, 5))              # seat 0
    s = play(s, {"type": "market", "from": "supply"})  # seat 1
    s = play(s, {"type": "market", "from": "supply"})  # seat 2
    s = play(s, {"type": "pass"})            # seat 0 passes: 2 traders to the Market
    assert s["passed"][0] and s["market"][0] == 2 and s["supply"][0] == 0
    s = play(s, bid(TS, 7))                  # seat 1 outbids seat 0
    assert not s["passed"][0] and s["supply"][0] == 1 and s["market"][0] == 2
    assert s["actor"] == 2
    s = play(s, {"type": "pass"})
    assert s["actor"] == 0                   # back in the blue order as if never passed


def test_pass_moves_the_rest_of_the_supply_to_the_market():
    s = play(new(3), {"type": "pass"})
    assert s["market"][0] == 3 and s["supply"][0] == 0 and s["passed"][0]
    assert s["actor"] == 1


def test_bank_moves_bidding_traders_and_supply_to_the_market_and_passes():
    s = play(new(3), bid(HT, 5))
    s = play(s, {"type": "market", "from": "supply"})
    s = play(s, {"type": "market", "from": "supply"})
    s = play(s, {"type": "bank", "from": "supply"})
    assert s["bank"] == [0] and s["passed"][0]
    assert s["market"][0] == 2 and s["supply"][0] == 0 and 0 not in s["bids"][HT]


def test_bank_has_two_spaces_and_one_with_duli():
    s = play(play(new(3), {"type": "bank", "from": "supply"}), {"type": "bank", "from": "supply"})
    assert code_of(s, {"type": "bank", "from": "supply"}) == "move.illegal.bid.bank_full"
    s2 = play(new(2), {"type": "bank", "from": "supply"})
    assert s2["actor"] == 1 and not [m for m in GAME.legal_moves(s2, 1) if m["type"] == "bank"]


def test_trader_taken_from_a_province_but_never_from_the_market():
    s = new(3)
    s["supply"][0], s["traders"][0][2], s["market"][0] = 1, 1, 1
    s["reserve"][0] -= 1
    after = play(s, bid(HT, 9, "kang"))
    assert after["traders"][0][2] == 0 and after["supply"][0] == 1
    after = play(s, {"type": "market", "from": "kang"})
    assert after["market"][0] == 2
    assert code_of(s, bid(HT, 9, "market")) == "move.malformed"
    assert code_of(s, bid(HT, 9, "tibet")) == "move.illegal.bid.source"


def test_forced_pass_when_no_trader_is_left():
    s = new(3)
    s["supply"][1], s["market"][1] = 0, 3
    s = play(s, {"type": "market", "from": "supply"})
    assert s["passed"][1] and s["actor"] == 2


# ---- expert rule: double bidding ---------------------------------------------------------

@pytest.mark.parametrize("double", [True, False])
def test_double_bid_only_with_the_option(double):
    s = new(3, double_bidding=double)
    s["bids"][HT][2] = 0
    s["supply"][0] -= 1
    if double:
        assert play(s, bid(HT, 12))["bids"][HT].count(0) == 2
    else:
        assert code_of(s, bid(HT, 12)) == "move.illegal.bid.one_per_building"


def test_double_bid_limits():
    s = new(3, double_bidding=True)
    s["bids"][HT][2] = s["bids"][HT][3] = 0
    s["supply"][0] -= 2
    assert code_of(s, bid(HT, 15)) == "move.illegal.bid.two_per_building"
    s2 = new(3, double_bidding=True)
    s2["horse"][0] = 3  # one step left: a second Horse Trader bid is useless
    s2["bids"][HT][2] = 0
    s2["supply"][0] -= 1
    assert code_of(s2, bid(HT, 12)) == "move.illegal.bid.progress_cap"
    s3 = new(3, double_bidding=True)
    s3["bids"][TEMPLE][0] = 0
    s3["supply"][0] -= 1
    assert code_of(s3, bid(TEMPLE, 6)) == "move.illegal.bid.one_per_building"


def test_double_bid_outbids_your_own_small_bid():
    s = new(3, double_bidding=True)
    s["bids"][TG][0] = 0  # seat 0 on the 5
    s["supply"][0] -= 1
    after = play(s, bid(TG, 7))
    assert after["bids"][TG][:2] == [None, 0] and after["supply"][0] == 2
    s["influence"][0] = 3  # capacity 1: replacing your own 5 by a 9 still leaves one trader
    after = play(s, bid(TG, 9))
    assert after["bids"][TG].count(0) == 1 and after["bids"][TG][2] == 0
