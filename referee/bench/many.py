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

import redis
import requests

from referee.bench import redisbench
from referee.bench.servers import (README_WORKERS, ClientFailed, binary, client_process,
                                   delete_keys, gather, gunicorn_args, percentile,
                                   service_env, start_gunicorn, stop)
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
def _process(base, key, game, players, count, threads, seconds, seed, out) -> None:
    """Create this process's share of the matches, then serve them for `seconds`."""
    session, work = requests.Session(), queue.Queue()
    for i in range(count):
        work.put(_create(session, base, key, game, players, with_bots=i % 2 == 1))
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
    out.put({"samples": samples, "versions": sum(m["last"] - m["first"] for m in held),
             "held": len(held)})


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
        before = client.info("memory")["used_memory"]
        figures = _clients(base, key, args, scale)
        figures["redis_kb_per_match"] = (client.info("memory")["used_memory"] - before) / 1024 \
            / max(1, figures["held"])
        figures["rss_mb"] = _rss_mb([api.pid] + [w.pid for w in workers])
        figures["redis_used_kb"] = (client.info("memory")["used_memory"] - before) / 1024
        dead = [w.returncode for w in workers if w.poll() is not None]
        if dead:
            raise ClientFailed(f"{len(dead)} worker(s) ended during the run (codes {dead})")
        return figures
    finally:
        for proc in [api, *workers]:
            stop(proc)
        client.close()
        delete_keys(redis_url, prefix)


def _start_worker(env: dict) -> subprocess.Popen:
    """A `referee worker` on the deployment's Redis (it plays the builtin seats)."""
    return subprocess.Popen([binary("referee"), "worker"], env={**os.environ, **env},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _clients(base, key, args, scale: int) -> dict:
    """Run the client processes over `scale` matches; the request and move figures."""
    processes = min(PROCESSES, scale)
    share = [scale // processes + (i < scale % processes) for i in range(processes)]
    threads = max(1, args.clients // processes)   # the same clients at every scale
    out = multiprocessing.Queue()
    procs = [multiprocessing.Process(target=_process, args=(
        base, key, args.game, args.players, n, threads, args.seconds, 1000 * i, out))
        for i, n in enumerate(share)]
    started = time.monotonic()
    for proc in procs:
        proc.start()
    got = gather(out, procs, args.seconds + 60 + scale * 0.2)
    elapsed = time.monotonic() - started
    samples = [s for part in got for s in part["samples"]]
    kinds = {kind: [t for k, t, status in samples if k == kind and status == 200]
             for kind in ("prompt", "match", "move")}
    return {"held": sum(p["held"] for p in got), "seconds": elapsed,
            "moves_per_s": len(kinds["move"]) / args.seconds,
            "versions_per_s": sum(p["versions"] for p in got) / args.seconds,
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
    line = (f"{scale:>5} matches: {f['moves_per_s']:7.1f} remote moves/s, "
            f"{f['versions_per_s']:7.1f} versions/s, p50 {f['p50_ms']:6.2f} ms, "
            f"p99 {f['p99_ms']:7.2f} ms (prompt {f['prompt_p99_ms']:.1f}, move "
            f"{f['move_p99_ms']:.1f}), Redis {f['redis_kb_per_match']:6.1f} KB/match "
            f"({f['held']} held), RSS {f['rss_mb']:6.1f} MB, {f['stale']} stale, {f['errors']} errors")
    if base is not None:
        added = max(1, f["held"] - base["held"])
        line += (f"; each match more than at {base['scale']}: Redis "
                 f"{(f['redis_used_kb'] - base['redis_used_kb']) / added:.1f} KB, RSS "
                 f"{(f['rss_mb'] - base['rss_mb']) * 1024 / added:.1f} KB; p99 "
                 f"{f['p99_ms'] / base['p99_ms']:.2f}x")
    return line


def main(argv=None) -> None:
    """Print the figures of each scale."""
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
        print(f"many: {args.game}, {args.players} seats (half the matches all remote, half "
              f"1 remote + builtin bots), {args.clients} client threads, {args.workers} "
              f"workers, gunicorn {' '.join(gunicorn_args(args.gunicorn_workers))}, "
              f"{args.seconds:.0f} s per scale, on {chosen.describe()}", flush=True)
        base = None
        for scale in sorted(args.scales):
            try:
                figures = run_scale(chosen.url, args, scale)
            except ClientFailed as err:
                raise SystemExit(f"referee bench many: {err}") from None
            print(report_line(scale, figures, base), flush=True)
            base = base or {**figures, "scale": scale}


if __name__ == "__main__":
    main()
