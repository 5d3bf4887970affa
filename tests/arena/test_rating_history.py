"""The leaderboard page's ratings over time: kept per process and extended by the results
applied since the last view (each view folded every rated result ever, ~0.1 ms each, so a
game with 10,000 rated matches cost a second of CPU per anonymous page view)."""

from __future__ import annotations

import random
import uuid

import pytest
import redis

from arena import leaderboard, ratings
from arena.leaderboard import Leaderboards


def _from_scratch(results: list[dict]) -> dict:
    """Each entrant's ordinal after each of its matches, folding from the first result."""
    table, series = {}, {}
    for index, result in enumerate(results, 1):
        ratings.apply(table, result)
        for entrant in result["entrants"]:
            row = table[entrant]
            series.setdefault(entrant, []).append((index, row["mu"] - 3 * row["sigma"]))
    return series


def _results(count: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    made = []
    for i in range(count):
        entrants = rng.sample([f"b{k}" for k in range(5)], 3)
        ranks = rng.sample([1, 2, 3], 3)
        made.append({"match": f"m{seed}-{i}", "entrants": entrants, "ranks": ranks,
                     "scores": [10 - r for r in ranks], "failed": []})
    return made


@pytest.fixture
def boards(needs_real_redis):
    client = redis.Redis.from_url(needs_real_redis, decode_responses=True)
    prefix = f"test-lb-{uuid.uuid4().hex[:8]}"
    yield Leaderboards(client, prefix)
    keys = list(client.scan_iter(f"{prefix}:*"))
    if keys:
        client.delete(*keys)


def _apply(boards, results) -> None:
    for result in results:
        seq = boards.next_seq("g")
        boards.finished("g", seq, result)
    boards.catch_up("g")


def test_the_history_is_the_fold_from_the_first_result_however_often_it_is_read(boards):
    results = _results(90, 1)
    _apply(boards, results[:30])
    assert boards.history("g") == _from_scratch(results[:30])
    assert boards.history("g") == _from_scratch(results[:30])   # nothing new
    _apply(boards, results[30:])
    assert boards.history("g") == _from_scratch(results)
    assert boards.applied_results("g", 85) == results[85:]
    other = Leaderboards(boards.redis, boards.prefix)   # another process, read cold
    assert other.history("g") == boards.history("g")


def test_a_long_history_keeps_a_bounded_number_of_points(boards, monkeypatch):
    """Past 2 x HISTORY_POINTS points an entrant's series drops every other one, keeping
    its first and last: the plot keeps its shape, memory and page size stay bounded."""
    monkeypatch.setattr(leaderboard, "HISTORY_POINTS", 5)
    results = _results(120, 2)
    _apply(boards, results[:60])
    boards.history("g")
    _apply(boards, results[60:])
    got, full = boards.history("g"), _from_scratch(results)
    assert set(got) == set(full)
    for entrant, points in got.items():
        assert 5 <= len(points) < 10
        assert points[0] == full[entrant][0] and points[-1] == full[entrant][-1]
        assert set(points) <= set(full[entrant])
