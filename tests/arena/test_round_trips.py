"""Redis round trips per move of a bot match run by the runner (issue 17), counted on the
socket: a count, not a time. A move of an HTTP bot costs one: its commit, which also takes the
call slot of the next bot's request (reading that bot's secret and giving back the previous
slot: arena/botslots.py `ride`; two before, the slot alone took one), builtin moves one commit
per batch (referee/service/batch.py: BATCH_MOVES moves, 32; was one a move); bot health waits
in the worker; the lease is taken and given back with one read each.

Per-match work (creating, /start, finishing) is the same for a short and a long match, so the
difference between the two, per move, is what a move costs.
"""

from __future__ import annotations

import math

import pytest

from arena import bothealth
from arena.roundtrips import RoundTrips
from referee.service import batch, runner
from tests.conftest import inline_arena, unique_name
from tests.support.bots import BotServer


@pytest.fixture
def arena(needs_real_redis, monkeypatch):
    """An arena on the real Redis whose matches finish inline; health written only at the
    end of a match or of the runner (no periodic write lands in one match but not another)."""
    monkeypatch.setattr(bothealth, "FLUSH_REQUESTS", 10**9)
    monkeypatch.setattr(bothealth, "FLUSH_SECONDS", 10.0**9)
    with inline_arena(needs_real_redis, prefix="trips") as arena:
        yield arena


def _played(arena, seats, cards: int, seed: int = 3) -> tuple[int, int]:
    """(moves, round trips) of one gops match run to its end by the runner."""
    created = arena.create_match("gops", seats, {"cards": cards}, seed, rated=False)
    with RoundTrips() as trips:
        while runner.advance(arena.service, created.meta.id):
            pass
    live = arena.service.store.live(created.meta.id)
    assert live.status == "over" and not live.forfeits
    return live.version, trips.count


def _per_move(arena, seats) -> float:
    _played(arena, seats, 2, seed=4)   # the scripts are loaded by now (a new server has none)
    short, long = _played(arena, seats, 2), _played(arena, seats, 8)
    assert long[0] > short[0]
    return (long[1] - short[1]) / (long[0] - short[0])


def test_builtin_moves_are_committed_a_batch_to_a_round_trip(arena, monkeypatch):
    """Builtin seats: one commit per BATCH_MOVES moves and nothing else per move; the
    default batch takes a whole 8-card match, so its moves cost no more than a 2-card one."""
    monkeypatch.setattr(batch, "BATCH_SECONDS", 10.0**9)   # no flush for time (a loaded box)
    seats = ["builtin:random", "builtin:random"]
    _played(arena, seats, 2, seed=4)   # the scripts are loaded by now
    short, long = _played(arena, seats, 2), _played(arena, seats, 8)
    assert batch.BATCH_MOVES == 32 and long[0] < 32
    assert long[1] == short[1]


def test_a_smaller_batch_costs_one_round_trip_per_batch(arena, monkeypatch):
    """Batches of 4: the extra round trips of a longer match are its extra commits."""
    monkeypatch.setattr(batch, "BATCH_MOVES", 4)
    monkeypatch.setattr(batch, "BATCH_SECONDS", 10.0**9)   # no flush for time (a loaded box)
    seats = ["builtin:random", "builtin:random"]
    _played(arena, seats, 2, seed=4)
    short, long = _played(arena, seats, 2), _played(arena, seats, 8)
    assert long[0] - short[0] > 8
    assert long[1] - short[1] == math.ceil(long[0] / 4) - math.ceil(short[0] / 4)


def test_an_http_bot_move_is_one_round_trip_and_health_adds_up(arena):
    """HTTP bots: the commit, with the next request's slot (and the secret, and the previous
    slot's release) riding on it; no health write per move, yet the figures count every
    request once the match is over, and no slot is left held."""
    bots = [BotServer("good", name) for name in ("alpha", "beta")]
    try:
        ids = [arena.bots.register(b.name, b.url, ["gops"], "me", ["gops"], once=False)["id"]
               for b in bots]
        assert _per_move(arena, [f"bot:{i}" for i in ids]) == 1
    finally:
        for bot in bots:
            bot.stop()
    for bot, bot_id in zip(bots, ids):
        health = arena.bots.health(bot_id)
        assert health["moves"] == sum(1 for p in bot.paths() if p in ("/move", "/start"))
        assert health["matches"] == 3 and health["latency_ms"]["samples"] == health["moves"]
        assert health["calls_in_flight"] == 0


@pytest.mark.parametrize("database", [0, 7])
def test_a_new_connections_set_up_is_counted_apart_whatever_the_database(needs_real_redis,
                                                                         database):
    """A command on a new connection is one round trip on database 0 and on any other: the
    SELECT (and redis-py's CLIENT SETINFO) that set a connection up are paid once per
    connection, and counted as a connection, so TEST_REDIS_URL may name any database."""
    import redis

    from referee.service import scripts
    url = needs_real_redis.rsplit("/", 1)[0] + f"/{database}"
    text = "return redis.call('PING')"
    with redis.Redis.from_url(url) as loader:   # loaded: no NOSCRIPT, SCRIPT LOAD, retry
        loader.script_load(text)
    client = redis.Redis.from_url(url)
    hot = scripts.hot_script(client, text)
    key = unique_name("setup")
    try:
        with RoundTrips() as trips:
            client.set(key, 1)
            hot(keys=[], args=[])
        assert (trips.count, trips.connections) == (2, 2)
        with RoundTrips() as trips:   # both connections are open now: no set-up
            client.get(key)
            hot(keys=[], args=[])
        assert (trips.count, trips.connections) == (2, 0)
    finally:
        client.delete(key)
        client.close()
