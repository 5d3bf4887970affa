"""Completion 5.6-5.7 and 5.10-5.11: the Trade Directive (Produce, Ship, Quarry), passing,
extra Overseers, Workshop levels, Ships, and option exclusive_trade_slots."""

from __future__ import annotations

import pytest

from referee.games.yinzi_ming import data
from tests.games.yinzi_ming.yinzi_helpers import (act, add_workshop, at_directives, clear_board,
                                                  command, give, illegal, legal, play_until,
                                                  set_market, set_port, trade, wid_of)

SUGAR = wid_of("sugar")


def trading(value=3, level=1, goods=0, players=2, **options):
    """A Trade Directive; the seat owns a Sugar Workshop (needs sugarcane) in Suzhou.

    Markets: Suzhou M5 (rice, bamboo, sugarcane, ramie), Changzhou M8 (fruit, sugarcane, ...),
    each sugarcane space holding a Peasant: Suzhou's of the other seat, Changzhou's own.
    """
    s = at_directives(players, **options)
    seat, other = s["active"], (s["active"] + 1) % players
    clear_board(s)
    add_workshop(s, seat, SUGAR, ["SZ1", "SZ2", "SZ3"], level=level, goods=goods)
    set_market(s, "suzhou", "M5", [None, None, other, None])
    set_market(s, "changzhou", "M8", [None, seat, None, None])
    set_port(s, ["S1", "S4", "S2"])
    give(s, seat, ambassador=1)
    return trade(s, value), seat, other


def produce(market, index, wid=SUGAR):
    return {"type": "produce", "workshop": wid, "market": market, "index": index}


@pytest.mark.parametrize("value", [1, 2, 3])
def test_trade_gives_bottom_value_actions_and_overseers_to_four(value):
    """T = the bottom value, plus extra Overseers, capped at 4; repeats allowed."""
    s, seat, _ = trading(value)
    give(s, seat, sapeques=20)
    assert s["turn"]["allowed"] == value and s["turn"]["half"] == "bottom"
    for _ in range(4 - value):
        s = act(s, {"type": "overseer"})
    illegal(s, {"type": "overseer"}, "overseer.cap")
    for _ in range(4):
        s = act(s, {"type": "quarry"})
    illegal(s, {"type": "quarry"}, "quarry.no_action_left")
    assert s["seats"][seat]["stone"] == data.START["stone"] + 4


@pytest.mark.parametrize("half", ["command", "trade"])
def test_a_half_may_be_used_with_zero_actions(half):
    """Passing: choose a half and end the turn at once."""
    s = at_directives()
    seat = s["active"]
    s = command(s, "sell", 3) if half == "command" else trade(s, 3)
    s = act(s, {"type": "done"})
    assert s["active"] != seat and s["stage"] == "choose"


def test_produce_takes_a_market_peasant_back_to_its_owner():
    """Produce: a Peasant of the input crop (anybody's) leaves the market for its owner's
    supply; the Workshop gets 1 Good."""
    s, seat, other = trading(level=2)
    supply = s["seats"][other]["peasants"]
    s = act(s, produce("suzhou", 2))
    assert s["markets"]["suzhou"]["spaces"][2] is None
    assert s["seats"][other]["peasants"] == supply + 1
    assert s["workshops"][SUGAR]["goods"] == 1 and s["workshops"][SUGAR]["produced"] == 1
    assert s["turn"]["moved"] == 0  # same Province
    s = act(s, produce("changzhou", 1))  # own Peasant, one border away: 1 point
    assert s["turn"]["moved"] == 1 and s["workshops"][SUGAR]["goods"] == 2


@pytest.mark.parametrize("level", [1, 2, 3])
def test_workshop_level_caps_production_per_round(level):
    """5.10: a Workshop makes at most `level` Goods a round."""
    s, seat, other = trading(value=3, level=level)
    give(s, seat, ambassador=6)
    s = act(s, {"type": "overseer"})
    sources = [("suzhou", 2), ("changzhou", 1)]
    for prov, i in sources[:min(level, 2)]:
        s = act(s, produce(prov, i))
    if level == 3:
        set_market(s, "tongzhou", "M5", [None, None, other, None])
        s = act(s, produce("tongzhou", 2))
    set_market(s, "yangzhou", "M8", [None, other, None, None])
    illegal(s, produce("yangzhou", 1), "produce.level")


