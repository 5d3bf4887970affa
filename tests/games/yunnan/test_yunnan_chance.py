"""Yunnan with external chance (issue 16): the set-up order and Dúlì's cards as chance moves.

Yunnan's random events: the blue-track order at set-up (rulebook set-up 3, the Turn Order
Markers dropped over the Sequence Board: one event, every permutation alike) and each Dúlì
card turned over ("the top Dúlì Card of the draw pile is turned over"; "If the draw pile is
exhausted, shuffle all Dúlì Cards"): one event per card, any card left in the pile alike.
Both are public. An external pile is the sorted set of cards left: there is no order to hide.
"""

from __future__ import annotations

from math import factorial, isclose

import pytest

from referee.core import Rng, chance, engine
from referee.core import chancelog
from referee.core.chance import CHANCE, EXTERNAL
from referee.core.errors import IllegalMove, InvalidState
from referee.core.playout import random_playout
from referee.games.yunnan import GAME
from referee.games.yunnan.data import DULI_CARD_IDS, DULI_CARDS, START_COINS
from tests.api.helpers import auth, create

KEY = "chance"  # the core's record in an external state (referee.core.suspend)


def _viewers(players):
    return (None, *range(players))


@pytest.mark.parametrize("players, seed", [(2, 1), (2, 7), (3, 2), (4, 3), (5, 4)])
def test_an_internal_match_converted_to_external_chance_replays_to_the_same_end(players,
                                                                              seed):
    """internal match -> chance.external_log -> replay with external chance: same end, views."""
    _, final, log = random_playout(GAME, players, None, seed)
    converted = chancelog.external_log(GAME, players, None, seed, log)
    assert [m for m in converted if m[0] != CHANCE] == log
    _, start = engine.start(GAME, players, None, seed)
    assert converted[0] == (CHANCE, {"type": "chance", "outcome": start["blue"][:players]})
    cards = [m["outcome"] for seat, m in converted[1:] if seat == CHANCE]
    if players == 2:
        assert final["duli_cards"]["shuffles"] > 1  # the log crosses a reshuffle
        assert len(cards) > len(DULI_CARD_IDS) and set(cards) == set(DULI_CARD_IDS)
    else:
        assert cards == []  # without Dúlì the set-up order is the only chance
    again = engine.replay(GAME, players, None, 0, converted, chance=EXTERNAL)
    assert GAME.outcome(again) == GAME.outcome(final)
    for viewer in _viewers(players):
        assert GAME.view(again, viewer) == GAME.view(final, viewer)


def test_internal_chance_is_unchanged_and_keeps_no_chance_record():
    """The default still draws from the seed (same order, same pile) and adds no key."""
    _, state = engine.start(GAME, 2, None, 11)
    assert KEY not in state
    assert state["blue"][:2] == Rng(11, "order").shuffled(range(2))
    assert state["duli_cards"]["deck"] == Rng(11, "duli", 0).shuffled(DULI_CARD_IDS)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_external_setup_waits_for_the_turn_order_with_every_permutation(players):
    """The set-up's one chance decision lists the n! orders, equally likely; no view yet."""
    _, state = engine.start(GAME, players, None, 0, chance=EXTERNAL)
    (decision,) = GAME.pending(state)
    assert (decision.seat, decision.kind) == (CHANCE, "chance:order")
    outcomes = GAME.chance_outcomes(state)
    assert len(outcomes) == factorial(players)
    assert all(isclose(p, 1 / factorial(players)) for _, p in outcomes)
    assert [m for m, _ in outcomes] == GAME.legal_moves(state, CHANCE)
    assert all(GAME.view(state, viewer) is None for viewer in _viewers(players))
    order = list(reversed(range(players)))
    state, _ = engine.play(GAME, state, 0, CHANCE, chance.chance_move(order))
    assert state["blue"][:players] == order and state["actor"] == order[0]
    assert [state["coins"][p] for p in order] == list(START_COINS[:players])  # by position
    if players == 2:
        assert state["duli_cards"]["deck"] == list(DULI_CARD_IDS)  # sorted: no hidden order
    with pytest.raises(IllegalMove) as err:
        engine.play(GAME, engine.start(GAME, players, None, 0, chance=EXTERNAL)[1], 0, CHANCE,
                    chance.chance_move([0] * players))
    assert err.value.code == "move.illegal.chance.outcome"


