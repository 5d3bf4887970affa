"""Fragment, 'Deploy Peasants', 'Sell at Local Markets', 'Workshops and Corrupt Administration'."""

from __future__ import annotations

import pytest

from referee.games.yinzi_ming import data
from tests.games.yinzi_ming.yinzi_helpers import (act, add_workshop, at_directives, clear_board,
                                                  command, empty_overseer_supply, give, illegal,
                                                  leave_peasants, legal, occupy, play_until,
                                                  sentence, set_market)


def deploying(lines=3, **options):
    s = at_directives(**options)
    clear_board(s)
    give(s, s["active"], sapeques=10)
    return command(s, "deploy", lines), s["active"]


@sentence("S23")
@pytest.mark.parametrize("space, crop, count", [
    ("YZ4", "fruit", 1), ("YZ5", "bamboo", 1), ("YZ6", "ramie", 1), ("TZ7", "sugarcane", 1),
    ("YZ7", "cotton", 1), ("YZ8", "tea", 1),
    ("YZ1", "rice", 2), ("YZ3", "maize", 2), ("YZM1", "salt", 2),
])
def test_deploy_one_or_two_peasants_by_crop(space, crop, count):
    """One Peasant on a light-crop Field; two on a Rice, Maize or Salt Mine space."""
    s, seat = deploying()
    assert data.SPACES[space]["crop"] == crop
    s = act(s, {"type": "deploy", "space": space})
    assert s["occupants"][space] == {"owner": seat, "count": count}
    assert s["seats"][seat]["peasants"] == data.PEASANTS - count


@sentence("S23")
@pytest.mark.parametrize("slot", [1, 3, 5])
def test_deploy_buys_a_register_tile_with_two_peasants(slot):
    """Third option: pay for a displayed tile and place it with two Peasants on a Field."""
    s, seat = deploying()
    tile = s["register"][slot - 1]["tile"]
    s = act(s, {"type": "deploy_tile", "slot": slot, "field": "SZ6"})
    assert s["tiles"]["SZ6"] == tile and s["occupants"]["SZ6"]["count"] == 2
    assert s["seats"][seat]["sapeques"] == 10 - data.SLOT_COST[slot]


@sentence("S23")
@pytest.mark.parametrize("case, move, code", [
    ("attended", {"type": "deploy", "space": "CZ1"}, "deploy.attended"),
    ("under a workshop", {"type": "deploy", "space": "SZ1"}, "deploy.attended"),
    ("tile on attended", {"type": "deploy_tile", "slot": 1, "field": "CZ1"},
     "deploy_tile.attended"),
    ("tile on salt mine", {"type": "deploy_tile", "slot": 1, "field": "TZM1"}, "move.malformed"),
    ("two peasants short", {"type": "deploy", "space": "TZ1"}, "deploy.peasants"),
    ("tile, peasants short", {"type": "deploy_tile", "slot": 1, "field": "SZ6"},
     "deploy_tile.peasants"),
])
def test_deploy_needs_unattended_space_and_supply(case, move, code):
    """Only unattended spaces, and the Peasants must be in the supply."""
    s, seat = deploying()
    occupy(s, "CZ1", 1 - seat)
    add_workshop(s, 1 - seat, s["workshop_deck"][0], ["SZ1", "SZ2", "SZ3"])
    leave_peasants(s, seat, 1)
    illegal(s, move, code)


@sentence("S24")
def test_tile_option_once_per_command():
    """The tile purchase can be chosen once per Command, the other options still repeat."""
    s, seat = deploying()
    s = act(s, {"type": "deploy_tile", "slot": 2, "field": "SZ6"})
    illegal(s, {"type": "deploy_tile", "slot": 3, "field": "SZ7"}, "deploy_tile.once")
    assert legal(s, "deploy_tile") == [] and legal(s, "deploy")
    s = act(s, {"type": "deploy", "space": "SZ7"})
    assert s["occupants"]["SZ7"]["count"] == 1


