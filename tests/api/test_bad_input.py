"""Every kind of bad input gets its own 4xx problem detail and code, never a 500, and the
match is unchanged afterwards."""

from __future__ import annotations

import pytest

from tests.api.helpers import auth, create, play_out


@pytest.fixture
def app(shared_app):
    """The module's tests share one app (tests/conftest.py shared_app): each makes its own
    matches or asks stateless routes."""
    return shared_app


@pytest.fixture
def match(client):
    """A two-seat test-game match where seat 0 has bid and seat 1 must act."""
    body = create(client, seed=4, options={"cards": 3})
    client.post(f"/v1/matches/{body['id']}/moves", json={"move": {"type": "bid", "card": 1}},
                headers=auth(body["tokens"]["0"]))
    return body


def snapshot(client, match_id):
    """What must not change after a rejection: version, status and the full log."""
    m = client.get(f"/v1/matches/{match_id}").json
    return m["version"], m["status"], client.get(f"/v1/matches/{match_id}/log").json["moves"]


def t(match, seat):
    """Seat token."""
    return match["tokens"][str(seat)]


MOVE_CASES = [
    # name, seat, raw body or json, status, code
    ("malformed JSON", 1, b'{"move": {"type": "bid", ', 400, "request.malformed_json"),
    ("body not an object", 1, b'[1, 2]', 422, "request.invalid"),
    ("move missing", 1, {"expected_version": 1}, 422, "request.invalid"),
    ("move not an object", 1, {"move": "bid 2"}, 400, "move.malformed"),
    ("unknown move type", 1, {"move": {"type": "fold"}}, 400, "move.malformed"),
    ("mistyped field", 1, {"move": {"type": "bid", "card": "two"}}, 400, "move.malformed"),
    ("wrong kind for the decision", 1, {"move": {"type": "keep"}}, 422, "move.unexpected"),
    ("illegal by the rules", 1, {"move": {"type": "bid", "card": 7}}, 422,
     "move.illegal.bid.not_in_hand"),
    ("a move for another seat", 0, {"move": {"type": "bid", "card": 2}}, 409, "turn.not_yours"),
    ("stale version", 1, {"move": {"type": "bid", "card": 2}, "expected_version": 0}, 409,
     "match.version_stale"),
    ("version not an integer", 1, {"move": {"type": "bid", "card": 2},
                                   "expected_version": "one"}, 422, "request.invalid"),
]


@pytest.mark.parametrize("name, seat, body, status, code", MOVE_CASES, ids=[c[0] for c in MOVE_CASES])
def test_bad_moves_are_rejected_with_their_code(client, match, name, seat, body, status, code):
    """The problem detail names the code; the match does not change."""
    before = snapshot(client, match["id"])
    url = f"/v1/matches/{match['id']}/moves"
    if isinstance(body, bytes):
        r = client.post(url, data=body, content_type="application/json", headers=auth(t(match, seat)))
    else:
        r = client.post(url, json=body, headers=auth(t(match, seat)))
    assert (r.status_code, r.json["code"]) == (status, code), r.json
    assert r.mimetype == "application/problem+json"
    assert r.json["status"] == status and r.json["detail"] and r.json["type"].endswith(code)
    assert snapshot(client, match["id"]) == before


def test_missing_token(client, match):
    """No token: 401 auth.token_missing."""
    before = snapshot(client, match["id"])
    r = client.post(f"/v1/matches/{match['id']}/moves", json={"move": {"type": "bid", "card": 2}})
    assert (r.status_code, r.json["code"]) == (401, "auth.token_missing")
    assert client.get(f"/v1/matches/{match['id']}/prompt").json["code"] == "auth.token_missing"
    assert snapshot(client, match["id"]) == before


def test_wrong_token(client, match):
    """A token of no seat of this match (or of another match): 403 auth.token_invalid."""
    other = create(client)
    for token in ("not-a-token", other["tokens"]["1"]):
        r = client.post(f"/v1/matches/{match['id']}/moves",
                        json={"move": {"type": "bid", "card": 2}}, headers=auth(token))
        assert (r.status_code, r.json["code"]) == (403, "auth.token_invalid")
    r = client.get(f"/v1/matches/{match['id']}", headers=auth("nope"))
    assert r.status_code == 403


def test_over_large_body(client, app, match):
    """A body over the limit: 413 request.too_large, naming the limit."""
    limit = app.config["MAX_CONTENT_LENGTH"]
    r = client.post(f"/v1/matches/{match['id']}/moves", data=b"x" * (limit + 1),
                    content_type="application/json", headers=auth(t(match, 1)))
    assert (r.status_code, r.json["code"]) == (413, "request.too_large")
    assert str(limit) in r.json["detail"]


def test_move_after_the_end(client):
    """After the end: 409 match.over."""
    body = create(client, seed=1, options={"cards": 2})
    play_out(client, body["id"], {0: body["tokens"]["0"], 1: body["tokens"]["1"]})
    r = client.post(f"/v1/matches/{body['id']}/moves", json={"move": {"type": "keep"}},
                    headers=auth(body["tokens"]["0"]))
    assert (r.status_code, r.json["code"]) == (409, "match.over")


