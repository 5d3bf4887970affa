"""Quotas and ceilings (issue 12): unfinished matches per key and per address (429
quota.active_matches), tournament and ladder sizes (422 tournament.too_large), and the issue's
floods against the shipped defaults."""

from __future__ import annotations

import os

import pytest

from tests.api.helpers import auth, create, wait_until
from tests.api.limits_helpers import MATCH, assert_limited
from tests.conftest import unique_name


def test_the_active_match_ceiling(make_app):
    """MAX_ACTIVE_MATCHES unfinished matches per address: the next creation (a match, an
    arena match) is 429 quota.active_matches; once one ends, creating works again."""
    app = make_app(MAX_ACTIVE_MATCHES=2)
    client = app.test_client()
    first = create(client)
    create(client)
    assert_limited(client.post("/v1/matches", json=MATCH), "quota.active_matches")
    assert_limited(client.post("/v1/arena/matches", json={
        "game": "gops", "seats": ["builtin:random"] * 2}), "quota.active_matches")
    for seat, token in first["tokens"].items():
        client.post(f"/v1/matches/{first['id']}/resign", headers=auth(token))
    wait_until(lambda: client.get(f"/v1/matches/{first['id']}").json["status"] == "over")
    assert client.post("/v1/matches", json=MATCH).status_code == 201


def test_the_ceiling_counts_per_key_too(make_app):
    """A key's matches count against that key: another token is not refused for them (the
    address ceiling is a separate, equal count, so it is exercised only by tokenless calls)."""
    app = make_app(MAX_ACTIVE_MATCHES=1)
    client = app.test_client()
    quotas = app.extensions["referee"].extensions["limits"]
    assert client.post("/v1/matches", json=MATCH, headers=auth("k1")).status_code == 201
    assert quotas.count("addr:127.0.0.1") == 1
    assert_limited(client.post("/v1/matches", json=MATCH, headers=auth("k2")),
                   "quota.active_matches")  # the address has its one
    store = app.extensions["referee"].store
    assert len(store.redis.keys(f"{store.prefix}:active:key:*")) == 1


def test_a_tournament_counts_every_match_it_created(make_app):
    """A round robin's matches all count against its creator's ceiling (no worker threads
    here, so its builtin-only matches stay unfinished)."""
    client = make_app(MAX_ACTIVE_MATCHES=3, EMBEDDED_WORKERS=0).test_client()
    r = client.post("/v1/tournaments", json={"game": "gops", "entrants": ["builtin:random"] * 2,
                                             "seeds_per_table": 2})
    assert r.status_code == 201, r.json
    assert_limited(client.post("/v1/matches", json=MATCH), "quota.active_matches")


@pytest.mark.parametrize("body,setting", [
    ({"format": "round_robin", "entrants": ["builtin:random"] * 4, "players": 2,
      "seeds_per_table": 2}, {"TOURNAMENT_MAX_MATCHES": 10}),  # 6 tables x 2 x 2 seeds = 24
    ({"format": "ladder", "entrants": ["builtin:random"] * 2, "max_matches": 11},
     {"LADDER_MAX_MATCHES": 10}),
])
def test_tournament_ceilings(make_app, body, setting):
    """A round robin planning more matches than the setting, a ladder asking for more: 422
    tournament.too_large, and no match is created."""
    app = make_app(**setting)
    client = app.test_client()
    r = client.post("/v1/tournaments", json={"game": "gops", **body})
    assert r.status_code == 422 and r.json["code"] == "tournament.too_large", r.json
    assert client.get("/v1/matches").json["total"] == 0


def test_the_issues_floods_meet_the_product_defaults(monkeypatch):
    """Issue 12's rows with the shipped defaults: one client (here the embedded default's
    local organiser) creating matches as fast as it can gets 60 a minute, then 429
    rate.limited; one request may no longer ask for a 100,000-match ladder or a 5,000-match
    round robin."""
    from referee.root import create_app, stop_app

    monkeypatch.delenv("REFEREE_RATE_LIMITS", raising=False)
    app = create_app({"REDIS_URL": None, "KEY_PREFIX": unique_name("lim"),
                      "QUEUE_NAME": unique_name("limq")})
    try:
        client = app.test_client()
        codes = [client.post("/v1/matches", json=MATCH).status_code for _ in range(80)]
        # the sliding-window counter weighs the previous minute's count by the time left in
        # it, so a burst that crosses a minute boundary may see one or two more go through
        assert codes[:60] == [201] * 60 and 60 <= codes.count(201) <= 62
        assert codes[-15:] == [429] * 15
        assert client.post("/v1/matches", json=MATCH).json["code"] == "rate.limited"
        for body in ({"format": "ladder", "entrants": ["builtin:random"] * 2,
                      "max_matches": 100_000},
                     {"format": "round_robin", "entrants": ["builtin:random"] * 12,
                      "players": 2, "seeds_per_table": 38}):  # 66 x 2 x 38 = 5,016
            r = client.post("/v1/tournaments", json={"game": "gops", **body},
                            environ_base={"REMOTE_ADDR": "192.0.2.7"},  # another address,
                            headers=auth(os.environ["REFEREE_ORGANISER_KEY"]))  # a key
            assert r.status_code == 422 and r.json["code"] == "tournament.too_large", r.json
    finally:
        stop_app(app)