def selling(**markets):
    s = at_directives()
    seat = s["active"]
    clear_board(s)
    for sid, n in (("YZ1", 2), ("YZ3", 2), ("YZM1", 2)):
        occupy(s, sid, seat, n)
    occupy(s, "TZ1", 1 - seat, 2)
    tiles = {"yangzhou": "M1", "tongzhou": "M2", "changzhou": "M3", "suzhou": "M8"}
    tiles.update(markets)
    for prov, tile in tiles.items():
        set_market(s, prov, tile)
    give(s, seat, ambassador=3, sapeques=0)
    return command(s, "sell", 3), seat


def sale(space, market, index):
    return {"type": "sell", "space": space, "market": market, "index": index}


@sentence("S25")
@pytest.mark.parametrize("move", [sale("YZ1", "yangzhou", 0), sale("YZ3", "yangzhou", 1),
                                  sale("YZM1", "yangzhou", 2), sale("YZM1", "tongzhou", 2)],
                         ids=["rice-field", "maize-field", "salt-mine", "salt-other-province"])
def test_sell_moves_a_peasant_to_a_matching_market_space(move):
    """The Peasant leaves its Field or Salt Mine for the vacant matching market space."""
    s, seat = selling()
    before = s["occupants"][move["space"]]["count"]
    s = act(s, move)
    assert s["markets"][move["market"]]["spaces"][move["index"]] == seat
    assert s["occupants"][move["space"]]["count"] == before - 1


@sentence("S25")
def test_last_peasant_leaves_the_field_unattended():
    """Completion: a Field whose Peasants are all sold is unattended again."""
    s, seat = selling()
    s = act(act(s, sale("YZ1", "yangzhou", 0)), sale("YZ1", "tongzhou", 0))
    assert "YZ1" not in s["occupants"]


@sentence("S25")
def test_sell_only_your_own_peasants():
    """A Peasant of another player cannot be sold."""
    s, seat = selling()
    illegal(s, sale("TZ1", "tongzhou", 1) | {"index": 0}, "sell.no_peasant")


@sentence("S26")
@pytest.mark.parametrize("move, code", [
    (sale("YZ3", "yangzhou", 0), "sell.demand"),       # maize on a rice icon
    (sale("YZ1", "yangzhou", 2), "sell.demand"),       # rice on a salt icon
    (sale("YZM1", "suzhou", 0), "sell.demand"),        # M8 wants no salt
], ids=["maize-on-rice", "rice-on-salt", "salt-nowhere"])
def test_sale_must_match_the_demand_icon(move, code):
    """The market space's demand icon must be the crop sold."""
    s, _ = selling()
    illegal(s, move, code)


@sentence("S26")
def test_sale_must_fit_the_transport_capacity():
    """A sale whose move exceeds the allowance is refused."""
    s, seat = selling()
    s["seats"][seat]["ambassador"] = 1
    s = act(s, sale("YZ1", "tongzhou", 0))
    illegal(s, sale("YZ3", "changzhou", 0), "sell.transport")


@sentence("S27")
@pytest.mark.parametrize("move, paid", [
    (sale("YZ1", "yangzhou", 0), 3),   # M1 High Demand: rice
    (sale("YZ1", "tongzhou", 0), 2),   # M2 High Demand: salt
    (sale("YZM1", "tongzhou", 2), 3),
    (sale("YZ3", "yangzhou", 1), 2),
    (sale("YZ3", "changzhou", 0), 3),  # M3 High Demand: maize
], ids=["rice-high", "rice", "salt-high", "maize", "maize-high"])
def test_sale_pays_two_or_three(move, paid):
    """2 Sapeques, or 3 when the tile's High Demand is that crop."""
    s, seat = selling()
    assert act(s, move)["seats"][seat]["sapeques"] == paid


@sentence("S28")
@pytest.mark.parametrize("owner", ["own", "other"])
def test_occupied_market_space_cannot_be_used(owner):
    """Any Peasant on a market space, yours or another's, blocks it."""
    s, seat = selling()
    holder = seat if owner == "own" else 1 - seat
    set_market(s, "yangzhou", "M1", [holder])
    illegal(s, sale("YZ1", "yangzhou", 0), "sell.occupied")


