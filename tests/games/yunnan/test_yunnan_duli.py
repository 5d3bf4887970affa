"""The 2-player automaton Dúlì: bids by card, passing, travel and teahouses by card, her
displacement rules, presents only beside a player, no income, her hidden deck."""

from __future__ import annotations

import pytest

from referee.core import Rng
from referee.games.yunnan import GAME, duli, upkeep
from referee.games.yunnan.data import DULI_CARDS, PROVINCES
from tests.games.yunnan.helpers import new, play, put, travel_turn

Y, S, K, T, Q = PROVINCES
TS, CO, HT, TG, BY = "trading_school", "customs_office", "horse_trader", "traders_guild", \
    "building_yard"


def next_card(s, card_id):
    """Make `card_id` the top of Dúlì's draw pile."""
    deck = s["duli_cards"]["deck"]
    if card_id in deck:
        deck.remove(card_id)
    else:
        s["duli_cards"]["discard"].remove(card_id)
    deck.insert(0, card_id)
    return s


def test_duli_bids_in_the_first_building_of_her_card_on_the_cheapest_space():
    s = next_card(new(2), 1)  # card 1: TG HT BY TS CO
    s = play(s, {"type": "market", "from": "supply"})  # seat 0
    s = play(s, {"type": "market", "from": "supply"})  # seat 1, then Dúlì bids
    assert s["bids"][TG][0] == 2 and s["actor"] == 0
    assert s["report"]["duli"][-1] == {"card": 1, "bid": TG, "space": 5}


def test_duli_skips_buildings_where_she_is_or_cannot_bid():
    s = next_card(new(2), 1)  # TG HT BY TS CO
    s["bids"][TG] = [None, None, 0, 1, 1]  # TG: large spaces full, small ones below 9
    s["supply"][0] -= 1
    s["supply"][1] -= 2
    s["bids"][HT][0] = 2  # she is already in HT
    s["supply"][2] -= 1
    s = play(s, {"type": "market", "from": "supply"})
    s = play(s, {"type": "market", "from": "supply"})
    assert s["report"]["duli"][-1]["bid"] == BY and s["bids"][BY][0] == 2
    assert s["bids"][TG] == [None, None, 0, 1, 1]


def test_duli_outbids_a_small_space_and_the_passed_player_rejoins():
    s = next_card(new(2), 1)
    s = play(s, {"type": "bid", "building": TG, "space": 5, "from": "supply"})
    s = play(s, {"type": "pass"})  # seat 1 passes; Dúlì bids 7 in TG over seat 0's 5
    assert s["bids"][TG][:2] == [None, 2] and s["supply"][0] == 3 and s["actor"] == 0
    s = play(s, {"type": "pass"})
    assert s["phase"] == "travel"  # both players passed: Dúlì passed too, all resolved


def test_duli_passes_when_both_players_passed_and_keeps_her_supply():
    s = new(2)
    s["passed"] = [True, True, False]
    s["actor"] = 2
    deck = list(s["duli_cards"]["deck"])
    duli.bid_turn(s)
    assert s["passed"][2] and s["supply"][2] == 6 and s["market"][2] == 0
    assert s["duli_cards"]["deck"] == deck  # no card turned
    s["passed"] = [True, False, False]
    duli.bid_turn(s)
    assert not s["passed"][2] and len(s["duli_cards"]["deck"]) == 15


def test_duli_resolution_only_traders_guild_and_free():
    s = new(2)
    s["bids"][TG][2] = 2
    s["supply"][2] -= 1
    s = play(play(s, {"type": "pass"}), {"type": "pass"})
    assert s["influence"][2] == 1
    assert all(2 not in row for row in s["bids"].values())  # her bidders are removed
    assert s["reserve"][2] == 0


def travel_state(card_id, horses=(4, 4), **options):
    s = travel_turn(new(2, **options), 0, grey=[2, 0, 1])
    s["horse"] = list(horses)
    s["cursor"], s["actor"], s["step"] = 0, 2, "start"
    return next_card(s, card_id)


def run_duli(s):
    duli.travel_turn(s)
    return s


@pytest.mark.parametrize("card_id, horses, overflow, placed", [
    (1, (4, 4), "farthest", [2, 2, 1, 1, 1]),
    (1, (1, 0), "farthest", [2, 5, 0, 0, 0]),
    (1, (1, 0), "supply", [2, 2, 0, 0, 0]),
    (5, (2, 4), "farthest", [3, 2, 1, 1, 0]),
], ids=["all_reached", "beyond_horses_to_farthest", "beyond_horses_kept", "max_of_players"])
def test_duli_places_traders_by_card_up_to_the_farthest_horse(card_id, horses, overflow, placed):
    s = run_duli(travel_state(card_id, horses, duli_overflow=overflow))
    assert s["traders"][2] == placed
    assert s["supply"][2] == 7 - sum(placed)


@pytest.mark.parametrize("name, influence, placing, displaced", [
    ("lower_influence_only", [1, 1, 1], {0: {Y: 1}}, None),
    ("single_lower", [0, 2, 1], {0: {Y: 1}, 1: {Y: 1}}, 0),
    ("lower_of_two", [0, 1, 2], {0: {Y: 1}, 1: {Y: 1}}, 0),
    ("equal_influence_more_traders", [0, 0, 2], {0: {Y: 1}, 1: {Y: 2}}, 1),
    ("equal_everything_nobody", [0, 0, 2], {0: {Y: 1}, 1: {Y: 1}}, None),
], ids=lambda v: v if isinstance(v, str) else "")
def test_duli_displacement_rules(name, influence, placing, displaced):
    s = travel_state(11, (0, 0))  # card 11: 3-2-2-0-0, all into Yunnan with horses there
    s["influence"] = influence
    for p, where in placing.items():
        put(s, p, where)
    before = [s["market"][0], s["market"][1]]
    s = run_duli(s)
    moved = [s["market"][p] - before[p] for p in (0, 1)]
    assert moved == ([0, 0] if displaced is None else [int(displaced == 0), int(displaced == 1)])
    assert sum(moved) <= 1


