"""Hostile input answers 4xx (or 503 when the store is down), never 500 (issue 12)."""

from __future__ import annotations

from tests.conftest import organiser_client

import json

import pytest

from tests.support.http import free_port


def _match(client):
    r = client.post("/v1/matches", json={"game": "gops", "seats": ["remote", "remote"]})
    assert r.status_code == 201, r.json
    return r.json["id"], r.json["tokens"]["0"]


@pytest.mark.parametrize("body", [
    b"[" * 100_000 + b"]" * 100_000,                                  # nested 100,000 deep
    b'{"game": "gops", "seats": ["remote", "remote"], "seed": ' + b"9" * 5000 + b"}",
    b'{"game": "gops", "seats": ["remote", "remote"], "seed": NaN}',
    b'{"game": "gops", "game": "dschunke", "seats": ["remote", "remote"]}',
], ids=["deep", "5000-digits", "nan", "duplicate-key"])
def test_bodies_that_are_not_strict_json_are_400_malformed_json(client, body):
    r = client.post("/v1/matches", data=body, content_type="application/json")
    assert r.status_code == 400 and r.json["code"] == "request.malformed_json", r.json
    assert r.mimetype == "application/problem+json"


def test_a_move_body_nested_deep_is_refused_before_the_rules_see_it(client):
    match_id, token = _match(client)
    body = {"move": {"type": "bid", "card": 1}}
    node = body["move"]
    for _ in range(40):
        node["x"] = {}
        node = node["x"]
    r = client.post(f"/v1/matches/{match_id}/moves", data=json.dumps(body),
                    content_type="application/json", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 400 and r.json["code"] == "request.malformed_json"


def test_an_offset_beyond_any_list_is_a_422_not_a_500(client):
    r = client.get("/v1/matches", query_string={"offset": 2 ** 63})
    assert r.status_code == 422 and r.json["code"] == "request.invalid"


def test_a_wrong_method_is_405_with_allow(client):
    r = client.delete("/v1/games")
    assert r.status_code == 405 and r.json["code"] == "http.method_not_allowed"
    assert "GET" in r.headers["Allow"]


def test_the_store_down_is_503_server_unavailable_with_retry_after(app):
    """Redis stops answering under a running app: 503 server.unavailable, not 500."""
    pool = app.extensions["referee"].store.redis.connection_pool
    pool.connection_kwargs["port"] = free_port()   # nothing listens there
    pool.disconnect()
    pool.reset()                                    # connections made from now on fail
    client = organiser_client(app)
    r = client.post("/v1/matches", json={"game": "gops", "seats": ["remote", "remote"]})
    assert r.status_code == 503 and r.json["code"] == "server.unavailable"
    assert int(r.headers["Retry-After"]) > 0
    assert client.get("/v1/matches/abc").status_code == 503
