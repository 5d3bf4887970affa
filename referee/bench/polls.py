"""Held waits versus everybody else: other requests' latency with N long polls (or event
streams) held open, against 0 held, in the same run (issues 12 and 17).

Starts the README's deployment (gunicorn, gevent workers, a real Redis) on a free loopback
port, or `referee serve` (the embedded default) with `--server embedded`, or uses `--url`.
Creates matches whose seat 0 must act, opens N raw connections that hold
`GET /prompt?wait=` for the other seats (or `GET /events` with their tokens), and meanwhile
C client threads time other requests (health, a match, a prompt without wait, creating a
match) for S seconds. Then one move per match wakes every held wait, and the bench counts
how many answered. Loopback only; bounded by --held, --seconds and the wait of each poll.

    referee bench polls [--held 0 1000] [--kind prompts|events] [--clients 4] [--seconds 5]
                        [--rounds 3]
                        [--server gunicorn|gthread|embedded] [--workers W]

Why one module: one benchmark, read in the order it runs (start the server, hold the waits,
load, wake, report); outside it only `main` and the P99_TARGET_X figure are used (by `bench
targets`)."""

from __future__ import annotations

import argparse
import contextlib
import os
import selectors
import shutil
import signal
import statistics
import socket
import subprocess
import sys
import threading
import time
import uuid

import redis
import requests

from referee.bench import AUTH, KEY, load_average
from referee.bench import processes, redisbench
from referee.bench.servers import (README_WORKERS, _children, delete_keys as _delete_keys,
                                   free_port as _free_port, gunicorn_args,
                                   percentile as _percentile, server_at, wait_healthy)
from referee.gunicorn_conf import raise_open_files

HOLD_SECONDS = 50
WAKE_SECONDS = 20.0
"""How long the moves and the answers they wake may take, at most."""
"""How long each held poll asks to wait (it is woken by the closing move long before)."""
P99_TARGET_X = 2.0
"""Issue 17's target: other requests' p99 with the held waits at most this many times the
p99 with none held."""

UNWATCHED_CHANGES = 20_000
"""Versions published on the channels of matches nobody waits on, for the last figure."""


def start_server(kind: str, workers: int, redis_url: str, env_extra: dict):
    """Start the server; (process, base URL, key prefix or None)."""
    port, prefix = _free_port(), f"bench-{uuid.uuid4().hex[:8]}"
    # what is measured is held waits: rate limits and match quotas would refuse its set-up
    env = {**os.environ, **env_extra, "REFEREE_ORGANISER_KEY": KEY, "REFEREE_RATE_LIMITS": "off"}
    if kind == "embedded":
        env.pop("REDIS_URL", None)
        args, prefix = [_bin("referee"), "serve", "--port", str(port)], None
    elif kind == "gthread":   # the deployment before gevent, for comparison
        env.update(REDIS_URL=redis_url, REFEREE_PREFIX=prefix)
        args = [_bin("gunicorn"), "-w", str(workers), "-k", "gthread", "--threads", "16",
                "-b", f"127.0.0.1:{port}", "--log-level", "warning", "referee.root:create_app()"]
    else:
        env.update(REDIS_URL=redis_url, REFEREE_PREFIX=prefix)
        args = [_bin("gunicorn"), *gunicorn_args(workers), "-b", f"127.0.0.1:{port}",
                "--log-level", "warning", "referee.root:create_app()"]
    proc = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    wait_healthy(proc, base, 300, f"{kind} server")
    return proc, base, prefix


def _stop(proc: subprocess.Popen) -> None:
    """Stop the server at once (gunicorn's SIGQUIT: open event streams are not waited for)."""
    proc.send_signal(signal.SIGQUIT)
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _bin(name: str) -> str:
    return shutil.which(name) or os.path.join(os.path.dirname(sys.executable), name)


def _matches(base: str, count: int) -> list[dict]:
    """`count` Dschunke matches of three remote seats where seat 0 is to act (seed 11)."""
    session = requests.Session()
    return [session.post(f"{base}/v1/matches", headers=AUTH,
                         json={"game": "dschunke", "seed": 11, "seats": ["remote"] * 3}).json()
            for _ in range(count)]


