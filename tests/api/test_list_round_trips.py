"""Lists read their items together: the Redis round trips of a list request do not grow with
the items listed (one by one, GET /v1/matches?limit=100 made 200+ and took 57 ms; GET
/v1/bots?limit=200 made 1,400 and took 283 ms). Counted on the socket, not timed."""

from __future__ import annotations

import os

import pytest

from arena.benchruns import RoundTrips


@pytest.fixture
def organiser(app):
    client = app.test_client()
    client.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {os.environ['REFEREE_ORGANISER_KEY']}"
    return client


def _trips(client, path: str) -> int:
    client.get(path)   # once cold: the metas and states this process had not read
    with RoundTrips() as trips:
        assert client.get(path).status_code == 200
    return trips.count


def test_the_match_list_costs_the_same_round_trips_for_3_or_30_matches(app, organiser):
    counts = []
    for total in (3, 30):
        while organiser.get("/v1/matches").json["total"] < total:
            organiser.post("/v1/matches", json={"game": "gops", "seats": ["remote"] * 2})
        counts.append(_trips(app.test_client(), "/v1/matches?limit=100"))
    assert counts[0] == counts[1] and counts[1] <= 8, counts


def test_the_bot_list_costs_the_same_round_trips_for_2_or_20_bots(app):
    bots = app.extensions["referee"].extensions["arena"].bots
    counts = []
    for total in (2, 20):
        while bots.count() < total:
            n = bots.count()
            bots.add({"id": f"b{n:06d}", "name": f"bot{n}", "url": f"http://127.0.0.1:9/{n}",
                      "games": ["gops"], "owner": "", "registered_at": n, "secret": "x"})
        bots._cache.clear()   # as in a process that has not read them yet
        counts.append(_trips(app.test_client(), "/v1/bots?limit=200"))
    assert counts[0] == counts[1] and counts[1] <= 8, counts