def _position(deck: list[int]) -> dict:
    """A hand-made 2-player round-1 position as plain data: seat 0 has passed, seat 1 bids
    next, then Dúlì; her pile holds `deck` (the other cards are in the discard)."""
    _, state = engine.start(GAME, 2, None, 0, chance=EXTERNAL)
    data, _ = engine.play(GAME, state, 0, CHANCE, chance.chance_move([0, 1]))
    data["passed"][0] = True
    data["market"][0], data["supply"][0] = data["supply"][0], 0
    data["actor"], data["cursor"] = 1, 1
    data["duli_cards"].update(deck=deck, discard=[c for c in DULI_CARD_IDS if c not in deck])
    return data


def _first_free_building(state, card: int) -> str:
    """The first building on Dúlì's card where she has no trader yet."""
    return next(b for b in DULI_CARDS[card]["bids"] if state["duli"] not in state["bids"][b])


def test_moves_from_a_hand_made_position_given_as_state():
    """From a state: seat 1's bid waits for Dúlì's card, one of the two left, each 1/2."""
    state = GAME.from_dict(_position([3, 7]))
    bid = next(m for m in GAME.legal_moves(state, 1) if m["type"] == "bid")
    waiting, _ = engine.play(GAME, state, 0, 1, bid)
    (decision,) = GAME.pending(waiting)
    assert (decision.seat, decision.kind) == (CHANCE, "chance:duli_card")
    assert decision.prompt["owner"] is None  # turned face up: everyone sees it
    assert GAME.chance_outcomes(waiting) == [(chance.chance_move(3), 0.5),
                                             (chance.chance_move(7), 0.5)]
    for viewer in _viewers(2):  # a seat waiting for the dealer sees the board as before
        assert GAME.view(waiting, viewer) == GAME.view(state, viewer)
        assert KEY not in GAME.view(waiting, viewer)
    assert GAME.from_dict(GAME.to_dict(waiting)) == waiting  # a waiting state reloads
    with pytest.raises(IllegalMove) as err:
        engine.play(GAME, waiting, 1, CHANCE, chance.chance_move(5))  # in the discard
    assert err.value.code == "move.illegal.chance.outcome"
    done, _ = engine.play(GAME, waiting, 1, CHANCE, chance.chance_move(7))
    assert done["duli_cards"]["deck"] == [3] and done["duli_cards"]["shown"] == [7]
    building = _first_free_building(state, 7)
    assert done["report"]["duli"][-1]["card"] == 7
    assert done["report"]["duli"][-1]["bid"] == building
    assert done["actor"] == 1 and GAME.pending(done)[0].seat == 1


def test_an_exhausted_pile_is_reshuffled_and_any_of_the_16_cards_may_come():
    """An empty pile: all 16 cards are shuffled back, each equally likely; shuffles counts."""
    state = GAME.from_dict(_position([]))
    bid = next(m for m in GAME.legal_moves(state, 1) if m["type"] == "bid")
    waiting, _ = engine.play(GAME, state, 0, 1, bid)
    outcomes = GAME.chance_outcomes(waiting)
    assert [m["outcome"] for m, _ in outcomes] == list(DULI_CARD_IDS)
    assert all(isclose(p, 1 / 16) for _, p in outcomes)
    done, _ = engine.play(GAME, waiting, 1, CHANCE, chance.chance_move(12))
    cards = done["duli_cards"]
    assert cards["shown"] == [12] and cards["discard"] == []
    assert cards["deck"] == [c for c in DULI_CARD_IDS if c != 12]
    assert cards["shuffles"] == state["duli_cards"]["shuffles"] + 1


def test_a_hand_made_state_with_a_bad_field_is_refused_with_its_path():
    """A card both in the pile and in the discard: InvalidState naming $.duli_cards."""
    data = _position([3, 7])
    data["duli_cards"]["discard"].append(3)
    with pytest.raises(InvalidState) as err:
        GAME.from_dict(data)
    assert err.value.details.get("path") == "$.duli_cards"


def _check_chance_decision(state, previous) -> None:
    """A waiting state: chance alone decides, outcomes as listed, odds summing to 1, views of
    the state before the move; a Dúlì card is any card left in her (sorted) pile (a move can
    turn several: Dúlì bids, then travels first)."""
    (decision,) = GAME.pending(state)
    assert decision.seat == CHANCE and decision.prompt["owner"] is None
    outcomes = GAME.chance_outcomes(state)
    assert [m for m, _ in outcomes] == GAME.legal_moves(state, CHANCE)
    assert isclose(sum(p for _, p in outcomes), 1.0)
    if decision.kind == "chance:duli_card":
        pile = list(state["duli_cards"]["deck"])  # the base's pile, less the cards supplied
        for card in state[KEY]["waiting"]["supplied"]:
            pile = pile or list(DULI_CARD_IDS)  # exhausted: all cards reshuffled
            pile.remove(card)
        assert [m["outcome"] for m, _ in outcomes] == (pile or list(DULI_CARD_IDS))
        for viewer in _viewers(state["n"]):
            assert GAME.view(state, viewer) == GAME.view(previous, viewer)


