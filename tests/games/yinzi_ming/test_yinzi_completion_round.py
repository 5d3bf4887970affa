"""Completion 5.5, 5.9, 5.12-5.16: register benefits, Crop tiles, Administration benefits,
Regulation, Maintenance, scoring, limits."""

from __future__ import annotations

import pytest

from referee.core.errors import UnexpectedMove
from referee.games.yinzi_ming import data, flow, scoring
from tests.games.yinzi_ming.yinzi_helpers import (GAME, act, add_workshop, at_directives,
                                                  clear_board, command, give, illegal, legal,
                                                  new, occupy, play_until, set_market, set_port,
                                                  through_placement, trade, wid_of)


def holding(s, seat, benefit, rnd=0):
    """Give `seat` an Overseer on `benefit`, placed in round `rnd` (0: before the game)."""
    s["admin"][benefit] = {"owner": seat, "round": max(rnd, 1), "phase": "bonus"}
    s["seats"][seat]["overseers"] -= 1


def merchant_on(s, seat, slot):
    s["register"][slot - 1]["merchant"] = seat


def test_market_broker_adds_one_per_sale_this_round():
    """Slot 4: +1 Sapeque on each of your sales this round."""
    s = at_directives()
    seat = s["active"]
    clear_board(s)
    occupy(s, "YZ1", seat, 2)
    set_market(s, "yangzhou", "M2")  # rice, fruit, salt, cotton; High Demand salt
    set_market(s, "tongzhou", "M1")  # rice first; High Demand rice
    for slot in range(1, len(data.SLOTS) + 1):
        s["register"][slot - 1]["merchant"] = None
    merchant_on(s, seat, data.BROKER_SLOT)
    give(s, seat, sapeques=0)
    s = act(command(s, "sell", 2), {"type": "sell", "space": "YZ1", "market": "yangzhou",
                                     "index": 0})
    assert s["seats"][seat]["sapeques"] == 2 + 1
    s = act(s, {"type": "sell", "space": "YZ1", "market": "tongzhou", "index": 0})
    assert s["seats"][seat]["sapeques"] == 3 + 3 + 1


def regulating(seat_workshops=2, yinzi=5, produced=None, **options):
    """Round 1 Regulation, the first seat to act owning `seat_workshops` Workshops; the first
    `produced` of them (all by default) made a Good this round (rules 5 taxes only those)."""
    s = play_until(at_directives(**options), lambda s: s["phase"] == "regulation")
    seat = s["active"]
    produced = seat_workshops if produced is None else produced
    for i, prov in enumerate(("suzhou", "changzhou")[:seat_workshops]):
        fields = [f for f in data.FIELDS_BY_PROVINCE[prov] if f not in s["occupants"]][:3]
        wid = s["workshop_deck"][0]
        add_workshop(s, seat, wid, fields)
        s["workshops"][wid]["produced"] = int(i < produced)
    for slot in s["register"]:
        slot["merchant"] = None
    give(s, seat, yinzi=yinzi, sapeques=0)
    return s, seat


@pytest.mark.parametrize("yinzi, paid, penalty", [(5, 2, 0), (1, 1, -2), (0, 0, -4)])
def test_tax_one_yinzi_per_workshop_unpaid_costs_two_vp(yinzi, paid, penalty):
    """5.13: 1 Yinzi per Workshop (since rules 5, per Workshop that made a Good this round:
    both did here); each Yinzi not paid costs 2 VP."""
    s, seat = regulating(2, yinzi)
    assert GAME.pending(s)[0].prompt == {"tax_owed": 2}
    s = act(s, {"type": "done"})
    assert s["seats"][seat]["yinzi"] == yinzi - paid
    assert s["seats"][seat]["tax_vp"] == penalty


def test_exchange_during_regulation_step_pays_the_tax():
    """5.5/5.13: exchanging at R in your step, then paying."""
    s, seat = regulating(1, 0)
    give(s, seat, sapeques=scoring.board.rate(s))
    s = act(act(s, {"type": "exchange", "direction": "buy"}), {"type": "done"})
    assert (s["seats"][seat]["yinzi"], s["seats"][seat]["tax_vp"]) == (0, 0)


