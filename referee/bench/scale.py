"""Match state on one Redis primary against the local 3-primary Redis Cluster (issue 42):
moves/s and matches/s through the README's gunicorn, and the Redis round trips one move
costs. Figures, not assertions.

For each store (`1 primary`: everything on one redis-server; `cluster`: match state on a
local Redis Cluster of 3 primaries and 3 replicas, REFEREE_STORE_URL, queues and the rest on
the single one; `cluster+WAIT`: the same, each commit acknowledged by a replica first,
REFEREE_STORE_WAIT_MS=1000), a fresh deployment (its own prefix) is started and measured twice:
- matches/s: client threads create matches (every seat remote) for `--seconds`;
- moves/s: each client thread plays its own match (a random legal move of the seat to act,
  a new match when one ends) for `--seconds`.
Then, in this process, an app on the same stores plays `--sample` moves through Flask's test
client while every request sent to Redis is counted (a pipeline or a script is one): round
trips per move (the service's own script sockets included), and Redis commands per move
summed over every node (INFO's total_commands_processed, less the INFO calls). On one machine the cluster's primaries share the same CPUs as the
API, so its moves/s shows the cost of the cluster client, not the capacity of three hosts;
docs/benchmarks.md turns the figures into hosts and primaries.

    referee bench scale [--seconds S] [--clients C] [--gunicorn-workers W] [--sample N]
                        [--game G] [--players P] [--redis-url URL]
"""

from __future__ import annotations

import argparse
import os
import random
import threading
import time
import uuid

import redis
import requests

from referee.bench import redisbench
from referee.bench.cluster import LocalCluster
from referee.bench.servers import (README_WORKERS, Server, delete_keys, gunicorn_args,
                                   service_env, start_gunicorn, stop)

BENCH_PORTS = (7300, 7399)
"""Where the benchmark's cluster listens (the tests' cluster uses 7100-7199, their Sentinel
set-up 7200-7299)."""


WAIT_MS = 1000
"""REFEREE_STORE_WAIT_MS of the third row: every commit waits for a replica (or 1 s)."""


def _create(session, base: str, key: str, game: str, players: int) -> dict:
    """A match with every seat remote: its id and seat tokens."""
    r = session.post(f"{base}/v1/matches", json={"game": game, "seats": ["remote"] * players},
                     headers={"Authorization": f"Bearer {key}"}, timeout=30)
    r.raise_for_status()
    body = r.json()
    return {"id": body["id"], "tokens": body["tokens"]}


def _play_once(session, base: str, match: dict, rng) -> str:
    """Move once for a seat that must act: 'move', 'stale' (another answer first) or 'over'."""
    for token in match["tokens"].values():
        headers = {"Authorization": f"Bearer {token}"}
        prompt = session.get(f"{base}/v1/matches/{match['id']}/prompt", headers=headers,
                             timeout=30).json()
        if prompt.get("status", "active") != "active":
            return "over"
        if prompt.get("must_act"):
            r = session.post(f"{base}/v1/matches/{match['id']}/moves", headers=headers,
                             timeout=30, json={"move": rng.choice(prompt["legal_moves"]),
                                               "expected_version": prompt["version"]})
            return "move" if r.status_code == 200 else "stale"
    return "stale"


