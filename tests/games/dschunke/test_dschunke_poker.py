"""Phases 3 and 4: resupply, and the sealed goods poker with its worked example."""

from __future__ import annotations

import pytest
from dschunke_helpers import (GAME, GOODS, at_poker, bid, decision, hidden_card, moves,
                              pending_seats, phase2, play, rejects)

from referee.games.dschunke import flow

CARD_A, CARD_B = 0, 1  # rulebook cards: A = white 1, brown 2, lilac S, orange 4;
#                                         B = white 4, brown S, lilac 2, orange 1


def test_worked_example_of_the_rulebook():
    """A bids 1 white (paid 4); B and C 3 orange each (tie, 1 split rounds to 0); D 4 brown
    (S: a special card); brown, white, orange covered; a second round for lilac only."""
    hands = {0: {"white": 1, "lilac": 2}, 1: {"orange": 3}, 2: {"orange": 3}, 3: {"brown": 4}}
    state = at_poker(4, CARD_B, hands)
    assert sorted(pending_seats(state)) == [0, 1, 2, 3]
    supply = dict(state["supply"])
    for seat, cards in [(0, {"white": 1}), (1, {"orange": 3}), (2, {"orange": 3}),
                        (3, {"brown": 4})]:
        state = bid(state, seat, cards)
    assert [s["cash"] for s in state["seats"]] == [4, 0, 0, 0]
    assert state["market"]["settled"] == ["white", "brown", "orange"]
    assert state["supply"]["white"] == supply["white"] + 1
    assert state["supply"]["orange"] == supply["orange"] + 6
    assert state["supply"]["brown"] == supply["brown"] + 4
    assert decision(state).seat == 3 and decision(state).kind == "choose_stack"
    state = play(state, 3, {"type": "choose_stack", "stack": 2})
    card = decision(state).prompt["cards"][0]
    state = play(state, 3, {"type": "take_card", "card": card})
    held = state["seats"][3]["cards"] + state["seats"][3]["open"]
    assert [r["card"] for r in held] == [card]
    # the second (necessarily final) poker round: only lilac, 2 yuan
    assert pending_seats(state) == [0] and state["poker"]["round"] == 2
    assert GAME.view(state, 0)["poker"]["open"] == ["lilac"]
    state = bid(state, 0, {"lilac": 2})
    assert state["seats"][0]["cash"] == 4 + 2
    assert state["round"] == 2 and state["phase"] in (1, 2)


@pytest.mark.parametrize("card, bids, cash", [
    pytest.param(CARD_A, {0: {"orange": 2}, 1: {"orange": 2}}, [2, 2, 0],
                 id="tie on 4 yuan: 2 each"),
    pytest.param(CARD_A, {0: {"orange": 2}, 1: {"orange": 2}, 2: {"orange": 2}}, [1, 1, 1],
                 id="three-way tie on 4: 1 each (rounded down)"),
    pytest.param(CARD_A, {0: {"orange": 3}, 1: {"orange": 2}}, [4, 0, 0],
                 id="sole highest takes all, the other loses its cards"),
    pytest.param(CARD_A, {0: {"white": 1}, 1: {"brown": 1}, 2: {"orange": 1}}, [1, 2, 4],
                 id="different colours: everyone paid"),
])
def test_poker_highest_bid_wins_ties_split_rounded_down(card, bids, cash):
    hands = {s: {"white": 3, "brown": 3, "orange": 3} for s in range(3)}
    state = at_poker(3, card, hands)
    for seat in range(3):
        state = bid(state, seat, bids.get(seat, {}))
    assert [s["cash"] for s in state["seats"]] == cash
    staked = sum(sum(b.values()) for b in bids.values())
    assert sum(sum(s["hand"].values()) for s in state["seats"]) == 27 - staked