@pytest.mark.parametrize("workshops, penalty", [(1, 0), (2, -2)])
def test_tax_exemption_slot(workshops, penalty):
    """Rules 4, rules.md Decisions 'Register and starting Stone rebalanced' ([C], replacing
    5.9's "Tax Exemption: pay no tax in this round's Regulation"): the slot waives the tax
    of one Workshop (register.json amount 1); the others still pay."""
    s, seat = regulating(workshops, 0)
    merchant_on(s, seat, data.EXEMPT_SLOT)
    assert GAME.pending(s)[0].prompt == {"tax_owed": workshops - 1}
    s = act(s, {"type": "done"})
    assert s["seats"][seat]["tax_vp"] == penalty


def test_rebalanced_start_and_register_costs():
    """Rules 4 (Decisions 'Register and starting Stone rebalanced'): players start with
    0 Stone; the register's Crop tiles cost 2, 1, 1, 3, 3 Sapeques, top to bottom (and rules 5's
    sixth slot, Kiln Licence, 2)."""
    s = at_directives(2)
    assert [r["cost"] for r in GAME.view(s, 0)["register"]] == [2, 1, 1, 3, 3, 2]
    assert all(st["stone"] == 0 for st in new(2)["seats"])


def test_tax_waiver_benefit():
    """B1: skip your tax in one Regulation; the Overseer returns; not offered with no tax."""
    s, seat = regulating(2, 0)
    holding(s, seat, "B1")
    overseers = s["seats"][seat]["overseers"]
    s = act(act(s, {"type": "benefit", "benefit": "B1"}), {"type": "done"})
    assert s["seats"][seat]["tax_vp"] == 0 and s["seats"][seat]["overseers"] == overseers + 1
    assert s["admin"]["B1"] is None
    t, seat = regulating(0, 0)
    holding(t, seat, "B1")
    illegal(t, {"type": "benefit", "benefit": "B1"}, "benefit.no_tax")


def test_river_permit_adds_two_transport_for_one_turn():
    """B2: +2 allowance for the turn it is used in (a Directive, not Regulation)."""
    s = at_directives()
    seat = s["active"]
    holding(s, seat, "B2")
    s = command(s, "sell", 1)
    before = GAME.pending(s)[0].prompt["transport_left"]
    s = act(s, {"type": "benefit", "benefit": "B2"})
    assert GAME.pending(s)[0].prompt["transport_left"] == before + 2
    r, seat = regulating(0)
    holding(r, seat, "B2")
    illegal(r, {"type": "benefit", "benefit": "B2"}, "benefit.timing")


@pytest.mark.parametrize("space, direction, price", [
    (1, "buy", 1), (3, "buy", 3), (6, "buy", 6), (1, "sell", 3), (3, "sell", 5), (6, "sell", 8)])
def test_mint_contact_rates(space, direction, price):
    """B4: one exchange at R-1 buying (at least 1) or R+1 selling, then it is spent."""
    s = command(at_directives(), "sell", 1)
    seat = s["active"]
    s["dial"] = space
    holding(s, seat, "B4")
    give(s, seat, sapeques=10, yinzi=1)
    s = act(s, {"type": "mint", "direction": direction})
    change = -price if direction == "buy" else price
    assert s["seats"][seat]["sapeques"] == 10 + change
    assert s["admin"]["B4"] is None and legal(s, "mint") == []


def test_prefects_seal_adds_an_action_within_the_cap():
    """B5: +1 action on this Directive; not beyond four."""
    s = command(at_directives(), "transport", 3)
    seat = s["active"]
    holding(s, seat, "B5")
    s = act(s, {"type": "benefit", "benefit": "B5"})
    assert s["turn"]["allowed"] == 4
    t = act(command(at_directives(), "transport", 3), {"type": "overseer"})
    holding(t, t["active"], "B5")
    illegal(t, {"type": "benefit", "benefit": "B5"}, "benefit.cap")


def test_imperial_commendation_is_never_used_and_scores_three():
    """B6: not a usable benefit (its Overseer stays); +3 VP at final scoring."""
    s = command(at_directives(), "transport", 1)
    seat = s["active"]
    holding(s, seat, "B6")
    illegal(s, {"type": "benefit", "benefit": "B6"}, "move.malformed")
    assert scoring.breakdown(s, seat)["commendation"] == 3


