"""Helpers for arena tests."""

from __future__ import annotations

from tests.api.helpers import wait_until


def register(client, bot, games=("gops",)):
    """Register a test bot; teach it its secret so it verifies our signatures; its id."""
    r = client.post("/v1/bots", json={"name": bot.name, "url": bot.url, "games": list(games),
                                      "owner": "tests"})
    assert r.status_code == 201, r.json
    bot.secret = r.json["secret"]
    return r.json["id"]


def arena_match(client, seats, seed=1, options=None, limits=None, **extra):
    """Queue an arena match; returns the creation response JSON."""
    r = client.post("/v1/arena/matches", json={"game": "gops", "seats": seats, "seed": seed,
                                               "options": options or {"cards": 4},
                                               "limits": limits or {}, **extra})
    assert r.status_code == 201, r.json
    return r.json


def finished(client, match_id, timeout=30):
    """Wait for a match to end; returns the match."""
    return wait_until(lambda: (m := client.get(f"/v1/matches/{match_id}").json)["status"]
                      != "active" and m, timeout=timeout)
