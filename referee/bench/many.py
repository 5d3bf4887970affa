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
import random
import subprocess
import threading
import time
import uuid
from typing import NamedTuple

import redis
import requests

from referee.bench import Steal, cost, load_average, redisbench
from referee.bench.servers import (README_WORKERS, ClientFailed, binary, client_process,
                                   delete_keys, gather, gunicorn_args, percentile,
                                   server_at, service_env, start_gunicorn, stop)
from referee.bench.servers import _children as children

PROCESSES = 4
"""Client processes at most (each holds its share of the matches and their seat tokens)."""


def _create(session, base, key, game, players, with_bots: bool) -> dict:
    """One match; (id, tokens, seat to act, version) as the client keeps it."""
    seats = ["remote"] + (["builtin:random"] if with_bots else ["remote"]) * (players - 1)
    r = session.post(f"{base}/v1/matches", json={"game": game, "seats": seats},
                     headers={"Authorization": f"Bearer {key}"}, timeout=30)
    r.raise_for_status()
    body = r.json()
    return {"id": body["id"], "tokens": body["tokens"], "bots": with_bots,
            "seat": str(body["to_act"][0]["seat"]) if body.get("to_act") else "0",
            "first": body.get("version", 0), "last": body.get("version", 0)}


def _step(session, base, match, rng, samples) -> bool:
    """Serve one match once: poll its seat to act, move if it must; False once it is over."""
    token = match["tokens"].get(match["seat"]) or match["tokens"]["0"]
    headers = {"Authorization": f"Bearer {token}"}
    start = time.perf_counter()
    answer = session.get(f"{base}/v1/matches/{match['id']}/prompt", headers=headers, timeout=30)
    samples.append(("prompt", time.perf_counter() - start, answer.status_code))
    prompt = answer.json()
    match["last"] = max(match["last"], prompt.get("version", 0))
    if prompt.get("status") != "active":
        return False
    if not prompt["must_act"]:
        start = time.perf_counter()
        answer = session.get(f"{base}/v1/matches/{match['id']}", timeout=30)
        samples.append(("match", time.perf_counter() - start, answer.status_code))
        state = answer.json()
        remote = [str(t["seat"]) for t in state.get("to_act", [])
                  if str(t["seat"]) in match["tokens"]]
        match["seat"] = remote[0] if remote else match["seat"]
        return state.get("status") == "active"
    start = time.perf_counter()
    r = session.post(f"{base}/v1/matches/{match['id']}/moves", headers=headers, timeout=30,
                     json={"move": rng.choice(prompt["legal_moves"]),
                           "expected_version": prompt["version"]})
    samples.append(("move", time.perf_counter() - start, r.status_code))
    if r.status_code == 200:
        body = r.json()
        match["last"] = body.get("version", match["last"])
        remote = [str(t["seat"]) for t in body.get("to_act", [])
                  if str(t["seat"]) in match["tokens"]]
        match["seat"] = remote[0] if remote else match["seat"]
    return True


def _serve(base, key, game, players, work, seed, deadline, samples, done) -> None:
    """One client thread: take a match, serve it once, put it back (or a new one if over)."""
    session, rng = requests.Session(), random.Random(seed)
    while time.monotonic() < deadline:
        try:
            match = work.get(timeout=0.2)   # more threads than matches: the rest wait
        except queue.Empty:
            continue
        if _step(session, base, match, rng, samples):
            work.put(match)
        else:
            done.append(match)
            work.put(_create(session, base, key, game, players, match["bots"]))


@client_process
def _process(base, key, game, players, count, threads, seconds, seed, go, out) -> None:
    """Create this process's share of the matches, say so (their ids) and wait for `go`,
    then serve them for `seconds`."""
    session, work = requests.Session(), queue.Queue()
    for i in range(count):
        work.put(_create(session, base, key, game, players, with_bots=i % 2 == 1))
    out.put({"ready": [m["id"] for m in work.queue]})
    go.wait()
    samples: list = []
    done: list = []
    deadline = time.monotonic() + seconds
    pool = [threading.Thread(target=_serve, args=(base, key, game, players, work, seed + i,
                                                  deadline, samples, done))
            for i in range(threads)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    held = list(work.queue) + done
    out.put({"samples": samples, "held": len(list(work.queue)),
             "matches": {m["id"]: (m["first"], m["last"]) for m in held}})


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
            # 409: a bot moved first in a simultaneous decision (Dschunke's sealed bids); the
            # client polls again, as a real one does
            "stale": sum(1 for _, _, status in samples if status == 409),
            "errors": sum(1 for _, _, status in samples if status not in (200, 409)),
            "p50_ms": percentile([t for _, t, _ in samples], 0.5),
            "p99_ms": percentile([t for _, t, _ in samples], 0.99),
            **{f"{kind}_p99_ms": percentile(times, 0.99) for kind, times in kinds.items()}}