class Held:
    """N raw connections, each holding one request; counts the answers that came back."""

    def __init__(self, base: str, paths_and_tokens: list[tuple[str, str]]):
        host, port = base.removeprefix("http://").split(":")
        self.selector = selectors.DefaultSelector()
        self.answers: dict[int, bytes] = {}
        for path, token in paths_and_tokens:
            sock = socket.create_connection((host, int(port)))
            sock.sendall((f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer "
                          f"{token}\r\nConnection: close\r\n\r\n").encode())
            sock.setblocking(False)
            self.selector.register(sock, selectors.EVENT_READ)
            self.answers[sock.fileno()] = b""

    def drain(self, seconds: float, needle: bytes | None = None) -> None:
        """Read whatever arrives for `seconds`, or until every connection's answer holds
        `needle`."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and self.selector.get_map():
            if needle is not None and all(needle in a for a in self.answers.values()):
                return
            for key, _ in self.selector.select(timeout=0.05):
                try:
                    data = key.fileobj.recv(65536)
                except (BlockingIOError, ConnectionError):
                    data = b""
                self.answers[key.fileobj.fileno()] += data
                if not data:
                    self.selector.unregister(key.fileobj)
                    key.fileobj.close()

    def status_counts(self, needle: bytes) -> tuple[int, int]:
        """(answers so far, answers containing `needle`)."""
        got = [a for a in self.answers.values() if a]
        return len(got), sum(needle in a for a in got)

    def refused(self) -> int:
        """Answers that were a problem instead of a held wait (503 wait.capacity, 429): a
        wait refused is not a wake-up lost, and the report tells the two apart."""
        return sum(1 for a in self.answers.values()
                   if a and not a.startswith(b"HTTP/1.1 200"))

    def close(self) -> None:
        """Close every connection still open."""
        for key in list(self.selector.get_map().values()):
            self.selector.unregister(key.fileobj)
            key.fileobj.close()


def _load(base: str, match: dict, clients: int, seconds: float) -> list[float]:
    """C threads of other requests for `seconds`; their latencies (s), errors as +inf."""
    samples: list[float] = []
    lock = threading.Lock()
    token = match["tokens"]["0"]
    mid = match["id"]

    def client():
        session, mine = requests.Session(), []
        calls = [("GET", "/v1/health", {}), ("GET", f"/v1/matches/{mid}", {}),
                 ("GET", f"/v1/matches/{mid}/prompt", {"Authorization": f"Bearer {token}"}),
                 ("POST", "/v1/matches", AUTH)]
        deadline, i = time.monotonic() + seconds, 0
        while time.monotonic() < deadline:
            method, path, headers = calls[i % len(calls)]
            body = {"game": "dschunke", "seats": ["remote"] * 3} if method == "POST" else None
            start = time.perf_counter()
            try:
                ok = session.request(method, base + path, headers=headers, json=body,
                                     timeout=10).status_code < 400
            except requests.RequestException:
                ok = False
            mine.append(time.perf_counter() - start if ok else float("inf"))
            i += 1
        with lock:
            samples.extend(mine)

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return samples


def _settle(base: str, holder: Held, limit: float = 30.0) -> float:
    """Wait until the server has taken in the held requests (5 health checks in a row answer
    within 50 ms, at most `limit` s), reading what they send meanwhile; the seconds taken."""
    start, quick = time.monotonic(), 0
    while quick < 5 and time.monotonic() - start < limit:
        holder.drain(0.1)
        began = time.perf_counter()
        try:
            requests.get(f"{base}/v1/health", timeout=5)
        except requests.RequestException:   # a starved server (thread workers all held)
            pass
        quick = quick + 1 if time.perf_counter() - began < 0.05 else 0
    return time.monotonic() - start


def _first_move(base: str, match: dict) -> None:
    """Seat 0 plays its first legal move (a starved server may not answer: skipped)."""
    headers = {"Authorization": f"Bearer {match['tokens']['0']}"}
    try:
        prompt = requests.get(f"{base}/v1/matches/{match['id']}/prompt", headers=headers,
                              timeout=HOLD_SECONDS).json()
        requests.post(f"{base}/v1/matches/{match['id']}/moves", headers=headers,
                      json={"move": prompt["legal_moves"][0]}, timeout=HOLD_SECONDS)
    except requests.RequestException:
        pass


def _hold(base: str, held: int, kind: str) -> tuple[list[dict], Held]:
    """`held` waits of `kind` on new matches, 4 per seat token; (matches, holder)."""
    per_token = 4
    matches = _matches(base, max(1, -(-held // (2 * per_token))))
    route = (lambda m: f"/v1/matches/{m['id']}/prompt?wait={HOLD_SECONDS}") \
        if kind == "prompts" else (lambda m: f"/v1/matches/{m['id']}/events")
    targets = [(route(m), m["tokens"][s]) for m in matches for s in ("1", "2")
               for _ in range(per_token)][:held]
    return matches, Held(base, targets)


def server_pids(base: str) -> list[int]:
    """The server's processes, its master (or only process) first, then its workers; empty
    for a server not on this machine."""
    server = server_at(base)
    if server is None:
        return []
    return [server.master, *sorted({*server.pids, *_children(server.master)} - {server.master})]


def measure(base: str, held: int, kind: str, clients: int, seconds: float) -> dict:
    """Hold `held` waits, time other requests, then wake the waits; the figures, with the
    server's OS threads while they are held (`threads`, by process)."""
    matches, holder = _hold(base, held, kind)
    settle = _settle(base, holder)
    early, _ = holder.status_counts(b"")
    threads = processes.threads(server_pids(base))
    samples = _load(base, matches[0], clients, seconds)
    # again under load: gevent's thread pool (its DNS resolver) starts its threads on first use
    threads = {pid: max(n, threads.get(pid, 0))
               for pid, n in processes.threads(server_pids(base)).items()}
    needle = b'"version":1' if kind == "prompts" else b"id: 1\n"
    began = time.monotonic()
    for m in matches:   # one move per match wakes every wait on it
        _first_move(base, m)
    holder.drain(WAKE_SECONDS, needle)
    wake_s = time.monotonic() - began
    answered, woke = holder.status_counts(needle)
    refused = holder.refused()
    holder.close()
    errors = sum(s == float("inf") for s in samples)
    ok = [s for s in samples if s != float("inf")]
    return {"held": held, "requests": len(samples), "settle_s": settle, "errors": errors,
            "p50_ms": _percentile(ok, 0.50) if ok else float("nan"),
            "p99_ms": _percentile(ok, 0.99) if ok else float("nan"),
            "answered_early": early if kind == "prompts" else 0, "woke": woke,
            "refused": refused, "answered": answered, "threads": threads, "wake_s": wake_s}


