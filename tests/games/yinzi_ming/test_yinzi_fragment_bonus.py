"""Fragment, 'Merchant bonus and turn order': one test (or table) per sentence."""

from __future__ import annotations

import pytest

from referee.games.yinzi_ming import data
from tests.games.yinzi_ming.yinzi_helpers import (GAME, act, clear_board, give, illegal, leave_peasants, legal,
                                                  new, occupy, play_until, sentence,
                                                  through_placement)


def at_bonus(players=2, seed=1, **options):
    """Phase B of round 1, first Merchant pending."""
    return through_placement(new(players, seed, **options))


@sentence("S06")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_merchants_are_placed_in_current_turn_order(players):
    """The seats asked in phase B follow the current turn order, in round 1 and round 2."""
    s = at_bonus(players, seed=players)
    for rnd in (1, 2):
        expected, seen = list(s["order"]), []
        while s["phase"] == "bonus":
            if s["stage"] == "merchant":
                seen.append(s["active"])
                s = act(s, legal(s, "merchant")[-1])  # lowest free slot: order reverses
            else:
                s = act(s, {"type": "decline"})
        assert seen == expected
        s = play_until(s, lambda s, r=rnd: s["round"] == r + 1 or s["phase"] == "over")


@sentence("S06")
@pytest.mark.parametrize("slot, key, change", [
    (1, "sapeques", 1), (2, "ambassador", 1), (3, "stone", 1), (4, "sapeques", 0),
    (5, "sapeques", 0),
], ids=["imperial-audience", "yangtze-pass", "quarry-rights", "market-broker",
        "tax-exemption"])
def test_merchant_takes_the_benefit_of_its_space(slot, key, change):
    """The Merchant lands on the chosen empty space and its immediate benefit is taken."""
    s = at_bonus()
    seat, before = s["active"], s["seats"][s["active"]][key]
    s = act(s, {"type": "merchant", "slot": slot})
    assert s["register"][slot - 1]["merchant"] == seat
    assert s["seats"][seat][key] == before + change


def test_yangtze_pass_stops_at_the_last_track_space():
    """Completion: the Ambassador never passes space 6."""
    s = at_bonus()
    give(s, s["active"], ambassador=data.TRACK_LAST)
    s = act(s, {"type": "merchant", "slot": 2})
    assert s["seats"][s["register"][1]["merchant"]]["ambassador"] == data.TRACK_LAST


@sentence("S07")
def test_each_space_holds_one_merchant():
    """A space already holding a Merchant is not offered and is rejected."""
    s = act(at_bonus(), {"type": "merchant", "slot": 2})
    if s["stage"] == "crop_tile":
        s = act(s, {"type": "decline"})
    illegal(s, {"type": "merchant", "slot": 2}, "merchant.occupied")
    assert {m["slot"] for m in legal(s, "merchant")} == {1, 3, 4, 5, 6}


def _buying(slot, **holdings):
    s = at_bonus()
    clear_board(s)
    seat = s["active"]
    give(s, seat, **holdings)
    return act(s, {"type": "merchant", "slot": slot}), seat


@sentence("S08")
@pytest.mark.parametrize("slot", [s["slot"] for s in data.SLOTS])
def test_buy_the_crop_tile_beside_the_space(slot):
    """Pay the slot's 1-3 cost, take the tile and 2 supply Peasants onto an unattended Field."""
    s, seat = _buying(slot, sapeques=10)
    tile = s["register"][slot - 1]["tile"]
    cost = data.SLOT_COST[slot]
    assert 1 <= cost <= 3
    money = s["seats"][seat]["sapeques"]
    s = act(s, {"type": "buy_tile", "field": "SZ4"})
    assert s["seats"][seat]["sapeques"] == money - cost
    assert s["tiles"]["SZ4"] == tile and s["register"][slot - 1]["tile"] is None
    assert s["occupants"]["SZ4"] == {"owner": seat, "count": 2}
    assert s["seats"][seat]["peasants"] == data.PEASANTS - 2


@sentence("S08")
def test_buying_is_optional():
    """'You may also buy': declining leaves tile, money and Peasants alone."""
    s, seat = _buying(5, sapeques=10)
    after = act(s, {"type": "decline"})
    assert after["register"][4]["tile"] == s["register"][4]["tile"] or after["phase"] != "bonus"
    assert after["seats"][seat]["sapeques"] == 10 and after["occupants"] == {}


@sentence("S08")
@pytest.mark.parametrize("case, field, holdings, code", [
    ("attended field", "SZ4", {}, "buy_tile.attended"),
    ("salt mine is not a field", "TZM1", {}, "move.malformed"),
    ("cannot afford", "SZ5", {"sapeques": 0}, "buy_tile.sapeques"),
    ("one peasant left", "SZ5", {"left": 1}, "buy_tile.peasants"),
])
def test_crop_tile_purchase_limits(case, field, holdings, code):
    """Only an unattended Field; the cost and the two Peasants must be available."""
    s, seat = _buying(3, sapeques=10)
    occupy(s, "SZ4", 1 - seat, 1)
    if "left" in holdings:
        leave_peasants(s, seat, holdings.pop("left"))
    give(s, seat, **holdings)
    illegal(s, {"type": "buy_tile", "field": field}, code)


@sentence("S08")
def test_crop_tile_step_skipped_when_nothing_can_be_bought():
    """With no money for any tile, the Merchant's turn ends after the benefit."""
    s, seat = _buying(5, sapeques=0)
    assert s["stage"] == "merchant" and s["active"] != seat


@sentence("S09")
def test_register_order_becomes_turn_order():
    """Top-to-bottom Merchant order (slot 1 first) is the turn order for the rest of the round."""
    s = at_bonus(3, seed=2)
    first, second, third = s["order"]
    for slot in (4, 1, 3):
        s = act(s, {"type": "merchant", "slot": slot})
        if s["stage"] == "crop_tile":
            s = act(s, {"type": "decline"})
    assert s["phase"] == "directives"
    assert s["order"] == [second, third, first]
    assert s["active"] == second
    s = play_until(s, lambda s: s["phase"] == "regulation")
    assert s["queue"] == [second, third, first]  # still the order in phase D


@sentence("S10")
def test_register_refill_slides_up_and_draws():
    """Bought tiles leave gaps; remaining tiles slide upward, new ones fill the bottom."""
    s = at_bonus(2, seed=3)
    clear_board(s)
    tiles = [r["tile"] for r in s["register"]]
    deck = list(s["crop_deck"])
    for slot, field in ((1, "SZ4"), (3, "SZ5")):
        give(s, s["active"], sapeques=10)
        s = act(act(s, {"type": "merchant", "slot": slot}), {"type": "buy_tile", "field": field})
    assert [r["tile"] for r in s["register"]] == [tiles[1], tiles[3], tiles[4], tiles[5],
                                                  deck[0], deck[1]]
    assert s["crop_deck"] == deck[2:]


def test_register_slots_stay_empty_when_crop_deck_is_out():
    """Completion: if the Crop deck runs out, slots stay empty."""
    s = at_bonus(2, seed=3)
    clear_board(s)
    s["crop_discard"] += s["crop_deck"]
    s["crop_deck"] = []
    for slot, field in ((1, "SZ4"), (2, "SZ5")):
        give(s, s["active"], sapeques=10)
        s = act(act(s, {"type": "merchant", "slot": slot}), {"type": "buy_tile", "field": field})
    assert [r["tile"] is None for r in s["register"]] == [False, False, False, False, True,
                                                          True]
    assert GAME.from_dict(s)