def building(**holdings):
    s = at_directives()
    seat = s["active"]
    clear_board(s)
    occupy(s, "CZ1", 1 - seat)
    add_workshop(s, 1 - seat, s["workshop_deck"][0], ["TZ1", "TZ2", "TZ3"])
    give(s, seat, **holdings)
    return command(s, "build", 3), seat


@sentence("S29")
def test_build_pays_stone_covers_three_fields_and_marks_an_overseer():
    """One Stone, a displayed Workshop over three unattended Fields, one Overseer on it."""
    s, seat = building(stone=1)
    tile = s["display"][1]
    overseers = s["seats"][seat]["overseers"]
    s = act(s, {"type": "build", "tile": tile, "fields": ["SZ1", "SZ4", "SZ8"]})
    assert s["seats"][seat]["stone"] == 0
    assert s["seats"][seat]["overseers"] == overseers - 1
    assert s["workshops"][tile] == {"owner": seat, "province": "suzhou",
                                    "fields": ["SZ1", "SZ4", "SZ8"], "level": 1, "goods": 0,
                                    "produced": 0}
    assert all(s["covered"][f] == tile for f in ("SZ1", "SZ4", "SZ8"))
    assert tile not in s["display"]


@sentence("S29")
@pytest.mark.parametrize("case, fields, holdings, code", [
    ("attended field", ["CZ1", "CZ2", "CZ3"], {}, "build.attended"),
    ("over another workshop", ["TZ3", "TZ4", "TZ5"], {}, "build.covered"),
    ("salt mine", ["TZ4", "TZ5", "TZM1"], {}, "move.malformed"),
    ("two fields", ["SZ1", "SZ2"], {}, "move.malformed"),
    ("four fields", ["SZ1", "SZ2", "SZ3", "SZ4"], {}, "move.malformed"),
    ("two provinces", ["CZ3", "SZ1", "SZ2"], {}, "build.province"),
    ("no stone", ["SZ1", "SZ2", "SZ3"], {"stone": 0}, "build.stone"),
    ("no overseer", ["SZ1", "SZ2", "SZ3"], {"overseers": 0}, "build.overseers"),
])
def test_build_limits(case, fields, holdings, code):
    """Exactly three unattended Fields, never a Salt Mine or another Workshop; pay Stone, Overseer."""
    s, seat = building(stone=1)
    if holdings.pop("overseers", None) == 0:
        empty_overseer_supply(s, seat)
    give(s, seat, **holdings)
    illegal(s, {"type": "build", "tile": s["display"][0], "fields": fields}, code)


@sentence("S29")
def test_build_accepts_the_three_fields_in_any_order():
    """Rules version 2, Decisions 'Build move': "placing a displayed Workshop over exactly three
    unattended Field spaces" names a set of Fields, so any order is the same build (stored in
    board order)."""
    s, seat = building(stone=1)
    tile = s["display"][0]
    shuffled = act(s, {"type": "build", "tile": tile, "fields": ["SZ8", "SZ1", "SZ4"]})
    ordered = act(s, {"type": "build", "tile": tile, "fields": ["SZ1", "SZ4", "SZ8"]})
    assert shuffled == ordered
    assert shuffled["workshops"][tile]["fields"] == ["SZ1", "SZ4", "SZ8"]


@sentence("S29")
def test_build_only_a_displayed_workshop():
    """A Workshop still in the deck cannot be built."""
    s, seat = building(stone=1)
    illegal(s, {"type": "build", "tile": s["workshop_deck"][0],
                "fields": ["SZ1", "SZ2", "SZ3"]}, "build.not_displayed")


