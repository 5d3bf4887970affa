"""Match options: ambiguities A1, A2, A4 and exchange_in_bonus_turn (A3 and
exclusive_trade_slots are in the transport and trade tests)."""

from __future__ import annotations

import pytest

from referee.core.errors import InvalidOptions
from referee.games.yinzi_ming import data
from referee.games.yinzi_ming.spec import SPEC
from tests.games.yinzi_ming.yinzi_helpers import (act, add_workshop, at_directives, clear_board,
                                                  command, give, illegal, legal, new, play_until,
                                                  set_cards, through_placement)


def test_options_and_defaults():
    """The completion's flags are options at its defaults, and unknown values are refused."""
    assert SPEC.resolve_options({}) == {
        "unattended_excludes_workshops": True, "supply_ignores_transport": True,
        "yangtze_capacity": "cost", "command_after_trade": True,
        "exclusive_trade_slots": False, "exchange_in_bonus_turn": False, "ships_sail": "loaded"}
    with pytest.raises(InvalidOptions):
        SPEC.resolve_options({"yangtze_capacity": "fast"})


def _covered(**options):
    s = at_directives(**options)
    clear_board(s)
    add_workshop(s, 1 - s["active"], s["workshop_deck"][0], ["SZ1", "SZ2", "SZ3"])
    give(s, s["active"], sapeques=10, stone=1)
    return s


@pytest.mark.parametrize("excludes", [True, False])
def test_a1_covered_fields_and_deploy(excludes):
    """A1: under a Workshop a Field is attended (default); off, Peasants may go there."""
    s = command(_covered(unattended_excludes_workshops=excludes), "deploy", 2)
    move = {"type": "deploy", "space": "SZ1"}
    tile = {"type": "deploy_tile", "slot": 1, "field": "SZ2"}
    if excludes:
        illegal(s, move, "deploy.attended")
        illegal(s, tile, "deploy_tile.attended")
    else:
        s = act(act(s, move), tile)
        assert s["occupants"]["SZ1"]["count"] == 1 and s["occupants"]["SZ2"]["count"] == 2


@pytest.mark.parametrize("excludes", [True, False])
def test_a1_never_a_second_workshop(excludes):
    """A1 either way: a Workshop is never built over another Workshop."""
    s = command(_covered(unattended_excludes_workshops=excludes), "build", 1)
    illegal(s, {"type": "build", "tile": s["display"][0], "fields": ["SZ3", "SZ4", "SZ5"]},
            "build.covered")


@pytest.mark.parametrize("ignores, ambassador, allowed", [
    (True, 1, ["SZ6", "YZ1"]), (False, 1, ["SZ6"]), (False, 3, ["SZ6", "YZ1"])])
def test_a2_supply_placements_and_transport(ignores, ambassador, allowed):
    """A2: from the supply costs nothing (default); off, 1 point per Peasant placed."""
    s = at_directives(supply_ignores_transport=ignores)
    clear_board(s)
    give(s, s["active"], ambassador=ambassador)
    s = command(s, "deploy", 2)
    s = act(s, {"type": "deploy", "space": "SZ6"})  # tea: 1 Peasant
    if "YZ1" in allowed:
        act(s, {"type": "deploy", "space": "YZ1"})  # rice: 2 Peasants
    else:
        illegal(s, {"type": "deploy", "space": "YZ1"}, "deploy.transport")


@pytest.mark.parametrize("ignores", [True, False])
def test_a2_bonus_crop_tile(ignores):
    """A2 off: the Bonus-turn Crop tile's 2 Peasants need 2 points of the Ambassador's space."""
    s = through_placement(new(supply_ignores_transport=ignores))
    clear_board(s)
    give(s, s["active"], sapeques=10, ambassador=1)
    s = act(s, {"type": "merchant", "slot": 5})
    if ignores:
        act(s, {"type": "buy_tile", "field": "SZ6"})
    else:
        assert s["stage"] == "merchant"  # no purchase possible: the step is skipped
    t = through_placement(new(supply_ignores_transport=ignores))
    clear_board(t)
    give(t, t["active"], sapeques=10, ambassador=1)
    t = act(act(t, {"type": "merchant", "slot": 2}), {"type": "buy_tile", "field": "SZ6"})
    assert t["occupants"]["SZ6"]["count"] == 2  # Yangtze Pass first: Ambassador 2


def test_a2_off_setup_placements_stay_free():
    """A2 off does not touch the set-up placements."""
    s = through_placement(new(supply_ignores_transport=False))
    assert len(s["occupants"]) == 2


@pytest.mark.parametrize("allowed", [True, False])
def test_a4_bottom_half_first(allowed):
    """A4: default, a bottom half may go first; off, only after the card's top half."""
    s = at_directives(command_after_trade=allowed)
    set_cards(s, s["active"], [0, 4, 8])
    if allowed:
        assert {m["card"] for m in legal(s, "trade")} == {0, 4, 8}
        return
    illegal(s, {"type": "trade", "card": 4}, "trade.top_first")
    assert legal(s, "trade") == []
    seat = s["active"]
    s = act(act(s, {"type": "command", "card": 4, "action": "sell"}), {"type": "done"})
    s = play_until(s, lambda s: s["active"] == seat and s["stage"] == "choose")
    assert legal(s, "trade") == [{"type": "trade", "card": 4}]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a4_off_always_leaves_a_legal_directive(players):
    """A4 off never strands a player: six halves fit in six turns."""
    s = play_until(at_directives(players, command_after_trade=False),
                   lambda s: s["phase"] == "regulation")
    assert all(c["top"] and c["bottom"] for st in s["seats"] for c in st["cards"])


def test_exchange_in_bonus_turn():
    """Option on: exchange in the Bonus turn, e.g. to afford the Crop tile."""
    s = through_placement(new(exchange_in_bonus_turn=True))
    clear_board(s)
    seat = s["active"]
    give(s, seat, sapeques=0, yinzi=1)
    s = act(s, {"type": "merchant", "slot": 5})
    assert s["stage"] == "crop_tile" and legal(s, "buy_tile") == []
    s = act(s, {"type": "exchange", "direction": "sell"})
    assert legal(s, "buy_tile")
    s = act(s, {"type": "buy_tile", "field": "SZ6"})
    assert s["seats"][seat]["sapeques"] == data.RATE[s["dial"]] - data.SLOT_COST[5]