@pytest.mark.parametrize("settles", [True, False])
def test_poker_tie_on_s_pays_nothing(settles):
    hands = {0: {"lilac": 2, "white": 1}, 1: {"lilac": 2}, 2: {"white": 1}}
    state = at_poker(3, CARD_A, hands)
    state["options"]["s_tie_settles"] = settles
    for seat, cards in [(0, {"lilac": 2}), (1, {"lilac": 2}), (2, {})]:
        state = bid(state, seat, cards)
    assert decision(state).kind == "bid"  # no S reward for anybody
    assert all(not s["cards"] and not s["open"] for s in state["seats"])
    assert ("lilac" in state["market"]["settled"]) == settles


@pytest.mark.parametrize("laid, why", [
    pytest.param({"white": 1, "orange": 1}, "two colours", id="two colours"),
    pytest.param({"brown": 2}, "settled colour", id="a settled colour"),
])
def test_poker_invalid_bid_counts_as_none_and_cards_come_back(laid, why):
    hands = {0: {"white": 1, "orange": 1, "brown": 2}, 1: {"orange": 1}, 2: {}}
    state = at_poker(3, CARD_A, hands)
    state["market"]["settled"] = ["brown"]
    state = bid(state, 0, laid)
    state = bid(state, 1, {"orange": 1})
    assert state["seats"][0]["hand"] == {"white": 1, "brown": 2, "lilac": 0, "orange": 1}
    assert state["seats"][1]["cash"] == 4  # seat 0's cards did not count: seat 1 is sole bidder
    row = state["poker"]["reveal"]["bids"][0]
    assert row == {"stake": laid, "valid": False}


def test_poker_ends_when_nobody_plays_a_card():
    hands = {0: {"white": 2}, 1: {"brown": 2}, 2: {}}
    state = at_poker(3, CARD_A, hands)
    state = bid(state, 0, {})
    state = bid(state, 1, {"brown": 1, "white": 0})
    assert state["seats"][1]["cash"] == 2 and state["poker"]["round"] == 2
    state = bid(state, 0, {})
    state = bid(state, 1, {"brown": 1})  # brown is settled: no bid, so nobody played a card
    assert state["round"] == 2 and state["seats"][1]["hand"]["brown"] == 1


def test_poker_players_without_cards_do_not_bid():
    state = at_poker(3, CARD_A, {0: {"white": 1}, 1: {}, 2: {"lilac": 1}})
    assert sorted(pending_seats(state)) == [0, 2]
    assert all(d.sealed for d in GAME.pending(state))


def test_poker_bid_is_laid_colour_by_colour_within_the_hand():
    state = at_poker(3, CARD_A, {0: {"white": 1, "brown": 2}, 1: {"white": 1}, 2: {}})
    assert moves(state, 0) == [{"type": "bid", "goods": "white", "count": k} for k in (0, 1)]
    rejects(state, 0, {"type": "bid", "goods": "brown", "count": 1}, "move.illegal.bid")
    rejects(state, 0, {"type": "bid", "goods": "white", "count": 2}, "move.illegal.bid")
    state = play(state, 0, {"type": "bid", "goods": "white", "count": 1})
    assert decision(state, 0).prompt["goods"] == "brown"


def test_poker_bids_stay_sealed_until_all_are_in():
    state = at_poker(3, CARD_A, {0: {"white": 3}, 1: {"white": 1}, 2: {"brown": 2}})
    state = bid(state, 0, {"white": 2})
    for viewer in (1, 2, None):
        view = GAME.view(state, viewer)
        assert view["poker"]["progress"][0] == 4
        assert view["seats"][0]["hand_size"] == 3 and view["seats"][0]["hand"] is None
        assert view["poker"]["my_stake"] in ({}, None) and view["poker"]["reveal"] is None
    assert GAME.view(state, 0)["poker"]["my_stake"] == {"white": 2}
    assert GAME.view(state, 0)["seats"][0]["hand"]["white"] == 1


