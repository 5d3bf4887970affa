"""Bot versions (issue 43): a new build or URL registered under a bot is version n+1; its
matches name it; the leaderboard shows the current version and keeps the old one as
history; its rating starts from the previous version's (sigma inflated) or fresh."""

from __future__ import annotations

import pytest

from arena.ratings import MODEL, fold, inflated
from tests.api.helpers import wait_until
from tests.arena.helpers import arena_match, finished, register
from tests.support.bots import BotServer


def _result(entrants, ranks, carry=None):
    return {"match": "m", "entrants": entrants, "ranks": ranks, "scores": [0, 0],
            "failed": [], **({"carry": carry} if carry else {})}


def test_inflate_starts_from_the_previous_mu_and_fresh_from_the_default():
    """v1 wins 5; v2's first result with carry starts at v1's mu and sqrt(s^2 + (s0/2)^2)
    (at most s0); without carry at the default (25, 8.333)."""
    before = fold([_result(["v1", "r"], [1, 2])] * 5)
    mu, sigma = before["v1"]["mu"], before["v1"]["sigma"]
    assert inflated(sigma, MODEL.sigma) == pytest.approx(
        min(MODEL.sigma, (sigma ** 2 + (MODEL.sigma / 2) ** 2) ** 0.5))
    assert sigma < inflated(sigma, MODEL.sigma) <= MODEL.sigma
    carried = fold([_result(["v1", "r"], [1, 2])] * 5 + [_result(["v2", "r"], [2, 1],
                                                                  {"v2": "v1"})])
    fresh = fold([_result(["v1", "r"], [1, 2])] * 5 + [_result(["v2", "r"], [2, 1])])
    assert carried["v2"]["mu"] > fresh["v2"]["mu"]             # started at v1's ~30, not 25
    assert carried["v2"]["mu"] < mu and carried["v1"] == before["v1"]   # v1 kept


@pytest.fixture
def bot():
    server = BotServer("good", "versioned")
    yield server
    server.stop()


def test_a_new_build_is_version_two_and_the_board_shows_it(client, bot):
    v1 = register(client, bot)
    for seed in (1, 2, 3):
        finished(client, arena_match(client, [f"bot:{v1}", "builtin:random"], seed=seed)["id"])
    r = client.post(f"/v1/bots/{v1}/versions", json={"build": "v2 build 77"})
    assert r.status_code == 201, r.json
    v2, bot.secret = r.json["id"], r.json["secret"]
    assert (r.json["version"], r.json["family"], r.json["previous"], r.json["build"],
            r.json["rating_carry"]) == (2, v1, v1, "v2 build 77", "inflate")
    listing = client.get(f"/v1/bots/{v1}/versions").json
    assert listing["current"] == v2 and [v["version"] for v in listing["versions"]] == [1, 2]
    assert client.get(f"/v1/bots/{v2}/versions").json == listing
    taken = client.post("/v1/bots", json={"url": bot.url, "games": ["gops"]})
    assert taken.status_code == 409 and taken.json["details"]["bot"] == v2
    match = finished(client, arena_match(client, [f"bot:{v2}", "builtin:random"], seed=4)["id"])
    assert match["status"] == "over" and f"bot:{v2}" in str(match)
    board = wait_until(lambda: (b := client.get("/v1/leaderboards/gops").json)
                       ["status"]["applied_through"] >= 4 and b, timeout=30)
    rows = {row["entrant"]: row for row in board["standings"]}
    assert (rows[v1]["version"], rows[v1]["superseded_by"]) == (1, v2)
    assert (rows[v2]["version"], rows[v2]["superseded_by"], rows[v2]["matches"]) == (2, None, 1)
    arena = client.application.extensions["referee"].extensions["arena"]
    applied = arena.leaderboards.applied_results("gops")
    assert applied[-1]["carry"] == {v2: v1} and "carry" not in applied[0]
    assert arena.leaderboards.recompute("gops") == arena.leaderboards.table("gops")
    page = client.get("/leaderboards/gops").get_data(as_text=True)
    assert v1 in page.split('id="earlier"', 1)[1] and v2 not in page.split('id="earlier"', 1)[1]


def test_a_fresh_version_carries_nothing_and_a_bad_carry_is_refused(client, bot):
    v1 = register(client, bot)
    r = client.post(f"/v1/bots/{v1}/versions", json={"rating_carry": "fresh"})
    assert r.status_code == 201 and r.json["rating_carry"] == "fresh"
    assert client.post(f"/v1/bots/{v1}/versions", json={"rating_carry": "x"}).status_code == 422
    arena = client.application.extensions["referee"].extensions["arena"]
    from arena.botversions import BotVersions
    assert BotVersions(arena.bots).carry_of([r.json["id"], "builtin:random"]) == {}
