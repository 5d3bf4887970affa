"""The `sprt` tournament format on the service (issue 43): pairs run on the workers over the
real Redis, the test as it stands in the tournament record, the verdict once it decides."""

from __future__ import annotations

import json

import pytest

from tests.api.helpers import wait_until
from tests.arena.helpers import register
from tests.conftest import built_app, organiser_client
from tests.support.bots import BotServer


@pytest.fixture
def served(needs_real_redis):
    """An app with two worker threads on a real Redis, acting as the organiser."""
    with built_app(needs_real_redis) as app:
        yield app, organiser_client(app)


def _finished(client, tid):
    return wait_until(lambda: (t := client.get(f"/v1/tournaments/{tid}").json)
                      ["status"] == "finished" and t, timeout=120)


def _giver(request: dict):
    """A legal but hopeless bot: bids its highest card, then gives every prize it wins away."""
    moves = request["legal_moves"]
    gives = [m for m in moves if m["type"] == "give"]
    move = gives[0] if gives else max(moves, key=lambda m: m.get("card", 0))
    return 200, json.dumps({"move": move}).encode()


def test_a_hopeless_baseline_is_beaten_until_the_test_accepts(served):
    """builtin:random against a bot that gives away every prize it wins: the pairs go to the
    candidate and H1 (elo1 50) is accepted well inside the budget; both matches of a pair share
    the deal and the focus seat."""
    app, client = served
    crash = BotServer(_giver, name="giver")
    try:
        baseline = register(client, crash)
        r = client.post("/v1/tournaments", json={
            "game": "gops", "format": "sprt", "entrants": ["builtin:random", baseline],
            "opponents": ["builtin:random"], "players": 2, "options": {"cards": 6}, "seed": 1,
            "sprt": {"elo0": 0, "elo1": 50}, "max_matches": 200, "concurrency": 2})
        assert r.status_code == 201, r.json
        tour = _finished(client, r.json["id"])
    finally:
        crash.stop()
    state = tour["sprt_state"]
    assert state["result"] == "accepted", state
    assert state["wins"] > 3 * state["losses"] and state["llr"] >= state["bounds"][1]
    assert tour["rated"] is False and tour["progress"]["matches"] < 200
    assert tour["progress"]["matches"] >= 2 * state["pairs"]
    service = app.extensions["referee"]
    first, second = (service.store.meta(m) for m in tour["matches"][:2])
    assert first.seed == second.seed and first.labels["pair"] == second.labels["pair"] == 0
    assert first.labels["entrants"] == ["builtin:random", "builtin:random"]
    assert second.labels["entrants"] == [baseline, "builtin:random"]
    page = client.get(f"/tournaments/{tour['id']}").get_data(as_text=True)
    assert "<b>accepted</b>: builtin:random is better (H1, elo &ge; 50.0)" in page
    assert f"{state['pairs']} pairs scored, W-D-L {state['wins']}-{state['draws']}-" in page


def test_identical_bots_end_inconclusive_at_the_budget(served):
    """builtin:random against itself: the same deal played the same way, every pair a draw;
    8 matches spent, no verdict but inconclusive."""
    _, client = served
    r = client.post("/v1/tournaments", json={
        "game": "gops", "format": "sprt", "entrants": ["builtin:random", "builtin:random"],
        "players": 3, "options": {"cards": 3}, "max_matches": 8, "seed": 4})
    assert r.status_code == 201, r.json
    tour = _finished(client, r.json["id"])
    state = tour["sprt_state"]
    assert (state["result"], state["pairs"], state["draws"]) == ("inconclusive", 4, 4), state
    assert tour["progress"] == {"matches": 8, "finished": 8, "total": 8}


def test_an_sprt_takes_two_entrants_and_sound_hypotheses(served):
    """Three entrants, elo0 above elo1, or the wrong number of opponents: 422."""
    _, client = served
    base = {"game": "gops", "format": "sprt", "players": 2, "options": {"cards": 3}}
    for extra in ({"entrants": ["builtin:random"] * 3},
                  {"entrants": ["builtin:random"] * 2, "sprt": {"elo0": 5, "elo1": 0}},
                  {"entrants": ["builtin:random"] * 2, "opponents": ["builtin:random"] * 2}):
        r = client.post("/v1/tournaments", json={**base, **extra})
        assert r.status_code == 422 and r.json["code"] == "tournament.invalid", r.json