def test_crop_tile_replaces_the_crop_for_good():
    """5.9: a Tea tile on a Rice Field makes it a Tea Field: later Deploys put 1 Peasant."""
    s = at_directives()
    seat = s["active"]
    clear_board(s)
    tea = next(t for t in s["crop_deck"] if data.CROP_TILES[t] == "tea")
    s["crop_deck"][s["crop_deck"].index(tea)] = s["register"][0]["tile"]
    s["register"][0]["tile"] = tea
    give(s, seat, sapeques=10)
    s = act(command(s, "deploy", 3), {"type": "deploy_tile", "slot": 1, "field": "YZ1"})
    assert s["occupants"]["YZ1"]["count"] == 2  # a tile always carries 2
    s["seats"][seat]["peasants"] += 2
    del s["occupants"]["YZ1"]
    s = act(s, {"type": "deploy", "space": "YZ1"})
    assert s["occupants"]["YZ1"]["count"] == 1
    assert GAME.view(s, None)["board"]["YZ1"]["crop"] == "tea"


def test_a_second_tile_discards_the_first():
    """5.9: placing a tile on a tiled Field discards the older tile."""
    s = at_directives()
    clear_board(s)
    give(s, s["active"], sapeques=10)
    s = act(command(s, "deploy", 1), {"type": "overseer"})
    first = s["register"][0]["tile"]
    s["tiles"]["YZ1"] = first
    s["register"][0]["tile"] = s["crop_deck"].pop(0)
    s = act(s, {"type": "deploy_tile", "slot": 1, "field": "YZ1"})
    assert s["crop_discard"] == [first]


def test_register_refilled_after_a_deploy_purchase_turn():
    """5.9: at the end of a turn with a Deploy purchase, tiles slide up and the deck refills."""
    s = at_directives()
    clear_board(s)
    give(s, s["active"], sapeques=10)
    tiles = [r["tile"] for r in s["register"]]
    top = s["crop_deck"][0]
    s = act(command(s, "deploy", 1), {"type": "deploy_tile", "slot": 2, "field": "SZ1"})
    assert s["register"][1]["tile"] is None
    s = act(s, {"type": "done"})
    assert [r["tile"] for r in s["register"]] == [tiles[0], *tiles[2:], top]


def test_maintenance_steps():
    """5.14: markets cleared and redrawn, full Ships sail (option ships_sail 'full', the rule
    of rules 1-2), pieces and cards reset, 3 revealed."""
    s = play_until(at_directives(ships_sail="full"), lambda s: s["phase"] == "regulation" and len(s["queue"]) == 1)
    set_market(s, "suzhou", s["markets"]["suzhou"]["tile"], [0, 1, None, None])
    set_port(s, ["S1", "S2", "S3"])
    s["port"][0]["slots"] = [0, 1, 0]
    s["port"][1]["slots"] = [1, None, None]
    old_tiles = {m["tile"] for m in s["markets"].values()}
    s = act(s, {"type": "done"})
    assert s["round"] == 2 and s["phase"] == "bonus"
    assert all(o is None for m in s["markets"].values() for o in m["spaces"])
    assert {m["tile"] for m in s["markets"].values()}.isdisjoint(old_tiles)
    assert [p["ship"] for p in s["port"]][:2] == ["S2", "S3"] and "S1" in s["ships_sailed"]
    assert s["port"][0]["slots"] == [1, None, None]
    assert all(r["merchant"] is None for r in s["register"])
    for seat, st in enumerate(s["seats"]):
        assert len(st["gone"]) == 3 and len(st["cards"]) == 3
        assert not any(c["top"] or c["bottom"] or c["overseers"] for c in st["cards"])
        on_fields = sum(h["count"] for h in s["occupants"].values() if h["owner"] == seat)
        assert st["peasants"] + on_fields == data.PEASANTS


def test_loaded_ships_sail_in_maintenance():
    """Rules 3, rules.md Decisions 'Ships sail' ([C], replacing 5.14's "3. Full Ships sail.
    Refill the Port to 3 Ships."): in Maintenance every Ship carrying at least one Good sails
    and is replaced; an empty Ship stays."""
    s = play_until(at_directives(), lambda s: s["phase"] == "regulation" and len(s["queue"]) == 1)
    set_port(s, ["S1", "S2", "S3"])
    s["port"][0]["slots"] = [0, 1, 0]
    s["port"][1]["slots"] = [None, None, 1]
    deck = list(s["ship_deck"])
    s = act(s, {"type": "done"})
    assert s["round"] == 2
    assert [p["ship"] for p in s["port"]] == ["S3", *deck[:2]]
    assert all(o is None for p in s["port"] for o in p["slots"])
    assert {"S1", "S2"} <= set(s["ships_sailed"])