CREATE_CASES = [
    ("unknown game", {"game": "chess", "seats": ["remote", "remote"]}, 404, "game.unknown"),
    ("bad option value", {"game": "gops", "seats": ["remote"] * 2, "options": {"cards": 1}},
     422, "options.invalid"),
    ("unknown option", {"game": "gops", "seats": ["remote"] * 2, "options": {"speed": 2}},
     422, "options.invalid"),
    ("options not an object", {"game": "gops", "seats": ["remote"] * 2, "options": [1]},
     422, "request.invalid"),
    ("too few seats", {"game": "gops", "seats": ["remote"]}, 422, "players.invalid"),
    ("no seats", {"game": "gops", "seats": []}, 422, "request.invalid"),
    ("unknown seat kind", {"game": "gops", "seats": ["remote", "builtin:genius"]}, 422,
     "seats.invalid"),
    ("odd seat kind", {"game": "gops", "seats": ["remote", "robot"]}, 422, "seats.invalid"),
    ("negative seed", {"game": "gops", "seats": ["remote"] * 2, "seed": -1}, 422,
     "request.invalid"),
    ("missing game", {"seats": ["remote"] * 2}, 422, "request.invalid"),
]


@pytest.mark.parametrize("name, body, status, code", CREATE_CASES, ids=[c[0] for c in CREATE_CASES])
def test_bad_match_requests(client, name, body, status, code):
    """Creating a match with bad input: its own code, and no match is stored."""
    before = client.get("/v1/matches").json["total"]
    r = client.post("/v1/matches", json=body)
    assert (r.status_code, r.json["code"]) == (status, code), r.json
    assert client.get("/v1/matches").json["total"] == before


def test_unknown_match_and_endpoint(client):
    """Unknown ids and paths are 404 problems too."""
    assert client.get("/v1/matches/nope").json["code"] == "match.not_found"
    assert client.get("/v1/matches/nope/log").status_code == 404
    assert client.get("/v1/nothing").json["code"] == "http.not_found"
    assert client.delete("/v1/games").json["code"] == "http.method_not_allowed"


def test_bad_query_parameters(client, match):
    """A negative wait or an unknown log format: 422 request.invalid."""
    r = client.get(f"/v1/matches/{match['id']}/prompt?wait=-1", headers=auth(t(match, 1)))
    assert (r.status_code, r.json["code"]) == (422, "request.invalid")
    r = client.get(f"/v1/matches/{match['id']}/log?format=xml")
    assert (r.status_code, r.json["code"]) == (422, "request.invalid")


@pytest.mark.parametrize("terminated", [False, True], ids=["plain", "gunicorn-like"])
def test_a_body_shorter_than_its_content_length(client, match, terminated):
    """The connection ended before the body its Content-Length announced (under a server
    that ends the input itself, as gunicorn does, and one that does not): 400
    request.malformed naming the Content-Length, never a 500, and the match is unchanged."""
    import io

    before = snapshot(client, match["id"])
    body = b'{"move": {"type": "bid", "card": 2}}'
    overrides = {"CONTENT_LENGTH": str(len(body))}   # the test client would set 10
    if terminated:
        overrides["wsgi.input_terminated"] = True
    r = client.post(f"/v1/matches/{match['id']}/moves", input_stream=io.BytesIO(body[:10]),
                    content_type="application/json", headers=auth(t(match, 1)),
                    environ_overrides=overrides)
    assert r.status_code == 400 and r.mimetype == "application/problem+json"
    assert r.json["code"] == "request.malformed", r.json
    assert f"Content-Length ({len(body)} bytes)" in r.json["detail"]
    assert snapshot(client, match["id"]) == before


@pytest.mark.parametrize("terminated", [False, True], ids=["plain", "gunicorn-like"])
def test_a_body_read_from_the_server_input_is_read_once_and_whole(client, match, terminated):
    """A move's body, read straight from the server's input: the move lands."""
    import io

    body = b'{"move": {"type": "bid", "card": 2}, "expected_version": 1}'
    r = client.post(f"/v1/matches/{match['id']}/moves", input_stream=io.BytesIO(body),
                    content_type="application/json",
                    headers=auth(t(match, 1)),
                    environ_overrides={"wsgi.input_terminated": True} if terminated else {})
    assert r.status_code == 200, r.json
    assert r.json["version"] == 2


@pytest.mark.parametrize("length", ["\xb2", "12a", "-5", ""], ids=["superscript", "letters",
                                                                  "negative", "empty"])
def test_a_content_length_that_is_not_a_number(client, match, length):
    """A Content-Length that is no plain number ("²" counts as a digit to str.isdigit but
    not to int) goes to werkzeug, which ignores it: a 4xx problem, never a 500."""
    import io

    before = snapshot(client, match["id"])
    r = client.post(f"/v1/matches/{match['id']}/moves", input_stream=io.BytesIO(b'{"move": 1}'),
                    content_type="application/json", headers=auth(t(match, 1)),
                    environ_overrides={"CONTENT_LENGTH": length})
    assert 400 <= r.status_code < 500 and r.mimetype == "application/problem+json", r.data
    assert snapshot(client, match["id"]) == before