def _check_pile(state) -> None:
    """An external pile is sorted and holds exactly the cards not discarded or shown."""
    cards = state["duli_cards"]
    assert cards["deck"] == sorted(set(DULI_CARD_IDS) - set(cards["discard"] + cards["shown"]))
    assert GAME.redetermine(state, 0, Rng(0, "test")) == state  # nothing hidden to re-deal


@pytest.mark.parametrize("players, seed, options", [
    (2, 31, None), (2, 32, {"duli_no_bid": "spend_card", "duli_overflow": "supply"}),
    (3, 33, None), (4, 34, {"guards": True}), (5, 35, None)])
def test_random_external_playouts_reach_the_end(players, seed, options):
    """Random legal moves, the chance seat's among them, to the end; every state checked."""
    rng = Rng(seed, "external playout")
    _, state = engine.start(GAME, players, options, 0, chance=EXTERNAL)
    previous, version, draws = None, 0, 0
    while GAME.pending(state):
        decision = GAME.pending(state)[0]
        if decision.seat == CHANCE:
            _check_chance_decision(state, previous)
            draws += 1
        else:
            previous = state
            if players == 2:
                _check_pile(state)
        move = rng.choice(GAME.legal_moves(state, decision.seat))
        state, _ = engine.play(GAME, state, version, decision.seat, move)
        version += 1
        assert version < 5000, "no end"
    assert GAME.outcome(state) is not None and state[KEY]["waiting"] is None
    assert (draws > len(DULI_CARD_IDS)) if players == 2 else draws == 1
    assert GAME.from_dict(GAME.to_dict(state)) == state


def test_the_check_endpoint_plays_on_from_a_hand_made_position(client):
    """POST /v1/games/yunnan/check with the position as state: the bid, then the dealer's
    card (7 of the two left) are legal; a discarded card is the first error, after the bid."""
    data = _position([3, 7])
    bid = next(m for m in GAME.legal_moves(GAME.from_dict(data), 1) if m["type"] == "bid")
    moves = [{"seat": 1, "move": bid}, {"seat": "chance", "move": chance.chance_move(7)}]
    r = client.post("/v1/games/yunnan/check", json={
        "players": 2, "chance": "external", "state": data, "moves": moves, "view_seat": -1})
    body = r.json
    assert r.status_code == 200 and body["legal"] and body["applied"] == 2, body
    assert body["view"]["duli_cards"]["shown"] == [7] and "chance" not in body["view"]
    assert [p["seat"] for p in body["pending"]] == [1]
    moves[1]["move"] = chance.chance_move(5)
    body = client.post("/v1/games/yunnan/check", json={
        "players": 2, "chance": "external", "state": data, "moves": moves}).json
    assert not body["legal"] and body["applied"] == 1
    assert body["error"]["code"] == "move.illegal.chance.outcome"


def test_a_live_two_player_table_over_rest_with_the_organiser_dealing(client):
    """POST /v1/matches with chance external: the organiser enters the turn order, then
    Dúlì's cards as the players' moves call for them; the board shows each card turned."""
    match = create(client, "yunnan", chance="external")
    mid, tokens = match["id"], match["tokens"]
    url = f"/v1/matches/{mid}/chance"
    assert client.get(f"/v1/matches/{mid}").json["view"] is None  # no board before the order
    assert len(client.get(url).json["outcomes"]) == 2
    assert client.post(url, json={"move": chance.chance_move([1, 0])}).status_code == 200
    for seat in (1, 0):  # both pass: Dúlì, third on the blue track, then passes too
        r = client.post(f"/v1/matches/{mid}/moves", json={"move": {"type": "pass"}},
                        headers=auth(tokens[str(seat)]))
        assert r.status_code == 200, r.json
    prompt = client.get(url).json  # the bidding ends: Dúlì travels first, a card is needed
    assert prompt["must_act"] is True and prompt["decision"]["kind"] == "chance:duli_card"
    assert [o["move"]["outcome"] for o in prompt["outcomes"]] == list(DULI_CARD_IDS)
    r = client.post(url, json={"move": chance.chance_move(9)})
    assert r.status_code == 200, r.json
    seat0 = client.get(f"/v1/matches/{mid}/prompt", headers=auth(tokens["0"])).json
    summary = client.get(f"/v1/matches/{mid}").json
    assert summary["view"]["duli_cards"]["shown"] == [9]
    assert summary["view"]["duli_cards"]["draw_pile"] == 15 and "chance" not in summary["view"]
    assert seat0["must_act"] is (summary["view"]["actor"] == 0)
