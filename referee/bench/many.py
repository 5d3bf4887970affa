"""Many live matches on one host (issue 45): the README deployment (gunicorn with gevent
workers, `referee worker` processes, one Redis) carrying 10, 100 and 1,000 matches at once.
Figures, not assertions.

For each scale N, a fresh deployment (its own key prefix) gets N matches: half with every seat
remote, half with seat 0 remote and the others builtin bots that the workers play. Client
threads (spread over a few processes) poll each match's seat to act (GET …/prompt) and post a
random legal move when it must act; a match that ends is replaced, so N stay live. Printed per
scale: moves/s (the remote moves posted, and every version the matches advanced, bots' moves
included), p50/p99 per kind of request, Redis memory per match held, the processes' RSS, and
each per-match figure's growth against the smallest scale (flat per match means ~1.0x).

    referee bench many [--scales 10 100 1000] [--seconds S] [--game G] [--players N]
                       [--clients C] [--workers W] [--redis-url URL]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import queue
import subprocess
import time
import uuid
from typing import NamedTuple

import redis

from referee.bench import Steal, cost, load_average, redisbench
from referee.bench.servers import (README_WORKERS, ClientFailed, binary, delete_keys, gather, gunicorn_args, percentile,
                                   server_at, service_env, start_gunicorn, stop)
from referee.bench.servers import _children as children
from referee.bench.manyclients import process as _process
from referee.bench.manyreport import growth_lines, report_line

PROCESSES = 4
"""Client processes at most (each holds its share of the matches and their seat tokens)."""


def _rss_mb(pids: list[int]) -> float:
    """The resident memory of these processes and all their children, in MB."""
    total, seen = 0, set()
    todo = list(pids)
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        todo += children(pid)
        try:
            with open(f"/proc/{pid}/status") as status:
                total += next(int(line.split()[1]) for line in status
                              if line.startswith("VmRSS:"))
        except (OSError, StopIteration):
            pass
    return total / 1024


def run_scale(redis_url: str, args, scale: int) -> dict:
    """One fresh deployment carrying `scale` live matches for `args.seconds`; its figures."""
    key = "rk_bench-" + uuid.uuid4().hex + uuid.uuid4().hex
    env, prefix = service_env(redis_url, key)
    env["REFEREE_MAX_ACTIVE_MATCHES"] = str(10 * scale + 100)
    workers = [_start_worker(env) for _ in range(args.workers)]
    api, base = start_gunicorn("referee.root:create_app()", args.gunicorn_workers, env)
    client = redis.Redis.from_url(redis_url)
    try:
        server = server_at(base)
        if server is not None:
            server.wait_idle()
        before = client.info("memory")["used_memory"]
        deployment = Deployment(api.pid, [w.pid for w in workers], client, prefix)
        idle_rss = _rss_mb([api.pid] + [w.pid for w in workers])
        figures = _clients(base, key, args, scale, deployment)
        figures["redis_kb_per_created"] = (figures["memory_at_go"] - before) / 1024 / \
            max(1, figures["created"])
        used_kb = (client.info("memory")["used_memory"] - before) / 1024
        figures["redis_used_kb"] = used_kb
        figures["redis_kb_per_match"] = used_kb / max(1, figures["kept"])
        figures["redis_kb_per_live"] = used_kb / max(1, figures["held"])
        figures["rss_mb"] = _rss_mb([api.pid] + [w.pid for w in workers])
        figures["rss_kb_per_live"] = (figures["rss_mb"] - idle_rss) * 1024 / max(1, figures["held"])
        dead = [w.returncode for w in workers if w.poll() is not None]
        if dead:
            raise ClientFailed(f"{len(dead)} worker(s) ended during the run (codes {dead})")
        return figures
    finally:
        for proc in [api, *workers]:
            stop(proc)
        client.close()
        delete_keys(redis_url, prefix)


class Deployment(NamedTuple):
    """The processes of one scale's deployment, its Redis and key prefix."""

    api: int
    workers: list[int]
    redis: redis.Redis
    prefix: str

    def cpu(self):
        """Its CPU seconds so far (cost.CpuReading)."""
        return cost.read_cpu(self.api, self.workers, self.redis)