def test_poker_tie_breaker_wins_a_tie():
    hands = {0: {"orange": 2}, 1: {"orange": 2}, 2: {}}
    state = at_poker(3, CARD_A, hands)
    hidden_card(state, 1, "tie_breaker")
    assert [r["card"] for r in state["seats"][1]["open"]] == ["tie_breaker"]
    for seat in (0, 1):
        state = bid(state, seat, {"orange": 2})
    assert [s["cash"] for s in state["seats"]] == [0, 4, 0]


@pytest.mark.parametrize("choice", ["yuan", "card"])
def test_round_ten_s_is_three_yuan_or_a_card_chosen_before_looking(choice):
    state = at_poker(3, CARD_A, {0: {"lilac": 1}, 1: {}, 2: {}}, rnd=10)
    state = bid(state, 0, {"lilac": 1})
    d = decision(state)
    assert d.kind == "s_reward" and "cards" not in d.prompt
    assert all(GAME.view(state, 0)["stacks"][k]["cards"] is None for k in range(4))
    state = play(state, 0, {"type": "s_reward", "choice": choice})
    if choice == "yuan":
        assert state["seats"][0]["cash"] == 3
    else:
        state = play(state, 0, {"type": "choose_stack", "stack": 1})
        state = play(state, 0, {"type": "take_card", "card": decision(state).prompt["cards"][0]})
        assert state["seats"][0]["cash"] == 0
    assert GAME.outcome(state) is not None  # round 10 over: the game ends


def test_poker_s_before_round_ten_is_a_card_without_choice():
    state = at_poker(3, CARD_A, {0: {"lilac": 1}, 1: {}, 2: {}}, rnd=9)
    state = bid(state, 0, {"lilac": 1})
    assert decision(state).kind == "choose_stack"
    rejects(state, 0, {"type": "s_reward", "choice": "yuan"}, "move.unexpected")


def _to_resupply(state):
    for seat in range(3):
        state = play(state, seat, {"type": "merchant", "merchant": ["sell", "take",
                                                                      "load"][seat]})
        if decision(state).kind == "take_goods":
            while decision(state).kind == "take_goods":
                state = play(state, seat, moves(state, seat)[0])
    return state


def test_resupply_one_card_per_resupply_card_start_player_first():
    state = phase2(3)
    hidden_card(state, 1, "resupply")  # a special resupply card: permanent, face up
    state = _to_resupply(state)
    assert state["phase"] == 3
    for seat, entitled in [(0, 2), (1, 3), (2, 2)]:
        d = decision(state)
        assert d.kind == "resupply" and d.seat == seat and d.prompt["left"] == entitled
        before = sum(state["seats"][seat]["hand"].values())
        for _ in range(entitled):
            state = play(state, seat, {"type": "resupply", "goods": "orange", "junk": "orange"})
        assert sum(state["seats"][seat]["hand"].values()) == before + entitled
    assert state["phase"] == 4


def test_resupply_may_stop_early_and_takes_from_any_junk():
    state = _to_resupply(phase2(3))
    state = play(state, 0, {"type": "resupply", "goods": "white", "junk": "white"})
    state = play(state, 0, {"type": "done"})
    assert decision(state).seat == 1
    rejects(state, 1, {"type": "resupply", "goods": "white", "junk": "grey"},
            "move.illegal.resupply")


def test_junk_goods_hidden_during_phases_three_and_four():
    state = _to_resupply(phase2(3))
    junk = GAME.view(state, 0)["junks"]["white"]
    assert junk["goods"] is None and junk["has_goods"] is True
    state = at_poker(3, CARD_A, {0: {"white": 1}})
    assert GAME.view(state, 0)["junks"]["orange"]["goods"] is None
    flow.end_round(state)
    assert GAME.view(state, 0)["junks"]["orange"]["goods"] == {"orange": state["supply"]["orange"]}


def test_poker_goods_order_is_the_data_order():
    assert list(GOODS) == ["white", "brown", "lilac", "orange"]
