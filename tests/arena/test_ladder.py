"""The ladder's matchmaker (issue 43): games per entrant equal +-1 at every moment, nobody
starved, and the queue visible in the API and on the tournament page."""

from __future__ import annotations

import pytest

from arena.ladder import next_table, queue, spread
from referee.core.rng import Rng
from tests.api.helpers import wait_until
from tests.conftest import built_app, organiser_client


def test_the_queue_by_hand():
    """Fewest games first, then the one seated longest ago; ties share a place."""
    rows = queue(list("abcd"), [["a", "b"], ["c", "a"]], running={1})
    assert [(r["entrant"], r["games"], r["running"], r["last"], r["place"]) for r in rows] == [
        ("d", 0, 0, None, 1), ("b", 1, 0, 0, 2), ("c", 1, 1, 1, 3), ("a", 2, 1, 1, 4)]
    assert sorted(next_table(rows, 2, Rng(1))) == ["b", "d"]
    assert [r["place"] for r in queue(list("abc"), [], set())] == [1, 1, 1]


def test_nine_entrants_stay_within_one_game_at_every_step():
    """1,000 tables of 2 (and of 4) drawn from 9 entrants: after every table the spread of
    games is at most 1 and nobody waits more than ceil(9 / players) tables."""
    for players in (2, 4):
        seatings, waits = [], {e: 0 for e in "abcdefghi"}
        for index in range(1000):
            rows = queue(list("abcdefghi"), seatings, set())
            assert spread(rows) <= 1, (players, index)
            seats = next_table(rows, players, Rng(7, "ladder", index))
            seatings.append(seats)
            for e in waits:
                waits[e] = 0 if e in seats else waits[e] + 1
                assert waits[e] <= -(-9 // players), (players, index, e)


@pytest.fixture
def client(needs_real_redis):
    """The organiser's test client of an app with two worker threads on a real Redis."""
    with built_app(needs_real_redis) as app:
        yield organiser_client(app)


def test_a_ladder_of_nine_ends_with_equal_games(client):
    """9 entrants, 2-player tables, 3 at a time, 22 matches (44 seats): every entrant plays
    4 or 5 (equal +-1); the queue in the record and on the page says the same."""
    r = client.post("/v1/tournaments", json={
        "game": "gops", "format": "ladder", "entrants": ["builtin:random"] * 9, "players": 2,
        "concurrency": 3, "max_matches": 22, "options": {"cards": 3}, "seed": 11,
        "rated": False})
    assert r.status_code == 201, r.json
    assert len(r.json["ladder_queue"]) == 9
    tour = wait_until(lambda: (t := client.get(f"/v1/tournaments/{r.json['id']}").json)
                      ["status"] == "finished" and t, timeout=120)
    assert tour["progress"]["finished"] == 22
    played = sorted(row["matches"] for row in tour["standings"])
    assert len(played) == 9 and played[-1] - played[0] <= 1 and sum(played) == 44, played
    games = {row["entrant"]: row["games"] for row in tour["ladder_queue"]}
    assert games == {row["entrant"]: row["matches"] for row in tour["standings"]}
    assert all(row["running"] == 0 for row in tour["ladder_queue"])
    page = client.get(f"/tournaments/{tour['id']}").get_data(as_text=True)
    table = page.split('id="queue"', 1)[1].split("</table>", 1)[0]
    assert table.count("<tr>") == 10, table        # a header and the 9 entrants