def unwatched_cost(base: str, redis_url: str, prefix: str, held: int, kind: str,
                   changes: int = UNWATCHED_CHANGES) -> float | None:
    """With `held` waits held, `changes` new versions published on the change channels of
    matches nobody waits on (as their commits publish them: an arena's matches, say); the
    server's CPU per change in microseconds, over its CPU idle as long (None: the server's
    processes are not on this machine)."""
    server = server_at(base)
    if server is None:
        return None
    _, holder = _hold(base, held, kind)
    try:
        _settle(base, holder)
        client = redis.Redis.from_url(redis_url)
        channels = [f"{prefix}:m:{{unwatched{i}}}:events" for i in range(100)]
        before, began = server.cpu_seconds(), time.monotonic()
        pipe = client.pipeline(transaction=False)
        for i in range(changes):
            pipe.publish(channels[i % len(channels)], i + 1)
        pipe.execute()
        time.sleep(max(0.0, 2.0 - (time.monotonic() - began)))
        busy, busy_s = server.cpu_seconds() - before, time.monotonic() - began
        before, began = server.cpu_seconds(), time.monotonic()
        holder.drain(busy_s)
        idle, idle_s = server.cpu_seconds() - before, time.monotonic() - began
    finally:
        holder.close()
    return max(0.0, busy - idle * busy_s / idle_s) / changes * 1e6


def main(argv=None) -> dict:
    """Print other requests' p50/p99 with 0 and N held waits, and the ratio; return the
    ratios by held count, and the CPU per unwatched change (`unwatched_us`) when measured."""
    parser = argparse.ArgumentParser(prog="referee bench polls", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--held", type=int, nargs="+", default=[0, 1000])
    parser.add_argument("--kind", choices=["prompts", "events"], default="prompts")
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--server", choices=["gunicorn", "gthread", "embedded"],
                        default="gunicorn", help="gunicorn: the README's (gevent workers); "
                        "gthread: thread workers (4x16), the deployment before, to compare")
    parser.add_argument("--workers", type=int, default=README_WORKERS,
                        help="default: the README's, one per CPU")
    redisbench.add_argument(parser)
    parser.add_argument("--url", help="measure a running service instead of starting one")
    args = parser.parse_args(argv)
    if max(args.held) > 5000:
        sys.exit("referee bench polls: at most 5000 held waits")
    # the embedded server and a service given by --url use no Redis of this benchmark's
    uses_redis = args.url is None and args.server != "embedded"
    with (redisbench.choose(args.redis_url) if uses_redis else contextlib.nullcontext()) as chosen:
        args.redis_url = chosen.url if chosen else None
        where = chosen.describe() if chosen else (
            "Redis: the running service's own" if args.url else "Redis: none (embedded store)")
        return _held(args, where)


CLIENT_FILES = 500
"""Descriptors this benchmark opens beside its held connections (its clients' sessions,
Redis, the interpreter's own)."""


def _refused(count: int) -> str:
    """The clause naming the waits the server refused (none: nothing)."""
    return f"; {count} refused with a problem, not held" if count else ""