def _start_worker(env: dict) -> subprocess.Popen:
    """A `referee worker` on the deployment's Redis (it plays the builtin seats)."""
    return subprocess.Popen([binary("referee"), "worker"], env={**os.environ, **env},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _ready(out, procs: list, seconds: float) -> list[str]:
    """The match ids each client process says it created (a failure raises ClientFailed)."""
    ids, deadline = [], time.monotonic() + seconds
    for _ in procs:
        while True:
            try:
                answer = out.get(timeout=1.0)
                break
            except queue.Empty:
                if time.monotonic() > deadline or not any(p.is_alive() for p in procs):
                    for proc in procs:
                        proc.terminate()
                    raise ClientFailed("client processes did not create their matches") \
                        from None
        if "error" in answer:
            for proc in procs:
                proc.terminate()
            raise ClientFailed(f"a client process failed: {answer['error']}")
        ids += answer["ready"]
    return ids


IDLE_SECONDS = 2.0
"""How long the deployment's CPU is read with every match created and no client yet: what N
matches cost while nobody plays (the janitor's sweeps, the workers' heartbeats)."""


def _idle_cpu(deployment: Deployment):
    """The deployment's CPU over IDLE_SECONDS, once the bots' first moves are made."""
    time.sleep(1.0)
    before = deployment.cpu()
    time.sleep(IDLE_SECONDS)
    return deployment.cpu().minus(before)


def _clients(base, key, args, scale: int, deployment: Deployment) -> dict:
    """Run the client processes over `scale` matches; the request, move and CPU figures (the
    CPU from when every match is created until the clients stop)."""
    processes = min(PROCESSES, scale)
    share = [scale // processes + (i < scale % processes) for i in range(processes)]
    threads = max(1, args.clients // processes)   # the same clients at every scale
    out, go = multiprocessing.Queue(), multiprocessing.Event()
    procs = [multiprocessing.Process(target=_process, args=(
        base, key, args.game, args.players, n, threads, args.seconds, 1000 * i, go, out))
        for i, n in enumerate(share)]
    for proc in procs:
        proc.start()
    ids = _ready(out, procs, 60 + scale * 0.5)
    idle = _idle_cpu(deployment)
    at_go = cost.versions(deployment.redis, deployment.prefix, ids)
    memory_at_go = deployment.redis.info("memory")["used_memory"]
    own_at_go = own_kb(deployment.redis, deployment.prefix, ids)
    cpu_before, started = deployment.cpu(), time.monotonic()
    go.set()
    got = gather(out, procs, args.seconds)
    elapsed, cpu = time.monotonic() - started, deployment.cpu().minus(cpu_before)
    matches = {m: span for part in got for m, span in part["matches"].items()}
    at_end = cost.versions(deployment.redis, deployment.prefix, list(matches))
    # what each match advanced while measured: from its version at go (its creation for a
    # match that replaced one that ended), to its version now (its last seen, once archived)
    moved = sum(at_end.get(m, last) - at_go.get(m, first) for m, (first, last) in matches.items())
    samples = [s for part in got for s in part["samples"]]
    kinds = {kind: [t for k, t, status in samples if k == kind and status == 200]
             for kind in ("prompt", "match", "move")}
    memory_moved = deployment.redis.info("memory")["used_memory"] - memory_at_go
    live_ids = [m for m in matches if m in at_end]
    return {"held": sum(p["held"] for p in got), "kept": len(matches), "seconds": elapsed,
            "created": len(ids), "memory_at_go": memory_at_go,
            "redis_bytes_per_version": memory_moved / max(1, moved),
            "moves_per_s": len(kinds["move"]) / elapsed,
            "versions_per_s": moved / elapsed, "versions": moved,
            "cpu_us_per_version": cpu.total / max(1, moved) * 1e6,
            "idle_cpu_ms_per_s": idle.total * 1000 / IDLE_SECONDS,
            "net_cpu_us_per_version": max(0.0, cpu.total - idle.total * elapsed / IDLE_SECONDS)
            / max(1, moved) * 1e6,
            "cpu_split_us": {part: getattr(cpu, part) / max(1, moved) * 1e6
                             for part in ("api", "workers", "redis")},
            "cpu_busy": cpu.total / elapsed,
            "requests": len(samples),
            # the clients poll every match they hold: more matches, more prompts per move
            # landed, so the API's cost per request is the one to compare across scales
            "api_cpu_us_per_request": cpu.api / max(1, len(samples)) * 1e6,
            "requests_per_version": len(samples) / max(1, moved),
            "per_version": {kind: len(times) / max(1, moved) for kind, times in kinds.items()},
            # the matches' own keys (MEMORY USAGE), apart from what the deployment keeps
            # whatever the scale (RQ's and the workers' keys, Lua scripts): the same measure
            # at every scale, at go (created, the bots' first moves made) and at the end
            "own_kb_at_go": own_at_go,
            "own_kb_at_end": own_kb(deployment.redis, deployment.prefix, live_ids),
            # 409: a bot moved first in a simultaneous decision (Dschunke's sealed bids); the
            # client polls again, as a real one does
            "stale": sum(1 for _, _, status in samples if status == 409),
            "errors": sum(1 for _, _, status in samples if status not in (200, 409)),
            "p50_ms": percentile([t for _, t, _ in samples], 0.5),
            "p99_ms": percentile([t for _, t, _ in samples], 0.99),
            **{f"{kind}_p99_ms": percentile(times, 0.99) for kind, times in kinds.items()}}


SAMPLED = 200
"""Matches whose own keys are weighed at most (MEMORY USAGE of each key: one round trip)."""


def own_kb(client, prefix: str, match_ids: list[str]) -> float:
    """The mean Redis memory of a match's own keys (`<prefix>:m:{<id>}:*`), in KB, over up to
    SAMPLED of `match_ids` (a SCAN of the prefix finds their keys)."""
    sample = set(match_ids[:SAMPLED])
    keys = [key for key in client.scan_iter(match=f"{prefix}:m:*", count=1000)
            if key.decode().partition("{")[2].partition("}")[0] in sample]
    pipe = client.pipeline(transaction=False)
    for key in keys:
        pipe.memory_usage(key, samples=0)
    return sum(size or 0 for size in pipe.execute()) / 1024 / max(1, len(sample))


def main(argv=None) -> dict:
    """Print the figures of each scale and how they grow; return them by scale."""
    from referee.games import GAMES

    parser = argparse.ArgumentParser(prog="referee bench many", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scales", type=int, nargs="+", default=[10, 100, 1000])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--game", default=GAMES.names()[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--gunicorn-workers", type=int, default=README_WORKERS)
    redisbench.add_argument(parser)
    args = parser.parse_args(argv)
    with redisbench.choose(args.redis_url) as chosen:
        steal = Steal()
        print(f"many: {args.game}, {args.players} seats (half the matches all remote, half "
              f"1 remote + builtin bots), {args.clients} client threads, {args.workers} "
              f"workers, gunicorn {' '.join(gunicorn_args(args.gunicorn_workers))}, "
              f"{args.seconds:.0f} s per scale, on {chosen.describe()}", flush=True)
        base, by_scale = None, {}
        for scale in sorted(args.scales):
            try:
                figures = by_scale[scale] = run_scale(chosen.url, args, scale)
            except ClientFailed as err:
                raise SystemExit(f"referee bench many: {err}") from None
            print(report_line(scale, figures, base), flush=True)
            base = base or {**figures, "scale": scale}
        for line in growth_lines(by_scale):
            print(line, flush=True)
        print(f"load average {load_average()}; {steal.describe()}", flush=True)
        return by_scale


if __name__ == "__main__":
    main()
