"""Fragment, 'Transport capacity': one test (or table) per sentence."""

from __future__ import annotations

import pytest

from referee.games.yinzi_ming import board, data
from tests.games.yinzi_ming.yinzi_helpers import (act, add_workshop, at_directives, clear_board,
                                                  command, give, illegal, occupy, sentence,
                                                  set_market, set_port, trade, wid_of)


def selling(ambassador, lines=3, extra=1, **options):
    """A 4-action Sell Command; the seat's Peasants: rice YZ1/YZ2, maize YZ3, salt YZM1, tea YZ8.

    Markets: Yangzhou M1 (rice, maize, salt, tea), Tongzhou M5 (rice first), Changzhou M2
    (rice first), Suzhou M7 (salt, ramie, bamboo, rice).
    """
    s = at_directives(**options)
    seat = s["active"]
    clear_board(s)
    for sid, n in (("YZ1", 2), ("YZ2", 2), ("YZ3", 2), ("YZM1", 2), ("YZ8", 1)):
        occupy(s, sid, seat, n)
    for prov, tile in (("yangzhou", "M1"), ("tongzhou", "M5"), ("changzhou", "M2"),
                       ("suzhou", "M7")):
        set_market(s, prov, tile)
    give(s, seat, ambassador=ambassador)
    s = command(s, "sell", lines)
    for _ in range(extra):
        s = act(s, {"type": "overseer"})
    return s, seat


def sale(space, market, index):
    return {"type": "sell", "space": space, "market": market, "index": index}


CROSS = [sale("YZ1", "tongzhou", 0), sale("YZ1", "changzhou", 0), sale("YZ2", "suzhou", 3)]


@sentence("S18")
@pytest.mark.parametrize("ambassador", [1, 2])
def test_ambassador_space_is_the_allowance(ambassador):
    """With the Ambassador on space A, exactly A cross-border moves fit in the turn."""
    s, seat = selling(ambassador)
    for move in CROSS[:ambassador]:
        s = act(s, move)
    illegal(s, CROSS[ambassador], "sell.transport")


@sentence("S19")
@pytest.mark.parametrize("move, border", [
    (sale("YZ1", "tongzhou", 0), "orthogonal NW-NE"),
    (sale("YZ1", "changzhou", 0), "orthogonal NW-SW"),
    (sale("YZ2", "suzhou", 3), "diagonal NW-SE"),
], ids=["orthogonal-east", "orthogonal-south", "diagonal"])
def test_each_border_crossing_costs_one(move, border):
    """A Peasant crossing one border, diagonal included, costs exactly one point."""
    s, _ = selling(2)
    after = act(s, move)
    assert after["turn"]["moved"] == 1
    assert 0 < board.move_cost(s, s["turn"], "yangzhou", move["market"])[0] == 1


@sentence("S19")
def test_good_to_the_port_costs_one():
    """A Good shipped from a Province to the Port costs one point of the allowance."""
    s = at_directives()
    seat = s["active"]
    add_workshop(s, seat, wid_of("sugar"), ["SZ1", "SZ2", "SZ3"], goods=2)
    set_port(s, ["S1", "S4", "S6"])
    give(s, seat, ambassador=1)
    s = act(trade(s, 3), {"type": "ship", "workshop": wid_of("sugar"), "ship": "S1"})
    assert s["turn"]["moved"] == 1
    illegal(s, {"type": "ship", "workshop": wid_of("sugar"), "ship": "S4"}, "ship.transport")
    for prov in data.PROVINCES:
        assert board.move_cost(s, None, prov, data.PORT) == (1, False)


@sentence("S20")
def test_moves_within_a_province_cost_zero():
    """Four sales inside Yangzhou with an allowance of 1 spend nothing."""
    s, seat = selling(1)
    for move in (sale("YZ1", "yangzhou", 0), sale("YZ3", "yangzhou", 1),
                 sale("YZM1", "yangzhou", 2), sale("YZ8", "yangzhou", 3)):
        s = act(s, move)
    assert s["turn"]["moved"] == 0
    assert s["seats"][seat]["sapeques"] > 0


@sentence("S21")
def test_spending_capacity_never_moves_the_ambassador():
    """Spend the whole allowance: the Ambassador stays; more is refused; free moves still go."""
    s, seat = selling(2)
    s = act(act(s, CROSS[0]), CROSS[1])
    assert s["seats"][seat]["ambassador"] == 2
    assert board.allowance_left(s, seat, s["turn"]) == 0
    illegal(s, CROSS[2], "sell.transport")
    s = act(s, sale("YZ3", "yangzhou", 1))
    assert s["seats"][seat]["ambassador"] == 2


@sentence("S21")
def test_allowance_is_per_turn():
    """Completion 5.8: the next turn starts with the full allowance again."""
    s, seat = selling(1, lines=1, extra=0)
    s = act(act(s, CROSS[0]), {"type": "done"})
    assert s["turn"] is None
    s = act(act(s, {"type": "trade", "card": s["seats"][s["active"]]["cards"][0]["card"]}),
            {"type": "done"})
    s = act(s, {"type": "trade", "card": 0})
    assert board.allowance_left(s, seat, s["turn"]) == 1


NO_BORDERS = {p: {q: (0 if p == q else None) for q in data.PROVINCES} for p in data.PROVINCES}
CHAIN = ["yangzhou", "tongzhou", "suzhou", "changzhou"]
PATH = {p: {q: abs(CHAIN.index(p) - CHAIN.index(q)) for q in CHAIN} for p in CHAIN}


@sentence("S22")
def test_yangtze_joins_every_pair_of_provinces_at_one():
    """Default (A3 'cost'): even on a map with no land borders, any two Provinces cost 1."""
    s, _ = selling(2)
    for p in data.PROVINCES:
        for q in data.PROVINCES:
            assert board.move_cost(s, s["turn"], p, q)[0] == (0 if p == q else 1)


@sentence("S22")
def test_yangtze_without_land_borders(monkeypatch):
    """With the map's borders removed, sales still cross along the Yangtze at 1 point each."""
    monkeypatch.setattr(data, "LAND", NO_BORDERS)
    s, _ = selling(2)
    s = act(act(s, CROSS[0]), CROSS[1])
    assert s["turn"]["moved"] == 2


@sentence("S22")
def test_yangtze_throughput_reading(monkeypatch):
    """A3 'throughput': the Yangtze carries one piece a turn; then land costs apply."""
    monkeypatch.setattr(data, "LAND", PATH)
    s, _ = selling(4, yangtze_capacity="throughput")
    s = act(s, sale("YZ1", "changzhou", 0))  # 3 borders by land, 1 by the Yangtze
    assert (s["turn"]["moved"], s["turn"]["yangtze"]) == (1, 1)
    assert board.move_cost(s, s["turn"], "yangzhou", "changzhou") == (3, False)
    s = act(s, sale("YZ1", "suzhou", 3))  # 2 borders by land; the Yangtze is used up
    assert s["turn"]["moved"] == 3
    s = act(s, sale("YZ2", "tongzhou", 0))  # 1 border: the last point
    assert board.allowance_left(s, s["active"], s["turn"]) == 0


@sentence("S22")
def test_yangtze_throughput_without_land_borders(monkeypatch):
    """A3 'throughput' with no borders at all: after one piece, no other Province is reachable."""
    monkeypatch.setattr(data, "LAND", NO_BORDERS)
    s, _ = selling(4, yangtze_capacity="throughput")
    s = act(s, CROSS[0])
    illegal(s, CROSS[1], "sell.transport")
    s = act(s, sale("YZ3", "yangzhou", 1))  # within the Province: still free
