"""Phase 1: the market card, the Trade Goods window, the S and Y events."""

from __future__ import annotations

import pytest
from dschunke_helpers import (GAME, decision, hidden_card, moves, play, rejects, round_start,
                              set_hand)


def test_market_card_each_round_and_colours_uncovered():
    state = round_start(3, 2)
    assert len(state["market"]["seen"]) == 2 and len(state["market"]["deck"]) == 8
    assert state["market"]["settled"] == []
    assert GAME.view(state, 0)["market"]["deck_size"] == 8


def _trade_setup(state):
    hidden_card(state, 1, "trade_goods", rnd=1)
    set_hand(state, 1, {"white": 2, "brown": 1})


def test_trade_goods_right_after_the_market_card_one_swap():
    state = round_start(3, 2, prepare=_trade_setup)
    assert decision(state).kind == "trade_window" and decision(state).seat == 1
    state = play(state, 1, {"type": "trade_goods"})
    supply = dict(state["supply"])
    state = play(state, 1, {"type": "swap", "give": "white", "take": "orange", "junk": "orange"})
    assert state["seats"][1]["hand"] == {"white": 1, "brown": 1, "lilac": 0, "orange": 1}
    assert state["supply"]["white"] == supply["white"] + 1
    assert state["supply"]["orange"] == supply["orange"] - 1
    state = play(state, 1, {"type": "done"})
    assert [r["card"] for r in state["seats"][1]["played"]] == ["trade_goods"]
    assert decision(state).kind == "action"  # no other hidden card: the window moves on


def test_trade_goods_two_swaps_end_the_trade():
    state = round_start(3, 2, prepare=_trade_setup)
    state = play(state, 1, {"type": "trade_goods"})
    rejects(state, 1, {"type": "done"}, "move.illegal.done")
    state = play(state, 1, {"type": "swap", "give": "white", "take": "lilac", "junk": "lilac"})
    state = play(state, 1, {"type": "swap", "give": "white", "take": "lilac", "junk": "lilac"})
    assert state["seats"][1]["hand"]["lilac"] == 2 and decision(state).kind == "action"


@pytest.mark.parametrize("move, rule", [
    pytest.param({"give": "orange", "take": "white", "junk": "white"}, "swap", id="no such card"),
    pytest.param({"give": "white", "take": "white", "junk": "white"}, "swap", id="same colour"),
    pytest.param({"give": "white", "take": "lilac", "junk": "grey"}, "swap",
                 id="grey junk has no goods (3 players)"),
])
def test_trade_goods_swap_rules(move, rule):
    state = round_start(3, 2, prepare=_trade_setup)
    state = play(state, 1, {"type": "trade_goods"})
    assert {"type": "swap", **move} not in moves(state, 1)
    rejects(state, 1, {"type": "swap", **move}, f"move.illegal.{rule}")


def test_trade_goods_both_cards_in_player_order():
    def prepare(state):
        hidden_card(state, 2, "trade_goods", rnd=1)
        hidden_card(state, 1, "trade_goods", rnd=1)
    state = round_start(3, 2, prepare=prepare)
    assert decision(state).seat == 1
    state = play(state, 1, {"type": "pass"})
    assert decision(state).seat == 2 and {"type": "trade_goods"} in moves(state, 2)


def test_trade_goods_not_the_round_it_was_won_and_others_asked_for_secrecy():
    def prepare(state):
        hidden_card(state, 0, "bonus_grey", rnd=1)     # an older hidden card: asked, pass only
        hidden_card(state, 1, "trade_goods", rnd=2)    # won this round: may not be played
    state = round_start(3, 2, prepare=prepare)
    assert decision(state).seat == 0 and moves(state, 0) == [{"type": "pass"}]
    state = play(state, 0, {"type": "pass"})
    assert decision(state).kind == "action"  # seat 1's only card is from this round: not asked
    rejects(state, 0, {"type": "trade_goods"}, "move.unexpected")


def test_s_event_each_player_a_different_stack_looked_through():
    state = round_start(3, 3)  # round 3: S event
    chosen = []
    for seat in (0, 1, 2):
        d = decision(state)
        assert d.kind == "choose_stack" and d.seat == seat
        assert all(k not in chosen for k in d.prompt["stacks"])
        for k in chosen:
            rejects(state, seat, {"type": "choose_stack", "stack": k}, "move.illegal.choose_stack")
        stack = d.prompt["stacks"][0]
        state = play(state, seat, {"type": "choose_stack", "stack": stack})
        d = decision(state)
        assert d.kind == "take_card" and d.prompt["cards"] == sorted(state["stacks"][stack])
        assert GAME.view(state, seat)["stacks"][stack]["cards"] == sorted(state["stacks"][stack])
        assert GAME.view(state, (seat + 1) % 3)["stacks"][stack]["cards"] is None
        card = d.prompt["cards"][0]
        size = len(state["stacks"][stack])
        state = play(state, seat, {"type": "take_card", "card": card})
        assert len(state["stacks"][stack]) == size - 1
        held = state["seats"][seat]["cards"] + state["seats"][seat]["open"]
        assert [r["card"] for r in held] == [card]
        chosen.append(stack)
    assert decision(state).kind == "action"


def test_s_event_take_card_must_be_in_the_stack():
    state = round_start(3, 3)
    state = play(state, 0, {"type": "choose_stack", "stack": 0})
    missing = next(k for k in ("trade_goods", "tie_breaker", "bonus_white", "resupply")
                   if k not in state["stacks"][0])
    rejects(state, 0, {"type": "take_card", "card": missing}, "move.illegal.take_card")


def test_s_event_empty_stack_cannot_be_chosen():
    def prepare(state):
        for card in state["stacks"][0]:  # each taken at its own moment, as keep_card does
            state["seats"][2]["played"].append({"card": card, "stack": 0,
                                                "at": state["clock"], "round": 0})
            state["clock"] += 1
        state["stacks"][0] = []
    state = round_start(3, 3, prepare=prepare)
    assert decision(state).prompt["stacks"] == [1, 2, 3]
    rejects(state, 0, {"type": "choose_stack", "stack": 0}, "move.illegal.choose_stack")


def test_y_event_announces_every_cash_total():
    def prepare(state):
        for seat, cash in enumerate([7, 12, 3]):
            state["seats"][seat]["cash"] = cash
    state = round_start(3, 5, prepare=prepare)  # round 5: Y event
    assert state["announced"] == {"round": 5, "cash": [7, 12, 3]}
    view = GAME.view(state, 0)
    assert view["announced"]["cash"] == [7, 12, 3]
    assert view["seats"][1]["cash"] is None and view["seats"][0]["cash"] == 7
