"""A tournament's standings are its finished matches' results folded in creation order
(arena/ratings.py). GET /v1/tournaments/{id} no longer reads every finished match nor folds
them all: results are noted as matches finish, and the fold of the finished run from the
first match is kept. Whatever order the matches finish in, the standings must be exactly
the fold from scratch."""

from __future__ import annotations

import random

from arena.offline import offline_arena, run_to_end
from arena.ratings import fold, standings


def _from_scratch(tours, tid: str) -> list[dict]:
    done = tours.redis.smembers(tours._key(tid, "done"))
    results = [tours.result_of(m) for m in tours.match_ids(tid) if m in done]
    return standings(fold([r for r in results if r]))


def _names_dropped(rows: list[dict]) -> list[dict]:
    return [{k: v for k, v in row.items() if k != "name"} for row in rows]


def test_standings_equal_the_fold_from_scratch_whatever_the_finishing_order():
    arena = offline_arena()
    tours = arena.tournaments
    tour = tours.create({"game": "dschunke", "players": 3, "seeds_per_table": 2, "seed": 8,
                         "entrants": ["builtin:random"] * 4})
    ids = tours.match_ids(tour["id"])
    order = ids[:]
    random.Random(3).shuffle(order)
    order = ids[:3] + [m for m in order if m not in ids[:3]]   # a finished run, then any
    kept_upto = []
    for match_id in order:
        run_to_end(arena, match_id)
        got = tours.get(tour["id"])
        assert _names_dropped(got["standings"]) == _from_scratch(tours, tour["id"])
        kept = tours._kept_fold(tour["id"], ids, len(ids))
        kept_upto.append(kept["upto"] if kept else 0)
    assert got["status"] == "finished" and got["progress"]["finished"] == len(ids) == 24
    assert kept_upto[-1] == 24 and kept_upto == sorted(kept_upto)   # the run only grows
    assert kept_upto[2] >= 1


def test_a_kept_fold_of_other_matches_is_not_used():
    """Matches dropped from the list (a replay replaces an aborted one) or a fold ahead of
    the finished run: the kept fold is ignored and the table folded from the start; a result
    not noted (a match finished before results were kept) is read from the match."""
    arena = offline_arena()
    tours = arena.tournaments
    tour = tours.create({"game": "dschunke", "players": 3, "seeds_per_table": 1, "seed": 2,
                         "entrants": ["builtin:random"] * 4})
    tid, ids = tour["id"], tours.match_ids(tour["id"])
    for match_id in ids:
        run_to_end(arena, match_id)
    done = set(ids)
    full = tours._table(tid, ids, done)
    assert tours._kept_fold(tid, ids, len(ids))["upto"] == len(ids)
    fewer = ids[1:]
    assert tours._kept_fold(tid, fewer, len(fewer)) is None
    expected = fold([r for r in (tours.result_of(m) for m in fewer) if r])
    assert tours._table(tid, fewer, set(fewer)) == expected
    assert tours._kept_fold(tid, ids, 3) is None   # kept beyond the finished run given
    tours.redis.hdel(tours._key(tid, "results"), ids[-1])
    tours.redis.delete(tours._key(tid, "fold"))
    assert tours._table(tid, ids, done) == full
