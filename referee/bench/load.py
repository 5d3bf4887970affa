"""Load with and without the rate limits: match creation and move submission under C
concurrent clients against gunicorn on a real Redis (issue 12). Figures, not assertions.

For each of limits on (the product's defaults) and off (REFEREE_RATE_LIMITS=off) and each
client count, starts gunicorn on a free loopback port with its own key prefix (fresh counts),
then runs the clients (threads, spread over a few processes) twice for S seconds: `moves`,
each client creating a match of remote seats and playing it with random legal moves (GET the
prompt, POST a move) until it ends, then the next; and `creates`, each client only creating
matches. Every client shares 127.0.0.1, so with the limits on the per-address limits and the
active-match ceiling bind on creation: that is the point. A refused request (429) is counted
apart, and its client pauses 50 ms.

    referee bench load [--clients 8 32] [--seconds S] [--game G] [--players N]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import shutil
import subprocess
import sys
import threading
import time
import uuid

import requests

from referee.bench import redisbench
from referee.bench.servers import (README_WORKERS, ClientFailed, client_process, gather,
                                   gunicorn_args, percentile as _percentile, wait_healthy)
from referee.bench.servers import delete_keys as _delete_keys, free_port as _free_port

PROCESSES = 4
"""Client processes at most (threads inside them make up the client count)."""


def _client(base, key, game, players, deadline, seed, samples, play) -> None:
    """One client: create matches with the account `key` (and play each, with `play`) until
    the deadline; record every creation and move."""
    session, rng = requests.Session(), random.Random(seed)
    while time.monotonic() < deadline:
        start = time.perf_counter()
        r = session.post(f"{base}/v1/matches", json={"game": game, "seats": ["remote"] * players},
                         headers={"Authorization": f"Bearer {key}"})
        samples.append(("create", r.status_code, time.perf_counter() - start))
        if r.status_code != 201:
            time.sleep(0.05)
            continue
        body = r.json()
        if play:
            _play(session, base, body["id"], body["tokens"], rng, deadline, samples)


def _play(session, base, match_id, tokens, rng, deadline, samples) -> None:
    headers = {s: {"Authorization": f"Bearer {t}"} for s, t in tokens.items()}
    seat = "0"
    while time.monotonic() < deadline:
        prompt = session.get(f"{base}/v1/matches/{match_id}/prompt", headers=headers[seat]).json()
        if prompt.get("status") != "active":
            return
        if not prompt["must_act"]:
            match = session.get(f"{base}/v1/matches/{match_id}").json()
            seat = str(match["to_act"][0]["seat"]) if match["to_act"] else seat
            continue
        start = time.perf_counter()
        r = session.post(f"{base}/v1/matches/{match_id}/moves", headers=headers[seat],
                         json={"move": rng.choice(prompt["legal_moves"]),
                               "expected_version": prompt["version"]})
        samples.append(("move", r.status_code, time.perf_counter() - start))
        if r.status_code == 429:
            time.sleep(0.05)
        elif r.status_code == 200 and r.json()["to_act"]:
            seat = str(r.json()["to_act"][0]["seat"])


@client_process
def _process(base, key, game, players, threads, seconds, first_seed, play, out) -> None:
    """Client threads in one process; sends back every sample."""
    samples: list = []
    deadline = time.monotonic() + seconds
    workers = [threading.Thread(target=_client, args=(base, key, game, players, deadline,
                                                      first_seed + i, samples, play))
               for i in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    out.put(samples)


def run_case(base, key, game, players, clients, seconds, play) -> dict:
    """C clients for `seconds`; figures per kind of request."""
    processes = min(PROCESSES, clients)
    share = [clients // processes + (i < clients % processes) for i in range(processes)]
    queue = multiprocessing.Queue()
    procs = [multiprocessing.Process(target=_process, args=(base, key, game, players, n, seconds,
                                                            1000 * i, play, queue))
             for i, n in enumerate(share)]
    for proc in procs:
        proc.start()
    samples = [s for got in gather(queue, procs, seconds) for s in got]
    figures = {}
    for kind in ("create", "move"):
        done = [t for k, status, t in samples if k == kind and status in (200, 201)]
        figures[kind] = {"per_s": len(done) / seconds,
                         "p50_ms": _percentile(done, 0.5) if done else 0.0,
                         "p99_ms": _percentile(done, 0.99) if done else 0.0,
                         "refused": sum(1 for k, s, _ in samples if k == kind and s == 429),
                         "other": sum(1 for k, s, _ in samples
                                      if k == kind and s not in (200, 201, 429))}
    return figures


def _start(redis_url: str, limits: bool, workers: int):
    """gunicorn (the README's workers) with the limits on or off, its own prefix and an
    organiser key the clients create with; (process, base URL, prefix, key)."""
    port, prefix = _free_port(), f"bench-load-{uuid.uuid4().hex[:8]}"
    key = "rk_bench-" + uuid.uuid4().hex + uuid.uuid4().hex
    env = {**os.environ, "REDIS_URL": redis_url, "REFEREE_PREFIX": prefix,
           "REFEREE_RATE_LIMITS": "on" if limits else "off", "REFEREE_ORGANISER_KEY": key}
    gunicorn = shutil.which("gunicorn") or os.path.join(os.path.dirname(sys.executable),
                                                        "gunicorn")
    proc = subprocess.Popen([gunicorn, *gunicorn_args(workers),
                             "-b", f"127.0.0.1:{port}", "--log-level", "warning",
                             "referee.root:create_app()"], env=env)
    base = f"http://127.0.0.1:{port}"
    wait_healthy(proc, base, 400, "gunicorn")
    return proc, base, prefix, key


def main(argv=None) -> None:
    """Print creation and move figures per (limits, clients)."""
    from referee.games import GAMES

    parser = argparse.ArgumentParser(prog="referee bench load", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default=GAMES.names()[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--clients", type=int, nargs="+", default=[8, 32])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--gunicorn-workers", type=int, default=README_WORKERS)
    redisbench.add_argument(parser)
    args = parser.parse_args(argv)
    with redisbench.choose(args.redis_url) as chosen:
        print(f"load: {args.game}, {args.players} remote seats, {args.seconds:.0f} s per case, "
              f"gunicorn {' '.join(gunicorn_args(args.gunicorn_workers))}, on "
              f"{chosen.describe()}", flush=True)
        args.redis_url = chosen.url
        _cases(args)


def _cases(args) -> None:
    for limits in (True, False):
        for clients in args.clients:
            proc, base, prefix, key = _start(args.redis_url, limits, args.gunicorn_workers)
            try:
                for kind, play in (("move", True), ("create", False)):
                    k = run_case(base, key, args.game, args.players, clients, args.seconds,
                                 play)[kind]
                    print(f"limits {'on ' if limits else 'off'} {clients:>3} clients "
                          f"{kind + 's':>7}: {k['per_s']:>8.1f}/s  p50 {k['p50_ms']:7.2f} ms"
                          f"  p99 {k['p99_ms']:7.2f} ms  429: {k['refused']:>6}  "
                          f"other errors: {k['other']}", flush=True)
            except ClientFailed as err:
                raise SystemExit(f"referee bench load: {err}") from None
            finally:
                proc.terminate()
                proc.wait(10)
                _delete_keys(args.redis_url, prefix)


if __name__ == "__main__":
    main()