@sentence("S30")
def test_upgrades_cost_three_then_five_and_an_overseer_each():
    """Level II: 3 Sapeques + Overseer; Level III: 5 + Overseer; each its own action."""
    s, seat = building(sapeques=8)
    add_workshop(s, seat, s["workshop_deck"][0], ["SZ1", "SZ2", "SZ3"])
    wid = s["covered"]["SZ1"]
    overseers = s["seats"][seat]["overseers"]
    s = act(s, {"type": "upgrade", "workshop": wid})
    assert (s["workshops"][wid]["level"], s["seats"][seat]["sapeques"]) == (2, 5)
    assert s["turn"]["used"] == 1
    s = act(s, {"type": "upgrade", "workshop": wid})
    assert (s["workshops"][wid]["level"], s["seats"][seat]["sapeques"]) == (3, 0)
    assert s["seats"][seat]["overseers"] == overseers - 2 and s["turn"]["used"] == 2
    illegal(s, {"type": "upgrade", "workshop": wid}, "upgrade.max_level")


@sentence("S30")
@pytest.mark.parametrize("case, level, sapeques, code", [
    ("level II short", 1, 2, "upgrade.sapeques"),
    ("level III short", 2, 4, "upgrade.sapeques"),
    ("not yours", None, 10, "upgrade.not_yours"),
])
def test_upgrade_limits(case, level, sapeques, code):
    """Upgrades need the Sapeques, and only your own Workshop."""
    s, seat = building(sapeques=sapeques)
    wid = s["covered"]["TZ1"]
    if level is not None:
        add_workshop(s, seat, s["workshop_deck"][0], ["SZ1", "SZ2", "SZ3"], level=level)
        wid = s["covered"]["SZ1"]
    illegal(s, {"type": "upgrade", "workshop": wid}, code)


@sentence("S31")
def test_display_refilled_at_end_of_turn():
    """The built Workshop's place stays empty during the turn and is refilled at its end."""
    s, seat = building(stone=2)
    s = act(s, {"type": "build", "tile": s["display"][2], "fields": ["SZ1", "SZ2", "SZ3"]})
    assert s["display"][2] is None
    s = act(s, {"type": "build", "tile": s["display"][0], "fields": ["SZ4", "SZ5", "SZ6"]})
    assert s["display"][0] is None and s["display"][2] is None
    deck = s["workshop_deck"][:2]
    s = act(s, {"type": "done"})
    assert (s["display"][0], s["display"][2]) == tuple(deck)
    assert s["workshop_deck"][:1] != deck[:1]


@sentence("S32")
def test_corrupt_places_an_overseer_on_an_empty_benefit_space():
    """One Overseer from the supply onto an empty benefit space; an occupied one is refused."""
    s = at_directives()
    seat = s["active"]
    s["admin"]["B1"] = {"owner": 1 - seat, "round": 1, "phase": "bonus"}
    s["seats"][1 - seat]["overseers"] -= 1
    s = command(s, "corrupt", 2)
    illegal(s, {"type": "corrupt", "benefit": "B1"}, "corrupt.occupied")
    overseers = s["seats"][seat]["overseers"]
    s = act(s, {"type": "corrupt", "benefit": "B3"})
    assert s["admin"]["B3"] == {"owner": seat, "round": 1, "phase": "directives"}
    assert s["seats"][seat]["overseers"] == overseers - 1


@sentence("S32")
def test_benefit_not_usable_in_the_phase_it_was_placed():
    """Quarry Grant taken in phase C cannot be used in C, later turns included; in D it can."""
    s = at_directives()
    seat = s["active"]
    s = act(command(s, "corrupt", 1), {"type": "corrupt", "benefit": "B3"})
    illegal(s, {"type": "benefit", "benefit": "B3"}, "benefit.same_phase")
    s = play_until(act(s, {"type": "done"}),
                   lambda s: s["active"] == seat and s["stage"] == "choose")
    s = act(s, legal(s, "trade")[0])
    illegal(s, {"type": "benefit", "benefit": "B3"}, "benefit.same_phase")
    s = play_until(s, lambda s: s["phase"] == "regulation" and s["active"] == seat)
    stone = s["seats"][seat]["stone"]
    s = act(s, {"type": "benefit", "benefit": "B3"})
    assert s["seats"][seat]["stone"] == stone + 2 and s["admin"]["B3"] is None
