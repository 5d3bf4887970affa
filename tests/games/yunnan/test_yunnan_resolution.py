"""Resolution: the Bank payout, paying and taking each building's progress, and the choices."""

from __future__ import annotations

import pytest

from referee.games.yunnan import GAME
from referee.games.yunnan.data import GORGE_INDEX, SPACES, bank_payout
from tests.games.yunnan.helpers import code_of, new, play

TS, CO, HT, TG, BY, TEMPLE = ("trading_school", "customs_office", "horse_trader",
                              "traders_guild", "building_yard", "temple")


def with_bids(players=3, bids=(), **options):
    """A bidding state where seats 1.. have passed and seat 0 is to act; `bids` are
    (building, space value, owner) placed from the owners' supplies."""
    s = new(players, **options)
    for building, value, owner in bids:
        s["bids"][building][SPACES[building].index(value)] = owner
        s["supply"][owner] -= 1
    for p in range(1, players):
        s["passed"][p] = True
        s["market"][p] += s["supply"][p]
        s["supply"][p] = 0
    return s


def resolve(s):
    """Seat 0 passes, which ends the bidding: the buildings are resolved."""
    return play(s, {"type": "pass"})


@pytest.mark.parametrize("total, coins", [(0, 9), (9, 9), (10, 11), (35, 15), (59, 19),
                                          (90, 27), (99, 27), (140, 27)])
def test_bank_payout_bands(total, coins):
    assert bank_payout(total) == coins


def test_bank_pays_each_banker_by_the_total_of_all_bids_including_duli():
    s = with_bids(2, [(HT, 12, 1), (TEMPLE, 6, 1)])
    s["bank"] = [0]
    s["supply"][0] -= 1
    s["coins"] = [5, 30]
    # 9 (Dúlì's opening Trading School bid) + 12 + 6 = 27: band 20-29 pays 13
    s = resolve(s)
    assert s["coins"][0] == 5 + 13 and s["report"]["bank"]["total_bid"] == 27
    assert s["bank"] == [] and s["supply"][0] == 1  # the bank trader is back


@pytest.mark.parametrize("building, check", [
    (TS, lambda s: s["reserve"][0] == 3 and s["market"][0] == 1 + 2),
    (CO, lambda s: s["passes"][0] == 3),
    (HT, lambda s: s["horse"][0] == 1),
    (TG, lambda s: s["influence"][0] == 1),
], ids=[TS, CO, HT, TG])
def test_each_progress_building(building, check):
    s = resolve(with_bids(3, [(building, 12, 0)]))
    assert check(s)
    assert s["coins"][0] == 30 - 12 and s["supply"][0] == 1  # paid, trader back in supply
    assert s["phase"] == "travel"


def test_temple_lets_the_winner_choose_the_gorge():
    s = resolve(with_bids(3, [(TEMPLE, 4, 0)]))
    assert s["step"] == "block" and s["actor"] == 0
    assert len(GAME.legal_moves(s, 0)) == 4
    s = play(s, {"type": "block", "gorge": "sichuan-qinghai"})
    assert s["blocker"] == GORGE_INDEX["sichuan-qinghai"] and s["coins"][0] == 26


def test_building_yard_structure_kept_or_placed():
    s = resolve(with_bids(3, [(BY, 9, 0)]))
    moves = GAME.legal_moves(s, 0)
    assert {"type": "yard", "structure": "teahouse"} in moves
    assert {"type": "yard", "structure": "teahouse", "place": "yunnan"} in moves
    assert {"type": "yard", "structure": "bridge", "place": "yunnan-kang"} not in moves
    kept = play(s, {"type": "yard", "structure": "bridge"})
    assert kept["stock"][0]["bridge"] == 1 and kept["yard"][0]["bridge"] == 1
    placed = play(s, {"type": "yard", "structure": "trading_post", "place": "yunnan"})
    assert placed["posts"][0][0] == 1 and placed["stock"][0]["trading_post"] == 0
    assert code_of(s, {"type": "yard", "structure": "teahouse", "place": "kang"}) == \
        "move.illegal.yard.teahouse"


def test_a_player_chooses_the_order_of_its_buildings():
    s = resolve(with_bids(3, [(HT, 9, 0), (BY, 12, 0)]))
    assert s["step"] == "resolve"
    assert {m["building"] for m in GAME.legal_moves(s, 0)} == {HT, BY}
    s = play(s, {"type": "resolve", "building": HT})
    assert s["horse"][0] == 1 and s["step"] == "yard"  # the last building resolves at once
    s = play(s, {"type": "yard", "structure": "teahouse", "place": "sichuan"})
    assert s["teahouses"][1] == 0 and s["coins"][0] == 30 - 21


def test_resolution_goes_in_blue_order():
    s = with_bids(3, [(BY, 9, 1), (BY, 12, 2), (TEMPLE, 4, 2)])
    s["blue"] = [2, 0, 1]
    s["passed"][0] = True
    s["actor"] = 1
    s["passed"][1] = False
    s = play(s, {"type": "pass"})
    assert s["actor"] == 2 and s["step"] == "resolve"


def test_double_bid_gives_the_progress_twice():
    s = resolve(with_bids(3, [(HT, 9, 0), (HT, 12, 0)], double_bidding=True))
    assert s["horse"][0] == 2 and s["coins"][0] == 30 - 21 and s["supply"][0] == 2
    s = resolve(with_bids(3, [(BY, 9, 0), (BY, 15, 0)], double_bidding=True))
    s = play(s, {"type": "yard", "structure": "bridge"})
    assert s["step"] == "yard"
    s = play(s, {"type": "yard", "structure": "bridge"})
    assert s["stock"][0]["bridge"] == 2 and s["yard"][0]["bridge"] == 0


def test_guard_is_taken_from_the_yard_and_placed_at_once():
    s = resolve(with_bids(3, [(BY, 9, 0)], guards=True))
    moves = GAME.legal_moves(s, 0)
    assert {"type": "yard", "structure": "guard", "place": "qinghai"} in moves
    assert {"type": "yard", "structure": "guard"} not in moves
    assert code_of(s, {"type": "yard", "structure": "guard"}) == "move.illegal.yard.guard_place"
    s = play(s, {"type": "yard", "structure": "guard", "place": "kang"})
    assert s["guards"][0] == 2 and s["yard"][0]["guard"] == 0 and s["guard_spent"][0]


def test_bridge_from_the_yard_not_across_the_gorge_just_blocked():
    s = with_bids(3, [(TEMPLE, 6, 0), (BY, 9, 0)])
    s["horse"][0] = 2
    s = resolve(s)
    s = play(s, {"type": "resolve", "building": TEMPLE})
    s = play(s, {"type": "block", "gorge": "yunnan-kang"})
    assert code_of(s, {"type": "yard", "structure": "bridge", "place": "yunnan-kang"}) == \
        "move.illegal.yard.bridge"
