"""The `swiss` tournament format (issue 43): 9 entrants, rounds seated by points, byes spread
so games played differ by one at most, on the workers over the real Redis."""

from __future__ import annotations

import pytest

from arena.swiss import match_points, plan_round, tally
from referee.core.rng import Rng
from tests.api.helpers import wait_until
from tests.conftest import built_app, organiser_client


def test_points_byes_and_pairings_by_hand():
    """Rank r of n gives (n - r)/(n - 1); the bye goes to the fewest byes, lowest points; two
    entrants who met are not paired again while another is free."""
    assert match_points([1, 2, 3]) == [1.0, 0.5, 0.0] and match_points([1, 1]) == [1.0, 1.0]
    entrants = list("abcde")
    played = [{"entrants": ["a", "b"], "ranks": [1, 2]}, {"entrants": ["c", "d"], "ranks": [1, 2]}]
    table = tally(entrants, played, {"e": 1})
    assert (table["a"]["points"], table["e"]["points"], table["e"]["byes"]) == (1.0, 0.5, 1)
    tables, byes = plan_round(entrants, 2, table, Rng(1), 1)
    assert byes in (["b"], ["d"])                    # no bye yet, fewest points
    met = {frozenset(("a", "b")), frozenset(("c", "d"))}
    assert not any(frozenset(t) in met for t in tables), tables


@pytest.fixture
def client(needs_real_redis):
    """The organiser's test client of an app with two worker threads on a real Redis."""
    with built_app(needs_real_redis) as app:
        yield organiser_client(app)


def test_a_swiss_for_nine_bots_evens_out_games(client):
    """9 entrants at 2-player tables, 5 rounds (the default): 4 tables a round (20 matches),
    one bye a round, to 5 different entrants, so each plays 4 or 5 matches (equal +-1)."""
    r = client.post("/v1/tournaments", json={
        "game": "gops", "format": "swiss", "entrants": ["builtin:random"] * 9, "players": 2,
        "options": {"cards": 3}, "seed": 3})
    assert r.status_code == 201, r.json
    tour = wait_until(lambda: (t := client.get(f"/v1/tournaments/{r.json['id']}").json)
                      ["status"] == "finished" and t, timeout=120)
    assert (tour["rounds"], tour["round"], tour["progress"]["finished"]) == (5, 5, 20)
    rows = tour["swiss_standings"]
    assert len(rows) == 9 and {row["matches"] for row in rows} <= {4, 5}
    assert sorted(row["byes"] for row in rows) == [0] * 4 + [1] * 5
    assert all(row["matches"] + row["byes"] == 5 for row in rows)
    assert [row["points"] for row in rows] == sorted((row["points"] for row in rows),
                                                     reverse=True)
    page = client.get(f"/tournaments/{tour['id']}")
    assert page.status_code == 200


def test_three_player_tables_and_too_large_a_swiss(client):
    """9 entrants at 3-player tables: 3 tables a round, no byes; 64 rounds of 30 entrants at
    2-player tables is over the service's match ceiling (500): 413 tournament.too_large."""
    r = client.post("/v1/tournaments", json={
        "game": "gops", "format": "swiss", "entrants": ["builtin:random"] * 9, "players": 3,
        "options": {"cards": 3}, "rounds": 2})
    tour = wait_until(lambda: (t := client.get(f"/v1/tournaments/{r.json['id']}").json)
                      ["status"] == "finished" and t, timeout=120)
    assert tour["progress"]["finished"] == 6
    assert all(row["matches"] == 2 and row["byes"] == 0 for row in tour["swiss_standings"])
    big = client.post("/v1/tournaments", json={
        "game": "gops", "format": "swiss", "entrants": ["builtin:random"] * 30,
        "players": 2, "options": {"cards": 3}, "rounds": 64})
    assert big.status_code in (413, 422) and big.json["code"].startswith("tournament."), big.json