def report_line(scale: int, f: dict, base: dict | None) -> str:
    """One scale's figures; against `base` (the smallest scale), what each match added."""
    split = f["cpu_split_us"]
    line = (f"{scale:>5} matches: {f['moves_per_s']:7.1f} remote moves/s, "
            f"{f['versions_per_s']:7.1f} versions/s, p50 {f['p50_ms']:6.2f} ms, "
            f"p99 {f['p99_ms']:7.2f} ms (prompt {f['prompt_p99_ms']:.1f}, move "
            f"{f['move_p99_ms']:.1f}), server CPU {f['cpu_us_per_version']:.0f} us/move "
            f"(gunicorn {split['api']:.0f}, workers {split['workers']:.0f}, Redis "
            f"{split['redis']:.0f}; {f['cpu_busy']:.2f} CPUs busy; "
            f"{f['net_cpu_us_per_version']:.0f} us/move net of its {f['idle_cpu_ms_per_s']:.1f} "
            f"ms/s idle), Redis "
            f"{f['redis_kb_per_created']:.1f} KB a match created and "
            f"{f['redis_bytes_per_version']:.0f} B a move, {f['redis_kb_per_live']:.1f} KB/live "
            f"match at the end ({f['held']} live, {f['kept'] - f['held']} ended), RSS "
            f"{f['rss_mb']:6.1f} MB ({f['rss_kb_per_live']:.0f} KB/live match over the idle "
            f"deployment), {f['stale']} stale, {f['errors']} errors")
    if base is not None:
        added = max(1, f["held"] - base["held"])
        line += (f"; each match more than at {base['scale']}: Redis "
                 f"{(f['redis_used_kb'] - base['redis_used_kb']) / added:.1f} KB, RSS "
                 f"{(f['rss_mb'] - base['rss_mb']) * 1024 / added:.1f} KB; p99 "
                 f"{f['p99_ms'] / base['p99_ms']:.2f}x")
    return line


GROWTH = [("server CPU per move (us)", "cpu_us_per_version", "{:.0f}"),
          ("  net of the idle deployment's (us)", "net_cpu_us_per_version", "{:.0f}"),
          ("idle deployment's CPU (ms/s)", "idle_cpu_ms_per_s", "{:.1f}"),
          ("Redis per match created (KB)", "redis_kb_per_created", "{:.1f}"),
          ("Redis per move (B)", "redis_bytes_per_version", "{:.0f}"),
          ("Redis per live match at the end (KB)", "redis_kb_per_live", "{:.1f}"),
          ("RSS each match added over the scale before (KB)", "rss_kb_added", "{:.0f}"),
          ("p99 per request (ms)", "p99_ms", "{:.1f}"),
          ("remote moves/s", "moves_per_s", "{:.0f}")]
"""The per-scale figures the growth lines compare: (what, key, format)."""


def growth_lines(by_scale: dict[int, dict]) -> list[str]:
    """Each figure at every scale and its ratio to the smallest scale's: flat per match reads
    ~1.0x for the first three; throughput falling while CPU per move stays is queueing on
    the same CPUs, not a cost that grows with the matches."""
    scales = sorted(by_scale)
    for smaller, larger in zip(scales, scales[1:]):   # RSS: the first scale's is mostly warm-up
        by_scale[larger]["rss_kb_added"] = (by_scale[larger]["rss_mb"] - by_scale[smaller][
            "rss_mb"]) * 1024 / max(1, by_scale[larger]["held"] - by_scale[smaller]["held"])
    lines = [f"growth {' -> '.join(map(str, scales))} matches (ratio to the first figure):"]
    width = max(len(what) for what, _, _ in GROWTH)
    for what, key, fmt in GROWTH:
        had = [s for s in scales if key in by_scale[s]]
        if not had:
            continue
        first = by_scale[had[0]][key]
        values = " -> ".join(fmt.format(by_scale[s][key]) if key in by_scale[s] else "-"
                             for s in scales)
        ratios = " ".join(f"{by_scale[s][key] / first:.2f}x" if first else "n/a"
                          for s in had[1:])
        lines.append(f"  {what:<{width}}  {values}  ({ratios or 'one figure'})")
    return lines


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
