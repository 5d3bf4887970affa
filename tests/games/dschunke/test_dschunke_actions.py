"""Phase 2: merchants on their own junk once per round, assistants on merchant-free junks,
load / sell / take with their minimums, and used figures spent for the round."""

from __future__ import annotations

import pytest
from dschunke_helpers import (GAME, decision, layers, moves, new, phase2, play, rejects,
                              set_hand, set_strips_left, set_supply)

from referee.games.dschunke import flow


@pytest.mark.parametrize("crates, expected", [
    pytest.param([[0, 0, 1], [0]], 3 + 2 * 2, id="7 visible crates -> 7 yuan"),
    pytest.param([[1, 1, 2]], 3, id="no own crate -> minimum 3"),
    pytest.param([], 3, id="no strip at all -> minimum 3"),
    pytest.param([[0]], 3, id="3 crates -> 3"),
])
def test_sell_pays_one_yuan_per_visible_own_crate_minimum_three(crates, expected):
    state = phase2(3)
    layers(state, "grey", crates)  # the sell merchant stands on grey in round 1
    state = play(state, 0, {"type": "merchant", "merchant": "sell"})
    assert state["seats"][0]["cash"] == expected


@pytest.mark.parametrize("crates, pile, expected_hand, left_on_junk", [
    pytest.param([[0, 0, 1], [0]], 10, 7, 3, id="7 crates -> 7 cards of the junk's type"),
    pytest.param([[1]], 10, 3, 7, id="no own crate -> minimum 3"),
    pytest.param([[0, 0, 0]], 2, 2, 0, id="type used up -> the rest is chosen"),
])
def test_take_goods_one_card_per_visible_crate_minimum_three(crates, pile, expected_hand,
                                                             left_on_junk):
    state = phase2(3)
    set_hand(state, 0, {})
    layers(state, "brown", crates)  # the take merchant stands on brown in round 1
    set_supply(state, {"brown": pile}, sink=1)
    state = play(state, 0, {"type": "merchant", "merchant": "take"})
    assert state["seats"][0]["hand"]["brown"] == expected_hand
    assert state["supply"]["brown"] == left_on_junk
    if pile < 9:  # 9 crates, only 2 fish: 7 more cards of other types are the seat's choice
        assert decision(state).kind == "take_goods" and decision(state).prompt["left"] == 7
        assert {m["goods"] for m in moves(state, 0)} == {"white", "lilac", "orange"}


def test_take_goods_on_grey_any_type_and_only_what_is_left():
    state = phase2(3)
    set_hand(state, 0, {})
    layers(state, "white", [])
    state["merchants"]["take"]["junk"] = "grey"
    state["merchants"]["sell"]["junk"] = "white"
    layers(state, "grey", [[0, 0, 0]])  # 9 crates
    set_supply(state, {"white": 0, "brown": 0, "lilac": 3, "orange": 2}, sink=1)
    state = play(state, 0, {"type": "merchant", "merchant": "take"})
    assert decision(state).kind == "take_goods"
    assert moves(state, 0) == [{"type": "take_goods", "goods": "lilac", "junk": "lilac"},
                               {"type": "take_goods", "goods": "orange", "junk": "orange"}]
    for _ in range(2):
        state = play(state, 0, {"type": "take_goods", "goods": "orange", "junk": "orange"})
    # only lilac is left: taken without a choice, then nothing: the shortfall is lost (FAQ Q4)
    assert state["seats"][0]["hand"] == {"white": 0, "brown": 0, "lilac": 3, "orange": 2}
    assert decision(state).seat == 1


def test_take_goods_rejects_another_type_while_the_junks_own_is_left():
    state = phase2(3)
    layers(state, "brown", [[0, 0, 0]])
    set_supply(state, {"brown": 4}, sink=1)
    state = play(state, 0, {"type": "merchant", "merchant": "take"})
    assert moves(state, 0)[0]["goods"] != "brown"  # 4 fish taken at once, then a free choice
    assert state["supply"]["brown"] == 0


def test_merchant_acts_only_once_per_round():
    state = phase2(3)
    state = play(state, 0, {"type": "merchant", "merchant": "sell"})
    assert {"type": "merchant", "merchant": "sell"} not in moves(state, 1)
    rejects(state, 1, {"type": "merchant", "merchant": "sell"}, "move.illegal.merchant")


@pytest.mark.parametrize("junk, ok", [("orange", True), ("white", True), ("lilac", False),
                                      ("brown", False), ("grey", False)])