def _threads(target, count: int, seconds: float) -> list[dict]:
    """Run `target(seed, deadline, tally)` on `count` threads; their tallies."""
    tallies = [{"move": 0, "stale": 0, "over": 0, "created": 0, "errors": 0}
               for _ in range(count)]
    deadline = time.monotonic() + seconds
    pool = [threading.Thread(target=target, args=(i, deadline, tallies[i]))
            for i in range(count)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    return tallies


def measure_http(base: str, key: str, args, cpu) -> dict:
    """matches/s (creations) and moves/s (plays) of the deployment at `base`, and the CPU
    `cpu()` (seconds by role, so far) says each move played used, its prompts included."""
    def creating(seed, deadline, tally):
        session = requests.Session()
        while time.monotonic() < deadline:
            try:
                _create(session, base, key, args.game, args.players)
                tally["created"] += 1
            except requests.RequestException:
                tally["errors"] += 1

    def playing(seed, deadline, tally):
        session, rng = requests.Session(), random.Random(seed)
        match = _create(session, base, key, args.game, args.players)
        while time.monotonic() < deadline:
            try:
                what = _play_once(session, base, match, rng)
            except (requests.RequestException, ValueError):
                what = "errors"
            tally[what] += 1
            if what == "over":
                match = _create(session, base, key, args.game, args.players)

    made = _threads(creating, args.clients, args.seconds)
    before = cpu()
    played = _threads(playing, args.clients, args.seconds)
    used = {role: seconds - before[role] for role, seconds in cpu().items()}
    total = {k: sum(t[k] for t in made + played) for k in made[0]}
    moves = max(1, sum(t["move"] for t in played))
    return {"matches_per_s": total["created"] / args.seconds,
            "moves_per_s": total["move"] / args.seconds, "finished": total["over"],
            "stale": total["stale"], "errors": total["errors"],
            **{f"{role}_us_per_move": 1e6 * seconds / moves for role, seconds in used.items()}}


def _redis_cpu(urls: list[str]) -> float:
    """CPU seconds these Redis servers have used (user and system), summed."""
    total = 0.0
    for url in urls:
        with redis.Redis.from_url(url) as client:
            info = client.info("cpu")
            total += info["used_cpu_user"] + info["used_cpu_sys"]
    return total


class _Counter:
    """Counts the requests sent to Redis: by redis-py (a command, a pipeline: one each) and by
    the service's own socket scripts (referee/service/scripts.py: a script call, one)."""

    def __init__(self):
        from referee.service import scripts

        self.sent = 0
        self._scripts = scripts
        self._originals = (redis.connection.AbstractConnection.send_packed_command,
                           scripts._send)

    def __enter__(self):
        packed, plain = self._originals

        def send_packed(connection, command, check_health=True):
            self.sent += 1
            return packed(connection, command, check_health)

        def send(sock, data):
            self.sent += 1
            return plain(sock, data)
        redis.connection.AbstractConnection.send_packed_command = send_packed
        self._scripts._send = send
        return self

    def __exit__(self, *exc):
        (redis.connection.AbstractConnection.send_packed_command,
         self._scripts._send) = self._originals


def _commands(urls: list[str]) -> int:
    """Commands processed so far by these Redis nodes, summed."""
    total = 0
    for url in urls:
        with redis.Redis.from_url(url) as client:
            total += client.info("stats")["total_commands_processed"]
    return total


def measure_round_trips(redis_url: str, store_url: str | None, wait_ms: int,
                        nodes: list[str], key: str, args) -> dict:
    """Round trips and commands per move of an in-process app on these stores."""
    from referee.root import create_app, stop_app

    prefix = f"bench-{uuid.uuid4().hex[:8]}"
    app = create_app({"REDIS_URL": redis_url, "STORE_URL": store_url, "KEY_PREFIX": prefix,
                      "QUEUE_NAME": prefix, "RATE_LIMITS": False, "STORE_WAIT_MS": wait_ms})
    client, rng = app.test_client(), random.Random(7)
    organiser = {"Authorization": f"Bearer {key}"}
    moves = sent = commands = 0
    try:
        while moves < args.sample:
            body = client.post("/v1/matches", headers=organiser, json={
                "game": args.game, "seats": ["remote"] * args.players}).get_json()
            while moves < args.sample:
                prompt, headers = _to_act(client, body)
                if prompt is None:
                    break
                before = _commands(nodes)
                with _Counter() as counter:
                    r = client.post(f"/v1/matches/{body['id']}/moves", headers=headers,
                                    json={"move": rng.choice(prompt["legal_moves"]),
                                          "expected_version": prompt["version"]})
                commands += _commands(nodes) - before - len(nodes)   # less the INFOs
                if r.status_code == 200:
                    moves, sent = moves + 1, sent + counter.sent
    finally:
        stop_app(app)
        delete_keys(redis_url, prefix)
    return {"round_trips_per_move": sent / max(1, moves),
            "commands_per_move": commands / max(1, moves)}


def _to_act(client, body) -> tuple[dict | None, dict]:
    """The prompt and headers of a seat that must act, or (None, {}) once the match is over."""
    for token in body["tokens"].values():
        headers = {"Authorization": f"Bearer {token}"}
        prompt = client.get(f"/v1/matches/{body['id']}/prompt", headers=headers).get_json()
        if prompt.get("status", "active") != "active":
            return None, {}
        if prompt.get("must_act"):
            return prompt, headers
    return None, {}


def run_store(name: str, redis_url: str, cluster: LocalCluster | None, args,
              wait_ms: int = 0) -> dict:
    """One deployment on this store (each commit waiting `wait_ms` at most for a replica's
    acknowledgement): its HTTP figures and its round trips per move."""
    key = "rk_bench-" + uuid.uuid4().hex + uuid.uuid4().hex
    os.environ["REFEREE_ORGANISER_KEY"] = key   # the in-process app installs the same key
    env, prefix = service_env(redis_url, key)
    store_url = cluster.url if cluster else None
    if store_url:
        env.update(REFEREE_STORE_URL=store_url, REFEREE_STORE_WAIT_MS=str(wait_ms))
    primaries = [f"redis://127.0.0.1:{p}" for p in cluster.primaries()] if cluster else \
        [redis_url]
    api, base = start_gunicorn("referee.root:create_app()", args.gunicorn_workers, env)
    server = Server([api.pid], api.pid, "gunicorn")

    def cpu() -> dict:
        return {"api": server.cpu_seconds(), "store": _redis_cpu(primaries),
                "other": _redis_cpu([redis_url]) if cluster else 0.0}
    try:
        figures = measure_http(base, key, args, cpu)
    finally:
        stop(api)
        delete_keys(redis_url, prefix)
    nodes = ([f"redis://127.0.0.1:{p}" for p in cluster.ports] if cluster else []) + [redis_url]
    figures.update(measure_round_trips(redis_url, store_url, wait_ms, nodes, key, args))
    return {"name": name, **figures}


def report_line(f: dict) -> str:
    """One store's figures."""
    return (f"{f['name']:>12}: {f['moves_per_s']:7.1f} moves/s, {f['matches_per_s']:6.1f} "
            f"matches/s created, {f['finished']} finished, {f['stale']} stale, "
            f"{f['errors']} errors; {f['round_trips_per_move']:.2f} Redis round trips/move, "
            f"{f['commands_per_move']:.1f} Redis commands/move (all nodes, "
            f"a replica's copy of a write included); CPU per move played (its prompts "
            f"included): API {f['api_us_per_move']:.0f} us, store primaries "
            f"{f['store_us_per_move']:.0f} us, REDIS_URL beside them "
            f"{f['other_us_per_move']:.0f} us")


def main(argv=None) -> None:
    """Print the figures of one primary, then of the local cluster."""
    from referee.games import GAMES

    parser = argparse.ArgumentParser(prog="referee bench scale", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--gunicorn-workers", type=int, default=README_WORKERS)
    parser.add_argument("--sample", type=int, default=200,
                        help="moves whose Redis round trips are counted")
    parser.add_argument("--game", default=GAMES.names()[0])
    parser.add_argument("--players", type=int, default=3)
    redisbench.add_argument(parser)
    args = parser.parse_args(argv)
    with redisbench.choose(args.redis_url) as chosen:
        print(f"scale: {args.game}, {args.players} remote seats, {args.clients} client "
              f"threads, gunicorn {' '.join(gunicorn_args(args.gunicorn_workers))}, "
              f"{args.seconds:g} s a phase, queues on {chosen.describe()}", flush=True)
        print(report_line(run_store("1 primary", chosen.url, None, args)), flush=True)
        cluster = LocalCluster(*BENCH_PORTS).start()
        try:
            print(report_line(run_store("cluster", chosen.url, cluster, args)) +
                  f" [3 primaries + 3 replicas on ports {cluster.ports[0]}-"
                  f"{cluster.ports[-1]}]", flush=True)
            print(report_line(run_store("cluster+WAIT", chosen.url, cluster, args,
                                        WAIT_MS)) +
                  f" [REFEREE_STORE_WAIT_MS={WAIT_MS}: a replica acknowledges each commit]",
                  flush=True)
        finally:
            cluster.stop()


if __name__ == "__main__":
    main()
