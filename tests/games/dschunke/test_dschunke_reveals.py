"""The goods poker's reveal stays visible, and sealed bids become public once revealed.

Rulebook, Phase 4: "Each player chooses as many goods cards of one type as he likes (even none)
and lays them face down on the table with his hand. All reveal simultaneously."
"""

from __future__ import annotations

from dschunke_helpers import GAME, at_poker, bid, decision, play

from referee.games.dschunke.data import is_open_card

CARD_B = 1  # white 4, brown S, lilac 2, orange 1


def _final_bidding_round():
    """Round 1's poker where the first bidding round is also the last (nobody bids again)."""
    hands = {0: {"white": 2}, 1: {"orange": 1}, 2: {"white": 1}}
    state = at_poker(3, CARD_B, hands)
    for seat, cards in [(0, {"white": 2}), (1, {"orange": 1}), (2, {"white": 1})]:
        state = bid(state, seat, cards)
    return state


def test_the_rounds_last_reveal_stays_visible_until_the_next_poker():
    """'All reveal simultaneously': the final bidding round of a round is shown to every seat
    and the spectator after the round ends, with who won which colour and who was paid."""
    state = _final_bidding_round()
    assert state["round"] == 2 and state["poker"] is None
    for viewer in (None, 0, 1, 2):
        last = GAME.view(state, viewer)["last_poker"]
        assert last["round"] == 1
        reveal = last["reveal"]
        assert [row["stake"] for row in reveal["bids"]] == [{"white": 2}, {"orange": 1},
                                                            {"white": 1}]
        assert reveal["winners"] == {"white": [0], "orange": [1]}
        assert reveal["paid"] == [4, 1, 0]


def test_the_last_reveal_is_cleared_when_the_next_poker_starts():
    from referee.games.dschunke import flow
    state = _final_bidding_round()
    flow.enter_poker(state)
    assert GAME.view(state, 0)["last_poker"] is None


def test_a_sealed_bid_is_public_once_its_poker_round_is_revealed():
    """The reveal counter the log compares grows exactly when the bids are turned up."""
    hands = {0: {"white": 2}, 1: {"orange": 1}, 2: {"white": 1}}
    state = at_poker(3, CARD_B, hands)
    before = GAME.reveals(state)
    state = bid(state, 0, {"white": 2})
    state = bid(state, 1, {"orange": 1})
    assert GAME.reveals(state) == before  # seat 2 still to lay: nothing revealed
    state = bid(state, 2, {"white": 1})
    assert GAME.reveals(state) == before + 1
    move = {"type": "bid", "goods": "white", "count": 2}
    assert GAME.public_move(state, 0, move) == move


def test_a_kept_card_is_public_in_the_log_only_when_laid_face_up():
    """Permanent cards lie face up (the view shows them); hidden ones stay secret."""
    hands = {0: {"brown": 1}}
    state = at_poker(3, CARD_B, hands)
    state = bid(state, 0, {"brown": 1})  # the others hold no cards: they do not bid
    state = play(state, 0, {"type": "choose_stack", "stack": decision(state).prompt["stacks"][0]})
    for card in decision(state).prompt["cards"]:
        shown = GAME.public_move(state, 0, {"type": "take_card", "card": card})
        assert shown == ({"type": "take_card", "card": card} if is_open_card(card)
                         else {"type": "take_card"})
