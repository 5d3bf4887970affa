"""Arena matches on real `referee worker` processes: tournaments, the leaderboard, a ladder,
and a worker killed in the middle of a match."""

from __future__ import annotations

import json
import os
import signal
import time

import pytest

from arena.ratings import fold, standings
from tests.api.helpers import wait_until
from tests.arena.helpers import register
from tests.conftest import account_client, delete_keys, organiser_client, unique_name
from tests.support.bots import BotServer
from tests.support.http import BIN, start_process, stop_process


@pytest.fixture
def cluster(needs_real_redis):
    """An app (no worker threads) plus worker processes, all on one prefix and queue."""
    from referee.root import create_app

    prefix, queue = unique_name("arena"), unique_name("arenaq")
    env = {"REDIS_URL": needs_real_redis, "REFEREE_PREFIX": prefix, "REFEREE_QUEUE": queue,
           "REFEREE_LEASE_SECONDS": "2"}
    app = create_app({"REDIS_URL": needs_real_redis, "KEY_PREFIX": prefix, "QUEUE_NAME": queue})
    procs, bots = [], []

    class Cluster:
        client = organiser_client(app)
        service = app.extensions["referee"]

        def player(self, name):
            """A test client acting for a new player account."""
            return account_client(app, name)[0]

        def worker(self, name):
            proc = start_process([f"{BIN}/referee", "worker", "--name", f"{queue}-{name}"],
                                 env_extra=env)
            procs.append(proc)
            return proc

        def bot(self, *args, **kwargs):
            bot = BotServer(*args, **kwargs)
            bots.append(bot)
            return bot

    yield Cluster()
    for proc in procs:
        stop_process(proc)
    for bot in bots:
        bot.stop()
    delete_keys(needs_real_redis, prefix, queue)


def _entrant_records(client, tour):
    """Rating inputs rebuilt from the public API: seats, ranks, scores, failures."""
    records = []
    for match_id in tour["matches"]:
        log = client.get(f"/v1/matches/{match_id}/log").json
        entrants = [s.get("bot") or s["kind"] for s in log["seats"]]
        failed = sorted({m["seat"] for m in log["moves"] if m.get("failure")})
        records.append((log["labels"]["seq"], {"match": match_id, "entrants": entrants,
                                               "ranks": log["result"]["ranks"],
                                               "scores": log["result"]["scores"],
                                               "failed": failed}))
    return [r for _, r in sorted(records, key=lambda item: item[0])]


def test_round_robin_tournament_end_to_end(cluster):
    """12 matches over two worker processes; standings and the leaderboard agree with
    ratings recomputed from the published results. Each bot is a different player's (one
    account filling several seats would leave the matches unrated), the organiser runs it."""
    cluster.worker("a"), cluster.worker("b")
    ids = [register(cluster.player(f"p{i}"), cluster.bot("good", f"bot{i}")) for i in range(3)]
    r = cluster.client.post("/v1/tournaments", json={
        "game": "gops", "entrants": ids + ["builtin:random"], "players": 3,
        "seeds_per_table": 1, "seed": 99, "options": {"cards": 4}})
    assert r.status_code == 201, r.json
    tid = r.json["id"]
    assert r.json["progress"]["total"] == 12
    tour = wait_until(lambda: (t := cluster.client.get(f"/v1/tournaments/{tid}").json)
                      ["status"] == "finished" and t, timeout=60)
    assert tour["progress"] == {"matches": 12, "finished": 12, "total": 12}
    # duplicate format: each table is played in all 3 rotations on one seed
    logs = [cluster.client.get(f"/v1/matches/{m}/log").json for m in tour["matches"]]
    assert len({(lg["labels"]["table"], lg["seed"]) for lg in logs}) == 4
    assert {lg["labels"]["rotation"] for lg in logs} == {0, 1, 2}
    records = _entrant_records(cluster.client, tour)
    expected = standings(fold(records))
    FOLDED = set(expected[0])
    board = wait_until(lambda: (b := cluster.client.get("/v1/leaderboards/gops").json)
                       ["status"]["applied_through"] == 12 and b)
    # the fold's fields of each row; boards and tournaments add their own (names, intervals,
    # provisional, the batch fit, versions)
    strip = lambda rows: [{k: v for k, v in row.items() if k in FOLDED} for row in rows]  # noqa: E731
    assert strip(board["standings"]) == expected
    assert {row["matches"] for row in board["standings"]} == {9}
    assert strip(tour["standings"]) == standings(fold([r for r in sorted(
        records, key=lambda r: tour["matches"].index(r["match"]))]))
    arena = cluster.service.extensions["arena"]
    assert arena.leaderboards.recompute("gops") == arena.leaderboards.table("gops")


def test_ladder_evens_out_matches(cluster):
    """The matchmaker seats whoever has played least, until max_matches."""
    cluster.worker("a")
    ids = [register(cluster.client, cluster.bot("good", f"l{i}")) for i in range(4)]
    r = cluster.client.post("/v1/tournaments", json={
        "game": "gops", "entrants": ids, "format": "ladder", "players": 2, "concurrency": 2,
        "max_matches": 10, "seed": 5, "options": {"cards": 2}})
    tid = r.json["id"]
    tour = wait_until(lambda: (t := cluster.client.get(f"/v1/tournaments/{tid}").json)
                      ["status"] == "finished" and t, timeout=60)
    assert tour["progress"]["finished"] == 10
    counts = [row["matches"] for row in tour["standings"]]
    assert sorted(counts) == [5, 5, 5, 5]


def test_a_worker_killed_mid_match_is_resumed_to_the_same_result(cluster):
    """SIGKILL the worker playing a match; another resumes it from the stored log, and the
    result is the one an uninterrupted run of the same seed gives."""
    bots = [cluster.bot("good", f"k{i}", delay=0.03) for i in range(3)]
    ids = [register(cluster.client, b) for b in bots]
    seats = [f"bot:{i}" for i in ids]
    body = {"game": "gops", "seats": seats, "seed": 2024, "options": {"cards": 8},
            "limits": {"move_ms": 300, "bank_ms": 700, "start_ms": 500}}  # lease: 2 s + 1.5 s
    first = cluster.worker("first")
    match_id = cluster.client.post("/v1/arena/matches", json=body).json["id"]
    service = cluster.service
    wait_until(lambda: service.store.live(match_id).version >= 6, timeout=30)
    holder = service.store.redis.get(service.store.key(match_id, "runner"))
    assert holder and holder.split(":")[1] == str(first.pid)
    os.kill(first.pid, signal.SIGKILL)
    first.wait(10)
    stopped_at = service.store.live(match_id).version
    cluster.worker("second")
    live = wait_until(lambda: (lv := service.store.live(match_id)).status == "over" and lv,
                      timeout=60)
    assert live.version > stopped_at
    reference_id = cluster.client.post("/v1/arena/matches", json=body).json["id"]
    reference = wait_until(lambda: (lv := service.store.live(reference_id)).status == "over"
                           and lv, timeout=60)
    assert live.result == reference.result
    moves = lambda mid: [(m["seat"], json.dumps(m["move"], sort_keys=True))  # noqa: E731
                         for m in service.store.log(mid)]
    assert moves(match_id) == moves(reference_id)
    assert live.result["termination"] == "rules"  # a dead worker is never blamed on a bot
    assert not any(m.get("failure") for m in service.store.log(match_id))
    time.sleep(0.1)