def test_assistant_acts_only_on_a_junk_without_merchant(junk, ok):
    state = phase2(3)
    move = {"type": "assistant", "assistant": "lower", "junk": junk}
    assert (move in moves(state, 0)) == ok
    if not ok:
        rejects(state, 0, move, "move.illegal.assistant")


def test_assistant_printed_action_round_one_loads_one_strip():
    state = phase2(3)
    before = state["seats"][0]["strips"]
    state = play(state, 0, {"type": "assistant", "assistant": "lower", "junk": "white"})
    assert state["seats"][0]["strips"] == before - 1
    assert state["junks"]["white"]["layers"] == [[0, 0, 1]]
    assert {"type": "assistant", "assistant": "lower", "junk": "orange"} not in moves(state, 1)


def test_assistant_take_two_is_a_flat_two_cards():
    state = phase2(3)
    state["round"] = 5  # lower track space 5: take 2 goods
    set_hand(state, 0, {})
    layers(state, "white", [[0, 0, 0]])
    state = play(state, 0, {"type": "assistant", "assistant": "lower", "junk": "white"})
    assert state["seats"][0]["hand"]["white"] == 2


def test_upper_assistant_only_with_four_players():
    rejects(phase2(3), 0, {"type": "assistant", "assistant": "upper", "junk": "white"},
            "move.illegal.assistant")
    state = play(phase2(4), 0, {"type": "assistant", "assistant": "upper", "junk": "white"})
    assert state["assistants"]["upper"]["used"]


@pytest.mark.parametrize("strips_left, single, placed", [
    pytest.param(2, True, 2, id="two left: loads two"),
    pytest.param(1, True, 1, id="one left, option on: loads the last one"),
    pytest.param(1, False, 0, id="one left, option off: no Load-2"),
    pytest.param(0, True, 0, id="all 20 aboard: no loading at all"),
])
def test_load_needs_strips_left_in_supply(strips_left, single, placed):
    state = phase2(3, load_single_last_strip=single)
    layers(state, "lilac", [])
    set_strips_left(state, 0, strips_left)
    move = {"type": "merchant", "merchant": "load"}
    if not placed:
        assert move not in moves(state, 0)
        rejects(state, 0, move, "move.illegal.load")
        return
    state = play(state, 0, move)
    assert sum(len(layer) for layer in state["junks"]["lilac"]["layers"]) == placed


def test_pass_only_when_no_action_is_possible():
    state = phase2(3)
    rejects(state, 0, {"type": "pass"}, "move.illegal.pass")
    set_strips_left(state, 0, 0)
    for figure in ("sell", "take"):
        state["merchants"][figure]["used"] = True
    state["assistants"]["lower"]["used"] = True
    assert moves(state, 0) == [{"type": "pass"}]
    state = play(state, 0, {"type": "pass"})
    assert decision(state).seat == 1


def test_each_player_one_action_then_resupply():
    state = phase2(3)
    for seat, move in enumerate([{"type": "merchant", "merchant": "sell"},
                                 {"type": "assistant", "assistant": "lower", "junk": "white"},
                                 {"type": "merchant", "merchant": "load"}]):
        assert decision(state).kind == "action" and decision(state).seat == seat
        state = play(state, seat, move)
    assert state["phase"] == 3 and decision(state).kind == "resupply"
    assert decision(state).seat == 0


def test_turn_with_hidden_cards_stays_open_until_done():
    from dschunke_helpers import hidden_card
    state = phase2(3)
    hidden_card(state, 0, "bonus_grey")
    state = play(state, 0, {"type": "merchant", "merchant": "sell"})
    assert decision(state).kind == "after_action" and decision(state).seat == 0
    rejects(state, 0, {"type": "merchant", "merchant": "load"}, "move.unexpected")
    state = play(state, 0, {"type": "done"})
    assert decision(state).seat == 1


def test_figures_advance_and_start_player_passes_after_the_round():
    state = new(3, 2)
    start = state["start"]
    flow.end_round(state)
    assert state["round"] == 2 and state["start"] == (start + 1) % 3
    assert {m: f["junk"] for m, f in state["merchants"].items()} == \
        {"load": "brown", "take": "white", "sell": "orange"}
    assert GAME.view(state, 0)["assistants"]["lower"]["space"] == 1
    assert not any(f["used"] for f in state["merchants"].values())
