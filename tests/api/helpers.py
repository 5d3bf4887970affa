"""Small helpers for API tests."""

from __future__ import annotations

import time


def auth(token: str) -> dict:
    """The Authorization header of a seat token."""
    return {"Authorization": f"Bearer {token}"}


def create(client, game="gops", seats=("remote", "remote"), **body):
    """Create a match through the API; returns the response JSON."""
    response = client.post("/v1/matches", json={"game": game, "seats": list(seats), **body})
    assert response.status_code == 201, response.json
    return response.json


def wait_until(predicate, timeout=10.0, interval=0.02):
    """Poll until predicate() is truthy; return its value or fail."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError("condition not met in time")


def play_out(client, match_id, tokens: dict, pick=lambda moves: moves[0]):
    """Play every remote seat with `pick` until the match ends; returns the final match."""
    while True:
        progressed = False
        for seat, token in tokens.items():
            prompt = client.get(f"/v1/matches/{match_id}/prompt?wait=2", headers=auth(token)).json
            if prompt["status"] != "active":
                return client.get(f"/v1/matches/{match_id}").json
            if prompt["must_act"]:
                response = client.post(f"/v1/matches/{match_id}/moves",
                                       json={"move": pick(prompt["legal_moves"])},
                                       headers=auth(token))
                assert response.status_code == 200, response.json
                progressed = True
        if not progressed and not tokens:
            match = client.get(f"/v1/matches/{match_id}").json
            if match["status"] != "active":
                return match
            time.sleep(0.02)