def open_files_line(base: str, held: int, files: tuple[int, int, int]) -> str:
    """What this benchmark's soft open-file limit was and is (`files`: raise_open_files's
    answer, asked for `held` connections and CLIENT_FILES), and the server's processes'."""
    before, after, hard = files
    told = (f"raised from {before} to {after}" if after != before else f"{after}") + \
        f" (hard {hard})"
    if after < held + CLIENT_FILES:
        told += f", below the {held + CLIENT_FILES} this run needs"
    limits = {pid: processes.open_files(pid) for pid in server_pids(base)}
    server = ", ".join(f"pid {pid} {lim[0]}" for pid, lim in limits.items() if lim) or "unknown"
    return f"open files: this benchmark's soft limit {told}; the server's soft limits: {server}"


def _threads_line(server: str, threads: dict[int, list[dict]]) -> str:
    """The server's OS threads with each held count (the most seen in any round), and
    whether they grew with the held waits."""
    most = {held: max((sum(t.values()) for t in seen), default=0)
            for held, seen in threads.items()}
    if not any(most.values()):
        return "server OS threads: unknown (not a process of this machine)"
    fewest, largest = min(most, key=most.get), max(threads)
    grew = most[largest] - most[min(threads)]
    said = ", ".join(f"{held} held: {count}" for held, count in most.items())
    line = f"server OS threads (/proc/<pid>/task, all its processes) with {said}"
    if grew <= 2:
        return line + ": they do not grow with the held waits (a held wait costs no thread)"
    per = grew / max(1, largest - min(threads))
    line += (f": {grew} more with {largest} held, {per:.2f} a held wait")
    if server == "embedded":
        line += (" (referee serve is a threaded Werkzeug server: each held wait takes a "
                 "thread; the deployment, gunicorn's gevent workers, holds them in greenlets)")
    return line + (f"; fewest with {fewest} held" if fewest != min(threads) else "")


def _held(args, redis_where: str) -> dict:
    proc, base, prefix = None, args.url, None
    files = raise_open_files(max(args.held) + CLIENT_FILES)   # before: the server inherits it
    if base is None:
        proc, base, prefix = start_server(args.server, args.workers, args.redis_url, {})
    where = args.url or {"gunicorn": f"gunicorn -k gevent, {args.workers} workers, Redis",
                         "gthread": f"gunicorn -k gthread, {args.workers}x16 threads, Redis",
                         "embedded": "referee serve (embedded default)"}[args.server]
    try:
        print(f"held {args.kind} against {base} ({where}); {args.clients} clients of other "
              f"requests for {args.seconds:.0f} s each; on {redis_where}", flush=True)
        print(open_files_line(base, max(args.held), files), flush=True)
        p99s: dict[int, list[float]] = {held: [] for held in args.held}
        threads: dict[int, list[dict]] = {held: [] for held in args.held}
        for round_ in range(args.rounds):   # interleaved: a noisy machine hits both alike
            for held in args.held:
                r = measure(base, held, args.kind, args.clients, args.seconds)
                p99s[held].append(r["p99_ms"])
                threads[held].append(r["threads"])
                print(f"round {round_ + 1}, {held:>5} held: other requests p50 "
                      f"{r['p50_ms']:.2f} ms p99 {r['p99_ms']:.2f} ms, {r['requests']} "
                      f"requests, {r['errors']} errors; held waits answered early "
                      f"{r['answered_early']}, woken by the move {r['woke']}/{held} in "
                      f"{r['wake_s']:.1f} s (taken in {r['settle_s']:.1f} s"
                      f"{_refused(r['refused'])}); server "
                      f"{processes.describe_threads(r['threads'])}", flush=True)
        first = statistics.median(p99s[args.held[0]])
        found: dict = {"ratios": {}}
        for held, values in p99s.items():
            ratio = found["ratios"][held] = statistics.median(values) / first
            print(f"median p99 with {held:>5} held: {statistics.median(values):.2f} ms, "
                  f"ratio {ratio:.2f}x the p99 with {args.held[0]} held (target <= "
                  f"{P99_TARGET_X:g}x); load average {load_average()}")
        print(_threads_line(args.server if args.url is None else "url", threads), flush=True)
        found["threads"] = {held: max((sum(t.values()) for t in seen), default=0)
                            for held, seen in threads.items()}
        if prefix is not None and max(args.held) > 0:
            cost = found["unwatched_us"] = unwatched_cost(base, args.redis_url, prefix,
                                                          max(args.held), args.kind)
            print(f"with {max(args.held)} held: {UNWATCHED_CHANGES:,} changes of matches no one "
                  f"waits on cost the server {cost:.1f} us of CPU each (they reach only the "
                  f"processes with waiters on them)")
        return found
    finally:
        if proc is not None:
            _stop(proc)
            if prefix is not None:
                _delete_keys(args.redis_url, prefix)


if __name__ == "__main__":
    main()