def test_duli_displaces_at_most_one_per_province_and_respects_guards():
    s = travel_state(1, (4, 4), guards=True)
    s["influence"] = [0, 0, 2]
    put(s, 0, {S: 3})
    s["guards"] = [None, None]
    run_duli(s)
    assert s["traders"][0][:2] == [1, 2]  # one displaced down to Yunnan, only one
    s = travel_state(1, (4, 4), guards=True)
    s["influence"] = [0, 0, 2]
    put(s, 0, {S: 3})
    s["guards"] = [1, None]
    run_duli(s)
    assert s["traders"][0][:2] == [0, 3]


@pytest.mark.parametrize("teahouses, placing, expected", [
    ([None] * 5, {0: {K: 1}, 1: {S: 1}}, K),
    ([None, None, 0, None, None], {0: {K: 1}}, S),
    ([1, 0, 0, None, None], {0: {K: 1}}, None),
    ([None] * 5, {}, None),
], ids=["farthest_with_player_traders", "next_lower_free", "none_free_below", "no_player_traders"])
def test_duli_teahouse(teahouses, placing, expected):
    s = travel_state(3)  # card 3 shows a teahouse
    s["teahouses"] = list(teahouses)
    for p, where in placing.items():
        put(s, p, where)
    run_duli(s)
    got = [i for i in range(5) if s["teahouses"][i] == 2]
    assert got == ([] if expected is None else [PROVINCES.index(expected)])


def test_duli_builds_at_most_two_teahouses():
    s = travel_state(3)
    s["teahouses"] = [2, 2, None, None, None]
    put(s, 0, {T: 1})
    run_duli(s)
    assert s["teahouses"].count(2) == 2


def test_duli_presents_only_beside_a_player():
    s = new(2)
    s["grey"] = [2, 0, 1]
    put(s, 2, {K: 2, T: 1})
    put(s, 0, {K: 1})
    s["influence"] = [0, 0, 1]
    upkeep.presents(s)
    assert s["gifts"] == [1, 0, 2] and s["presents"][3] == 3


def test_duli_has_no_income_and_is_first_on_grey():
    s = new(2)
    s["grey"] = [2, 0, 1]
    put(s, 0, {Y: 1})
    put(s, 1, {Y: 2})
    put(s, 2, {S: 3})
    upkeep.income_and_order(s)
    assert s["grey"] == [2, 1, 0] and s["income"] == [4, 8]


def test_duli_deck_reshuffles_all_cards_when_exhausted():
    s = new(2)
    s["duli_cards"]["discard"] = s["duli_cards"]["deck"]
    s["duli_cards"]["deck"] = []
    card = duli.draw(s)
    assert len(s["duli_cards"]["deck"]) == 15 and s["duli_cards"]["discard"] == []
    assert card["id"] in DULI_CARDS and s["duli_cards"]["shuffles"] == 2


def test_duli_deck_order_is_hidden_and_redetermined():
    s = new(2)
    views = {str(GAME.view(s, seat)) for seat in (None, 0, 1)}
    assert all("deck" not in GAME.view(s, seat)["duli_cards"] for seat in (None, 0, 1))
    assert "seed" not in GAME.view(s, 0) and len(views) == 3
    other = GAME.redetermine(s, 0, Rng(1, "t"))
    assert other["duli_cards"]["deck"] != s["duli_cards"]["deck"]
    assert sorted(other["duli_cards"]["deck"]) == sorted(s["duli_cards"]["deck"])
    assert GAME.view(other, 0) == GAME.view(s, 0)


def test_duli_round_end_clears_her_traders():
    s = new(2)
    put(s, 2, {Y: 2, "market": 1})
    s["grey"] = [2, 0, 1]
    s["duli_cards"]["shown"] = [s["duli_cards"]["deck"].pop(0)]
    upkeep.prepare_round(s)
    assert s["supply"][2] == 6 + 0 and sum(s["traders"][2]) == 0 and s["market"][2] == 0
    assert s["blue"] == [1, 0, 2] and len(s["duli_cards"]["discard"]) == 1


def test_players_displace_duli_by_the_normal_rules():
    s = travel_turn(new(2), 0, grey=[2, 0, 1])
    s["influence"], s["horse"] = [2, 0, 1], [1, 1]
    put(s, 0, {Y: 1})
    put(s, 2, {S: 2})
    put(s, 1, {"market": 1})
    s = play(s, {"type": "step", "from": Y, "to": S})
    assert s["step"] == "displace"
    assert {m.get("owner") for m in GAME.legal_moves(s, 0)} == {2, None}
    s = play(s, {"type": "displace", "owner": 2})
    assert s["traders"][2][:2] == [1, 1]


def test_duli_is_not_scored():
    from referee.core.playout import random_playout
    _, s, _ = random_playout(GAME, 2, {}, 4)
    outcome = GAME.outcome(s)
    assert len(outcome.scores) == 2 and sorted(outcome.ranks) in ([1, 2], [1, 1])
    assert len(s["vp"]) == 2
