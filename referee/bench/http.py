"""HTTP move latency and throughput against gunicorn and a real Redis, with concurrent clients.

Starts gunicorn on a free port (unless --url is given), then C client processes each play
matches with remote seats only: GET the prompt, POST a random legal move, repeat. Prints
the latency percentiles of POST /moves and GET /prompt, and moves per second overall.

    referee bench http [--game G] [--clients C] [--seconds S] [--gunicorn-workers W]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import time
import uuid

import requests

from referee.bench import AUTH, KEY


def _client(base: str, game: str, players: int, seconds: float, seed: int, out) -> None:
    """One client process: play matches for `seconds`; send back the latency samples."""
    session, rng = requests.Session(), random.Random(seed)
    moves, prompts, deadline = [], [], time.monotonic() + seconds
    while time.monotonic() < deadline:
        body = session.post(f"{base}/v1/matches", headers=AUTH, json={
            "game": game, "seats": ["remote"] * players, "seed": rng.randrange(2**31)}).json()
        headers = {s: {"Authorization": f"Bearer {t}"} for s, t in body["tokens"].items()}
        _play(session, base, body["id"], headers, rng, moves, prompts, deadline)
    out.put((moves, prompts))


def _play(session, base, match_id, headers, rng, moves, prompts, deadline) -> None:
    to_act = [str(s) for s in range(len(headers))]
    while to_act and time.monotonic() < deadline:
        seat = to_act[0]
        start = time.perf_counter()
        prompt = session.get(f"{base}/v1/matches/{match_id}/prompt", headers=headers[seat]).json()
        prompts.append(time.perf_counter() - start)
        if not prompt["must_act"]:
            to_act = [str(s["seat"]) for s in session.get(f"{base}/v1/matches/{match_id}")
                      .json()["to_act"]]
            continue
        start = time.perf_counter()
        r = session.post(f"{base}/v1/matches/{match_id}/moves", headers=headers[seat],
                         json={"move": rng.choice(prompt["legal_moves"]),
                               "expected_version": prompt["version"]})
        moves.append(time.perf_counter() - start)
        if r.status_code == 200:
            to_act = [str(s["seat"]) for s in r.json()["to_act"]]


def _percentile(samples, q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def gunicorn_args(workers: int) -> list[str]:
    """The README's gunicorn options (gevent workers) for `workers` processes."""
    return ["-w", str(workers), "-k", "gevent", "--worker-connections", "2000"]


def _start_gunicorn(workers: int, redis_url: str) -> tuple[subprocess.Popen, str, str]:
    port, prefix = _free_port(), f"bench-{uuid.uuid4().hex[:8]}"
    env = {**os.environ, "REDIS_URL": redis_url, "REFEREE_PREFIX": prefix,
           "REFEREE_ORGANISER_KEY": KEY}
    gunicorn = shutil.which("gunicorn") or os.path.join(os.path.dirname(sys.executable), "gunicorn")
    proc = subprocess.Popen([gunicorn, *gunicorn_args(workers),
                             "-b", f"127.0.0.1:{port}", "--log-level", "warning",
                             "referee.root:create_app()"], env=env)
    base = f"http://127.0.0.1:{port}"
    wait_healthy(proc, base, 200, "gunicorn")
    return proc, base, prefix


def wait_healthy(proc, base: str, tries: int, what: str) -> None:
    """Wait until the server at `base` answers /v1/health (every 50 ms, `tries` times); kill
    `proc` and raise if it never does."""
    for _ in range(tries):
        try:
            if requests.get(f"{base}/v1/health", timeout=1).status_code == 200:
                return
        except requests.RequestException:
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError(f"{what} did not start")


def run(game: str, players: int, clients: int, seconds: float, base: str) -> dict:
    """Run the clients against `base`; return the figures."""
    queue = multiprocessing.Queue()
    procs = [multiprocessing.Process(target=_client, args=(base, game, players, seconds, i, queue))
             for i in range(clients)]
    for proc in procs:
        proc.start()
    moves, prompts = [], []
    for _ in procs:
        m, p = queue.get()
        moves += m
        prompts += p
    for proc in procs:
        proc.join()
    return {"game": game, "players": players, "clients": clients, "moves": len(moves),
            "moves_per_s": round(len(moves) / seconds, 1),
            "move_p50_ms": round(_percentile(moves, 0.50), 2),
            "move_p99_ms": round(_percentile(moves, 0.99), 2),
            "move_mean_ms": round(statistics.mean(moves) * 1000, 2),
            "prompt_p50_ms": round(_percentile(prompts, 0.50), 2),
            "prompt_p99_ms": round(_percentile(prompts, 0.99), 2)}


def main(argv=None) -> None:
    """Print HTTP figures for 1 and C concurrent clients."""
    from referee.games import GAMES

    parser = argparse.ArgumentParser(prog="referee bench http", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default=(GAMES.names() or ["gops"])[0])
    parser.add_argument("--players", type=int)
    parser.add_argument("--clients", type=int, nargs="+", default=[1, 4, 8])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--gunicorn-workers", type=int, default=2)
    parser.add_argument("--redis-url", default=os.environ.get("REDIS_URL",
                                                             "redis://127.0.0.1:6379/0"))
    parser.add_argument("--url", help="benchmark a running service instead of starting one")
    args = parser.parse_args(argv)
    proc, base, prefix = None, args.url, None
    if base is None:
        proc, base, prefix = _start_gunicorn(args.gunicorn_workers, args.redis_url)
    players = args.players or 3
    try:
        print(f"HTTP against {base} (gunicorn workers: {args.gunicorn_workers}), game {args.game},"
              f" {players} remote seats, {args.seconds:.0f} s per run", flush=True)
        for clients in args.clients:
            r = run(args.game, players, clients, args.seconds, base)
            print(f"{clients:>3} clients: {r['moves_per_s']:>8.1f} moves/s  move p50 "
                  f"{r['move_p50_ms']:.2f} ms p99 {r['move_p99_ms']:.2f} ms  prompt p50 "
                  f"{r['prompt_p50_ms']:.2f} ms p99 {r['prompt_p99_ms']:.2f} ms "
                  f"({r['moves']} moves)", flush=True)
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(10)
            _delete_keys(args.redis_url, prefix)


def _delete_keys(redis_url: str, prefix: str) -> None:
    """Remove the benchmark's matches from Redis."""
    import redis

    client = redis.Redis.from_url(redis_url)
    keys = list(client.scan_iter(f"{prefix}:*", count=1000))
    for i in range(0, len(keys), 1000):
        client.delete(*keys[i:i + 1000])


if __name__ == "__main__":
    main()
