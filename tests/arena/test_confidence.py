"""Leaderboards with confidence (issue 43): intervals from sigma, a minimum-games threshold,
and a batch Plackett-Luce fit (MM) over all matches next to the live rating."""

from __future__ import annotations

import math
import random

import pytest

from arena.confidence import MIN_GAMES, annotate, batch_elo, plackett_luce, stages
from arena.ratings import fold, standings
from tests.conftest import built_app, organiser_client


def _result(entrants, ranks, match="m"):
    return {"match": match, "entrants": list(entrants), "ranks": list(ranks),
            "scores": [0] * len(ranks), "failed": []}


def test_stages_of_a_ranking_and_of_a_tie():
    assert stages(_result("abc", [2, 1, 3])) == [(["b"], ["b", "a", "c"]), (["a"], ["a", "c"])]
    assert stages(_result("abc", [1, 1, 3])) == [(["a", "b"], ["a", "b", "c"])]
    assert stages(_result("ab", [1, 1])) == [(["a", "b"], ["a", "b"])]


def test_two_entrants_by_hand():
    """a beats b 3 times of 4, no prior: the Bradley-Terry MLE is gamma_a / gamma_b = 3,
    400 log10 3 = 190.8 Elo apart, centred: +-95.4."""
    results = [_result("ab", [1, 2])] * 3 + [_result("ab", [2, 1])]
    gamma = plackett_luce(results, prior=0)
    assert gamma["a"] / gamma["b"] == pytest.approx(3, rel=1e-6)
    assert batch_elo(results, prior=0) == {"a": 95.4, "b": -95.4}


def test_the_prior_keeps_an_unbeaten_entrant_finite_by_hand():
    """One match, a beats b, prior 1: a has 2 wins, b 1 (a virtual one each); the fixed
    point gamma_a = 2 / (2/(ga+1) + 1/(ga+gb)), gamma_b = 1 / (2/(gb+1) + 1/(ga+gb)) holds."""
    g = plackett_luce([_result("ab", [1, 2])], prior=1)
    ga, gb = g["a"], g["b"]
    assert ga == pytest.approx(2 / (2 / (ga + 1) + 1 / (ga + gb)), rel=1e-6)
    assert gb == pytest.approx(1 / (2 / (gb + 1) + 1 / (ga + gb)), rel=1e-6)
    assert math.isfinite(ga) and ga > 1 > gb > 0


def test_a_cycle_is_even_and_a_dominant_bot_ranks_first():
    cycle = [_result("abc", r) for r in ([1, 2, 3], [3, 1, 2], [2, 3, 1])]
    assert set(batch_elo(cycle).values()) == {0.0}
    rng, results = random.Random(4), []
    for i in range(200):
        seats = rng.sample("ABCDE", 3)
        ranks = rng.sample([2, 3], 2)
        order = [1 if s == "A" else ranks.pop() for s in seats] if "A" in seats else \
            rng.sample([1, 2, 3], 3)
        results.append(_result(seats, order, f"m{i}"))
    elo = batch_elo(results)
    assert max(elo, key=elo.get) == "A" and elo["A"] > 200
    rows = standings(fold(results))
    annotate(rows, elo)
    top = next(r for r in rows if r["entrant"] == "A")
    assert top["batch_place"] == 1 and top["ranked_place"] == 1 == top["place"]
    assert top["interval"][0] < top["mu"] < top["interval"][1]
    assert top["interval"][1] - top["interval"][0] == pytest.approx(4 * top["sigma"], abs=2e-3)


def test_below_the_threshold_an_entrant_is_provisional():
    results = [_result("ab", [1, 2], f"m{i}") for i in range(MIN_GAMES)] + \
        [_result("ac", [1, 2], "x")]
    rows = standings(fold(results))
    annotate(rows, batch_elo(results))
    by = {r["entrant"]: r for r in rows}
    assert (by["a"]["provisional"], by["b"]["provisional"], by["c"]["provisional"]) == \
        (False, False, True)
    assert (by["a"]["ranked_place"], by["b"]["ranked_place"], by["c"]["ranked_place"]) == \
        (1, 2, None)


@pytest.fixture
def client(needs_real_redis):
    with built_app(needs_real_redis, INLINE_WORKERS=0) as app:
        yield app, organiser_client(app)


def test_the_api_and_page_show_intervals_batch_and_provisional(client):
    app, http = client
    boards = app.extensions["referee"].extensions["arena"].leaderboards
    results = [_result(["builtin:x", "builtin:y"], [1, 2], f"m{i}") for i in range(MIN_GAMES)]
    results += [_result(["builtin:x", "builtin:z"], [2, 1], "late")]
    for result in results:
        boards.finished("gops", boards.next_seq("gops"), result)
    body = http.get("/v1/leaderboards/gops").json
    assert body["min_games"] == MIN_GAMES
    by = {r["entrant"]: r for r in body["standings"]}
    assert by["builtin:z"]["provisional"] and not by["builtin:x"]["provisional"]
    assert by["builtin:x"]["batch_place"] == 2 and by["builtin:z"]["batch_place"] == 1
    assert by["builtin:x"]["batch_elo"] == batch_elo(results)["builtin:x"]
    page = http.get("/leaderboards/gops").get_data(as_text=True)
    main, apart = page.split('id="ranked"', 1)[1].split('id="provisional"', 1)
    assert "builtin:y" in main and "builtin:z" in apart and "builtin:z" not in main
