"""/v1/games and the stateless check."""

from __future__ import annotations

import pytest


@pytest.fixture
def app(shared_app):
    """The module's tests share one app (tests/conftest.py shared_app): each makes its own
    matches or asks stateless routes."""
    return shared_app


def test_games_are_listed_with_their_specs(client):
    """Every registered game appears, with options, moves (schema + example) and hidden info."""
    names = [g["name"] for g in client.get("/v1/games").json["games"]]
    assert "gops" in names
    spec = client.get("/v1/games/gops").json
    assert spec["rules_version"] == "1" and (spec["min_players"], spec["max_players"]) == (2, 4)
    options = {o["name"]: o for o in spec["options"]}
    assert options["cards"]["default"] == 4 and options["cards"]["maximum"] == 8
    assert options["ties"]["choices"] == ["discard", "carry"]
    moves = {m["type"]: m for m in spec["moves"]}
    assert moves["bid"]["schema"]["required"] == ["type", "card"]
    assert moves["give"]["example"] == {"type": "give", "to": 1}
    assert spec["hidden"]


def test_unknown_game(client):
    """An unknown game is a 404 game.unknown naming the known ones."""
    r = client.get("/v1/games/chess")
    assert (r.status_code, r.json["code"]) == (404, "game.unknown")
    assert "gops" in r.json["detail"]


def check(client, **body):
    """POST a check and return the JSON."""
    base = {"players": 2, "seed": 1, "options": {"cards": 3}}
    r = client.post("/v1/games/gops/check", json={**base, **body})
    return r.status_code, r.json


def test_check_reports_the_first_illegal_move(client):
    """Index, seat, code and message of the first rejected move."""
    status, body = check(client, moves=[
        {"seat": 0, "move": {"type": "bid", "card": 2}},
        {"seat": 1, "move": {"type": "bid", "card": 2}},
        {"seat": 1, "move": {"type": "bid", "card": 2}}])  # tie: prize discarded; 2 is spent
    assert status == 200 and body["legal"] is False and body["applied"] == 2
    assert body["error"]["index"] == 2 and body["error"]["seat"] == 1
    assert body["error"]["code"] == "move.illegal.bid.not_in_hand"
    assert "card 2 is not in your hand" in body["error"]["message"]


def test_check_when_all_legal_shows_pending_and_legal_moves(client):
    """All legal: the pending decisions with their legal moves."""
    status, body = check(client, moves=[{"seat": 0, "move": {"type": "bid", "card": 3}}])
    assert body["legal"] and not body["over"] and body["error"] is None
    assert body["pending"] == [{"seat": 1, "kind": "bid", "move_types": ["bid"], "sealed": True,
                                "prompt": {}, "legal_moves": [{"type": "bid", "card": c}
                                                              for c in (1, 2, 3)]}]


def test_check_candidate_move(client):
    """A candidate is judged at the position reached; the seat may be inferred."""
    moves = [{"seat": 0, "move": {"type": "bid", "card": 3}},
             {"seat": 1, "move": {"type": "bid", "card": 1}}]
    _, good = check(client, moves=moves, candidate={"move": {"type": "give", "to": 1}})
    assert good["legal"] and good["candidate"]["code"] is None and good["candidate"]["seat"] == 0
    _, bad = check(client, moves=moves, candidate={"move": {"type": "give", "to": 0}})
    assert bad["legal"] is False and bad["candidate"]["code"] == "move.illegal.give.target"


def test_check_needs_a_seat_when_several_must_act(client):
    """With simultaneous decisions pending, a move without seat is refused with a code."""
    _, body = check(client, moves=[{"move": {"type": "bid", "card": 3}}])
    assert body["error"]["code"] == "turn.not_yours" and "seats [0, 1]" in body["error"]["message"]


def test_check_to_the_end_reports_the_outcome(client):
    """A finished sequence reports over and the outcome; views on request."""
    moves = [{"seat": 0, "move": {"type": "bid", "card": 1}},
             {"seat": 1, "move": {"type": "bid", "card": 2}},
             {"move": {"type": "keep"}},
             {"seat": 0, "move": {"type": "bid", "card": 2}},
             {"seat": 1, "move": {"type": "bid", "card": 1}},
             {"move": {"type": "keep"}},
             {"seat": 0, "move": {"type": "bid", "card": 3}},
             {"seat": 1, "move": {"type": "bid", "card": 3}}]
    _, body = check(client, moves=moves, view_seat=-1)
    assert body["legal"] and body["over"] and body["pending"] == []
    assert body["outcome"]["termination"] == "rules" and len(body["outcome"]["scores"]) == 2
    assert body["view"]["deck_size"] == 0


def test_check_bad_setups(client):
    """Bad players, options or view seat: problem details with codes."""
    r = client.post("/v1/games/gops/check", json={"players": 9, "seed": 1})
    assert (r.status_code, r.json["code"]) == (422, "players.invalid")
    r = client.post("/v1/games/gops/check", json={"players": 2, "seed": 1, "options": {"x": 1}})
    assert r.json["code"] == "options.invalid"
    r = client.post("/v1/games/gops/check", json={"players": 2, "seed": 1, "view_seat": 5})
    assert r.json["code"] == "request.invalid"
    r = client.post("/v1/games/gops/check", json={"players": 2})
    assert r.json["code"] == "request.invalid"
