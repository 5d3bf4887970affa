"""Special cards (composition, effects, timings, secrecy) and the final scoring."""

from __future__ import annotations

from collections import Counter

import pytest
from dschunke_helpers import (GAME, decision, hidden_card, layers, moves, new, phase2, play,
                              rejects, set_hand)

from referee.games.dschunke import flow
from referee.games.dschunke.data import CARDS, special_deck


def test_special_deck_has_thirty_cards_of_the_labelled_composition():
    deck = Counter(special_deck())
    assert sum(deck.values()) == 30
    effects = Counter()
    for kind, count in deck.items():
        effects[CARDS[kind]["effect"]] += count
    assert effects == {"trade_goods": 2, "move_strip": 3, "resupply": 4, "extra_action": 10,
                       "tie_breaker": 1, "majority_bonus": 10}


def test_move_cargo_strip_moves_a_top_layer_strip_onto_another_junk():
    state = phase2(3)
    hidden_card(state, 0, "move_strip")
    layers(state, "white", [[0, 1, 2], [1]])
    layers(state, "orange", [[0, 2]])
    covered = {"type": "move_strip", "from": "white", "owner_seat": 0, "to": "orange"}
    assert covered not in moves(state, 0)
    rejects(state, 0, covered, "move.illegal.move_strip")  # seat 0's strip is covered (FAQ Q5)
    state = play(state, 0, {"type": "move_strip", "from": "white", "owner_seat": 1, "to": "orange"})
    assert state["junks"]["white"]["layers"] == [[0, 1, 2]]
    assert state["junks"]["orange"]["layers"] == [[0, 1, 2]]
    assert [r["card"] for r in state["seats"][0]["played"]] == ["move_strip"]
    assert decision(state).kind == "action"  # the card is in addition to the turn's action


def test_move_cargo_strip_onto_a_full_layer_starts_a_crosswise_one():
    state = phase2(3)
    hidden_card(state, 0, "move_strip")
    state = play(state, 0, {"type": "move_strip", "from": "orange", "owner_seat": 0, "to": "brown"})
    assert state["junks"]["brown"]["layers"] == [[0, 1, 2], [0]]
    assert GAME.view(state, 1)["junks"]["brown"]["visible"] == [3 + 2, 2, 2]


def test_extra_action_sells_on_its_junk_ignoring_merchants_and_keeps_the_action():
    state = phase2(3)
    hidden_card(state, 0, "extra_sell_grey")
    state = play(state, 0, {"type": "merchant", "merchant": "sell"})  # sells on grey
    state = play(state, 0, {"type": "extra_action", "card": "extra_sell_grey"})
    assert state["seats"][0]["cash"] == 3 + 3
    # no hidden card left: the turn is over, and the card is gone for good
    assert decision(state).seat == 1
    assert [r["card"] for r in state["seats"][0]["played"]] == ["extra_sell_grey"]
    rejects(state, 1, {"type": "extra_action", "card": "extra_sell_grey"},
            "move.illegal.extra_action")


def test_extra_take_on_grey_chooses_any_type():
    state = phase2(3)
    hidden_card(state, 0, "extra_take_grey")
    set_hand(state, 0, {})
    state = play(state, 0, {"type": "extra_action", "card": "extra_take_grey"})
    assert decision(state).kind == "take_goods" and decision(state).prompt["left"] == 3
    assert len(moves(state, 0)) == 4
    for _ in range(3):
        state = play(state, 0, {"type": "take_goods", "goods": "lilac", "junk": "lilac"})
    assert state["seats"][0]["hand"]["lilac"] == 3 and decision(state).kind == "action"


def test_permanent_cards_face_up_others_hidden_with_stack_and_round():
    state = phase2(3)
    hidden_card(state, 0, "resupply", rnd=1)
    hidden_card(state, 0, "bonus_white", rnd=1)
    other = GAME.view(state, 1)["seats"][0]
    assert other["open_cards"] == ["resupply"] and other["resupply"] == 3
    assert len(other["hidden_cards"]) == 1 and "card" not in other["hidden_cards"][0]
    mine = GAME.view(state, 0)["seats"][0]
    assert mine["hidden_cards"][0]["card"] == "bonus_white"


def test_take_card_is_redacted_in_the_log_for_others():
    """A hidden card kept stays secret in the log; a permanent one is laid face up."""
    state = new(3)
    assert GAME.public_move(state, 1, {"type": "take_card", "card": "bonus_grey"}) == \
        {"type": "take_card"}
    shown = {"type": "take_card", "card": "resupply"}
    assert GAME.public_move(state, 1, shown) == shown


def _game_over(state):
    state["round"] = 10
    state["phase"] = 4
    flow.end_round(state)
    return state


@pytest.mark.parametrize("junks, cash, bonus_cards, expected", [
    pytest.param({"grey": [[0]], "white": [[1]]}, [5, 5, 0], {}, [4 + 5, 4 + 5, 4 * 3],
                 id="4 yuan per junk with a visible own crate"),
    pytest.param({j: [[0]] for j in ("grey", "orange", "lilac", "brown", "white")}, [0, 0, 0],
                 {}, [25, 0, 0], id="25 yuan for all five junks"),
    pytest.param({"white": [[0, 0, 1]]}, [0, 0, 0], {0: "bonus_white", 1: "bonus_white"},
                 [4 + 8, 4, 4 * 4], id="bonus card: strictly most crates there"),
    pytest.param({"white": [[0, 1]]}, [0, 0, 0], {0: "bonus_white"}, [4, 4, 4 * 4],
                 id="bonus card: a tie is not a majority"),
])
def test_final_scoring_cash_card_bonus_and_ships(junks, cash, bonus_cards, expected):
    state = new(3, 1)
    for junk in ("grey", "orange", "lilac", "brown", "white"):
        layers(state, junk, junks.get(junk, [[2]]))
    for seat, kind in bonus_cards.items():
        hidden_card(state, seat, kind)
    for seat, amount in enumerate(cash):
        state["seats"][seat]["cash"] = amount
    state = _game_over(state)
    outcome = GAME.outcome(state)
    assert list(outcome.scores) == expected
    assert GAME.pending(state) == ()


def test_final_tie_broken_by_goods_cards_kept():
    state = new(3, 1)
    for seat, cards in enumerate([{"white": 2}, {"white": 3}, {"white": 3}]):
        set_hand(state, seat, cards)
    state = _game_over(state)
    outcome = GAME.outcome(state)
    assert outcome.scores[1] == outcome.scores[0] == outcome.scores[2]
    assert outcome.ranks == (3, 1, 1)
    assert GAME.view(state, None)["seats"][0]["hand"] == {"white": 2, "brown": 0, "lilac": 0,
                                                          "orange": 0}
