"""The check endpoint with chance from outside: external-chance logs and positions as state."""

from __future__ import annotations

import json

import pytest

from referee.core import chance, engine
from referee.core import chancelog
from referee.core.playout import random_playout
from tests.conftest import ALL_GAMES
from tests.support.gops import GAME


@pytest.fixture
def app(shared_app):
    """The module's tests share one app (tests/conftest.py shared_app): each makes its own
    matches or asks stateless routes."""
    return shared_app


def check(client, **body):
    """POST a gops check; (status, JSON)."""
    r = client.post("/v1/games/gops/check", json={"players": 2, **body})
    return r.status_code, r.json


def as_json(log):
    """A (seat, move) log as the check endpoint takes it: the chance seat as "chance"."""
    return [{"seat": chance.seat_to_json(seat), "move": move} for seat, move in log]


EXTERNAL_GAMES = [g for g in ALL_GAMES if g.external_chance]
"""The games that take chance from outside (all of them, once every game supports it)."""
CONVERSIONS = [pytest.param(game, players, seed, id=f"{game.spec.name}-{players}p-s{seed}")
               for game in EXTERNAL_GAMES
               for players, seed in ((game.spec.min_players, 3), (game.spec.max_players, 4))]


@pytest.mark.parametrize("game, players, seed", CONVERSIONS)
def test_an_internal_match_converted_checks_to_the_same_outcome(client, game, players, seed):
    """Each game: play with internal chance, convert the log, check it through the endpoint
    with chance external: the same outcome, and the spectator's view as at the end."""
    _, final, log = random_playout(game, players, {}, seed)
    converted = chancelog.external_log(game, players, {}, seed, log)
    r = client.post(f"/v1/games/{game.spec.name}/check", json={
        "players": players, "chance": "external", "moves": as_json(converted),
        "view_seat": -1})
    body = r.json
    assert r.status_code == 200 and body["legal"] and body["over"], body.get("error")
    assert body["applied"] == len(converted)
    assert body["outcome"] == json.loads(json.dumps(game.outcome(final).to_dict()))
    assert body["view"] == json.loads(json.dumps(game.view(final, None)))


def test_a_pending_chance_decision_lists_outcomes_with_probabilities(client):
    """With no chance move yet, the set-up waits for the first prize: seat "chance"."""
    status, body = check(client, chance="external", options={"cards": 3})
    assert status == 200 and body["legal"] and not body["over"]
    (pending,) = body["pending"]
    assert (pending["seat"], pending["kind"], pending["move_types"]) == ("chance",
                                                                         "chance:prize",
                                                                         ["chance"])
    assert pending["prompt"]["outcomes"] == [{"outcome": c, "probability": 1 / 3}
                                             for c in (1, 2, 3)]
    assert pending["legal_moves"] == [{"type": "chance", "outcome": c} for c in (1, 2, 3)]


def test_an_impossible_outcome_is_the_first_error(client):
    """A card already drawn: move.illegal.chance.outcome at its index, seat "chance"."""
    moves = [{"seat": "chance", "move": {"type": "chance", "outcome": 2}},
             {"seat": 0, "move": {"type": "bid", "card": 4}},
             {"seat": 1, "move": {"type": "bid", "card": 4}},   # a tie: the next prize is drawn
             {"seat": "chance", "move": {"type": "chance", "outcome": 2}}]
    status, body = check(client, chance="external", moves=moves)
    assert status == 200 and body["legal"] is False and body["applied"] == 3
    assert body["error"]["index"] == 3 and body["error"]["seat"] == "chance"
    assert body["error"]["code"] == "move.illegal.chance.outcome"
    assert body["pending"][0]["seat"] == "chance"


def test_a_chance_move_may_omit_its_seat_and_players_cannot_play_it(client):
    """Only chance acts while it waits, so its seat may be left out; a player's move then
    is not its turn."""
    status, body = check(client, chance="external", moves=[
        {"move": {"type": "chance", "outcome": 1}}, {"seat": 0, "move": {"type": "bid",
                                                                         "card": 1}}])
    assert body["legal"] and body["applied"] == 2
    status, body = check(client, chance="external", moves=[
        {"seat": 0, "move": {"type": "bid", "card": 1}}])
    assert body["error"]["code"] == "turn.not_yours"


def hand_made():
    """A position no seed gives: both seats hold 1 and 4, prize 3 up, 2 left in the deck."""
    return {"players": 2, "options": {"cards": 4, "ties": "discard"}, "seed": 0,
            "hands": [[1, 4], [1, 4]], "deck": [2], "prize": [3], "bids": [None, None],
            "winner": None, "scores": [2, 0], "last": [3, 2]}


def test_moves_are_checked_from_a_hand_made_position(client):
    """A state (here with external chance added) replaces the set-up."""
    moves = [{"seat": 0, "move": {"type": "bid", "card": 4}},
             {"seat": 1, "move": {"type": "bid", "card": 1}},
             {"seat": 0, "move": {"type": "keep"}},
             {"seat": "chance", "move": {"type": "chance", "outcome": 2}},
             {"seat": 0, "move": {"type": "bid", "card": 1}},
             {"seat": 1, "move": {"type": "bid", "card": 4}},
             {"seat": 1, "move": {"type": "keep"}}]
    status, body = check(client, chance="external", state=hand_made(), moves=moves,
                         view_seat=-1)
    assert status == 200 and body["legal"] and body["over"], body
    assert body["outcome"]["scores"] == [5, 2]
    status, body = check(client, chance="external", state=hand_made(), moves=[
        {"seat": 0, "move": {"type": "bid", "card": 2}}])
    assert body["error"]["code"] == "move.illegal.bid.not_in_hand"


def test_a_position_with_internal_chance_draws_from_its_own_seed(client):
    """Without chance external, a state plays on with its seed (a stored match's state)."""
    _, state = engine.start(GAME, 2, None, 8)
    status, body = check(client, state=state, moves=[
        {"seat": 0, "move": {"type": "bid", "card": 2}}])
    assert status == 200 and body["legal"] and body["pending"][0]["seat"] == 1


BAD = [
    (lambda s: s["hands"][1].__setitem__(0, "x"), "$.hands[1][0]"),
    (lambda s: s.pop("scores"), "$.scores"),
    (lambda s: s.update(bids=[None]), "$.bids"),
    (lambda s: s.update(chance={"mode": "external", "waiting": 3}), "$.chance.waiting"),
]


@pytest.mark.parametrize("change, path", BAD, ids=[p for _, p in BAD])
def test_a_bad_state_is_refused_with_the_path_of_its_first_bad_field(client, change, path):
    """422 state.invalid problem details; details.path names the field."""
    state = hand_made()
    change(state)
    r = client.post("/v1/games/gops/check", json={"players": 2, "chance": "external",
                                                   "state": state})
    assert r.status_code == 422 and r.mimetype == "application/problem+json"
    assert r.json["code"] == "state.invalid" and r.json["details"]["path"] == path
    assert path in r.json["detail"]


def test_bad_chance_requests(client):
    """No seed with internal chance; an unknown mode; a seat that is neither."""
    assert check(client)[1]["code"] == "request.invalid"
    assert check(client, chance="dice")[1]["code"] == "request.invalid"
    status, body = check(client, chance="external", moves=[{"seat": "dealer",
                                                            "move": {"type": "keep"}}])
    assert (status, body["code"]) == (422, "request.invalid")