@pytest.mark.parametrize("case, move, code", [
    ("wrong crop", produce("suzhou", 1), "produce.input"),
    ("empty space", produce("suzhou", 0), "produce.no_peasant"),
    ("not your workshop", produce("suzhou", 2, wid_of("paper")), "produce.not_yours"),
])
def test_produce_limits(case, move, code):
    """The input crop must be there, on a market space; only your own Workshop produces."""
    s, seat, _ = trading()
    set_market(s, "suzhou", "M5", [None, 1 - seat, 1 - seat, None])
    illegal(s, move, code)


def test_ship_fills_a_matching_slot_for_one_yinzi_and_two_vp():
    """5.11: a Good from your Workshop onto the vacant matching slot: 1 Yinzi + 2 VP."""
    s, seat, _ = trading(goods=2)
    give(s, seat, ambassador=2)
    s = act(s, {"type": "ship", "workshop": SUGAR, "ship": "S4"})
    st = s["seats"][seat]
    assert (st["yinzi"], st["ship_vp"]) == (2, 2)
    assert s["port"][1]["slots"] == [seat, None, None]  # S4: sugar, paper, spirits
    assert s["workshops"][SUGAR]["goods"] == 1 and s["turn"]["moved"] == 1
    illegal(s, {"type": "ship", "workshop": SUGAR, "ship": "S4"}, "ship.slot_full")


@pytest.mark.parametrize("case, ship, goods, code", [
    ("ship does not want it", "S2", 1, "ship.no_demand"),
    ("ship not at port", "S6", 1, "ship.not_at_port"),
    ("no good", "S1", 0, "ship.no_goods"),
])
def test_ship_limits(case, ship, goods, code):
    """Only a Ship at the Port that wants the Good, and only a Good you have."""
    s, _, _ = trading(goods=goods)
    illegal(s, {"type": "ship", "workshop": SUGAR, "ship": ship}, code)


def test_quarry_pays_two_for_a_stone():
    """Quarry: 2 Sapeques for 1 Stone; not without the Sapeques."""
    s, seat, _ = trading()
    give(s, seat, sapeques=3, stone=0)
    s = act(s, {"type": "quarry"})
    assert (s["seats"][seat]["sapeques"], s["seats"][seat]["stone"]) == (1, 1)
    illegal(s, {"type": "quarry"}, "quarry.sapeques")


@pytest.mark.parametrize("players", [2, 3])
def test_exclusive_trade_slots(players):
    """Option: each Trade action has players-1 slots a round; Maintenance clears them."""
    s, seat, other = trading(players=players, exclusive_trade_slots=True)
    give(s, seat, sapeques=20)
    for _ in range(players - 1):
        s = act(s, {"type": "quarry"})
    illegal(s, {"type": "quarry"}, "quarry.slots_full")
    assert s["trade_slots"]["quarry"] == [seat] * (players - 1)
    s = play_until(s, lambda s: s["round"] == 2)
    assert s["trade_slots"] == {a: [] for a in data.TRADE_ACTIONS}


def test_without_exclusive_slots_trade_actions_are_unlimited():
    """Default: no slot limit (four Quarries by one seat)."""
    s, seat, _ = trading()
    give(s, seat, sapeques=20)
    s = act(s, {"type": "overseer"})
    for _ in range(4):
        s = act(s, {"type": "quarry"})
    assert s["trade_slots"]["quarry"] == []


def test_goods_wait_and_overseers_return_at_maintenance():
    """5.7/5.10: extra Overseers go home in Maintenance; Goods stay on their Workshop."""
    s, seat, _ = trading(goods=1)
    overseers = s["seats"][seat]["overseers"]
    s = act(s, {"type": "overseer"})
    assert s["seats"][seat]["overseers"] == overseers - 1
    s = play_until(s, lambda s: s["round"] == 2)
    assert s["seats"][seat]["overseers"] == overseers
    assert s["workshops"][SUGAR]["goods"] == 1 and s["workshops"][SUGAR]["produced"] == 0


def test_trade_actions_only_in_a_trade_directive():
    """A Command offers its own action's moves, never Produce/Ship/Quarry."""
    s = command(at_directives(), "sell", 2)
    assert not {m["type"] for m in legal(s)} & {"produce", "ship", "quarry"}