def test_maintenance_reshuffles_empty_decks():
    """5.14: with the Market deck empty, the discards are reshuffled; Ships likewise."""
    s = play_until(at_directives(), lambda s: s["phase"] == "regulation")
    s["market_discard"] += s["market_deck"]
    s["market_deck"] = []
    set_port(s, ["S1", "S2", "S3"])
    s["ships_sailed"], s["ship_deck"] = s["ship_deck"], []
    for ship in s["port"]:
        ship["slots"] = [0, 0, 0]
    flow.maintenance(s)
    assert len({m["tile"] for m in s["markets"].values()}) == 4
    assert len(s["port"]) == 3 and {"S1", "S2", "S3"} <= set(s["ship_deck"] + [
        p["ship"] for p in s["port"]])
    assert GAME.from_dict(s)


def test_final_score_formula():
    """5.15: ships + 2/Yinzi + 2 x floor(Sapeques/R) + Workshops 1/3/6 + Ambassador-1 + B6."""
    s = at_directives()
    seat = s["active"]
    add_workshop(s, seat, wid_of("paper"), ["SZ1", "SZ2", "SZ3"], level=1)
    add_workshop(s, seat, wid_of("sugar"), ["CZ1", "CZ2", "CZ3"], level=3)
    holding(s, seat, "B6")
    s["dial"] = 3  # R = 4
    give(s, seat, yinzi=3, sapeques=9, ambassador=4, ship_vp=6, tax_vp=-2)
    parts = scoring.breakdown(s, seat)
    assert parts == {"ships": 6, "unpaid_tax": -2, "yinzi": 6, "sapeques": 4, "workshops": 7,
                     "ambassador": 3, "commendation": 3, "total": 27}


def test_ties_go_to_sapeques_then_earlier_turn_order():
    """5.15: equal VP: more Sapeques ranks first; still equal: earlier in the turn order."""
    s = at_directives(3)
    for st in s["seats"]:
        st.update(yinzi=0, sapeques=1, ambassador=1, ship_vp=0, tax_vp=0)
    a, b, c = s["order"]
    s["seats"][c]["sapeques"] = 3  # 3 // R(>=2) may add VP: keep below the rate
    s["dial"] = 3
    final = scoring.final_scores(s)
    assert len(set(final["scores"])) == 1
    assert [final["ranks"][x] for x in (c, a, b)] == [1, 2, 3]


def test_money_and_pieces_never_go_negative():
    """5.16: a payment or piece you lack makes the move illegal."""
    s = command(at_directives(), "transport", 1)
    give(s, s["active"], sapeques=0, yinzi=0)
    illegal(s, {"type": "exchange", "direction": "buy"}, "exchange.sapeques")
    illegal(s, {"type": "exchange", "direction": "sell"}, "exchange.yinzi")


def test_exchange_not_before_the_directive_nor_in_bonus_by_default():
    """5.5: exchanges belong to Directive turns (after the choice) and Regulation steps."""
    s = at_directives()
    with pytest.raises(UnexpectedMove):
        act(s, {"type": "exchange", "direction": "sell"})
    b = through_placement(new())
    with pytest.raises(UnexpectedMove):
        act(b, {"type": "exchange", "direction": "sell"})


def test_increase_transport_capacity_stops_at_six():
    """5.8: the Ambassador moves +1 per repetition, to 6 at most."""
    s = command(at_directives(), "transport", 3)
    give(s, s["active"], ambassador=5)
    s = act(s, {"type": "advance"})
    illegal(s, {"type": "advance"}, "advance.track_end")
    assert legal(s, "advance") == []


def test_trade_card_can_later_be_used_for_a_command():
    """5.6 / A4 default: a card whose bottom half went first waits, then goes under a space."""
    s = trade(at_directives(), 3)
    seat = s["active"]
    s = play_until(act(s, {"type": "done"}), lambda s: s["active"] == seat)
    s = act(s, {"type": "command", "card": 0, "action": "sell"})
    assert s["seats"][seat]["spaces"]["sell"] == 0
