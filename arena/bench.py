"""Arena benchmarks (printed figures): referee overhead per move, end-to-end per move with
loopback HTTP bots on keep-alive connections, and matches per second with 1 and 2 workers.

    referee bench arena [--game G] [--players N] [--matches M] [--redis-url URL]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from arena.plugin import arena_plugin
from arena.service import Arena
from referee.core.playout import random_playout
from referee.root import build_service
from referee.service import runner
from referee.service.config import Settings
from referee.service.context import registry_for
from referee.service.store import MatchStatus


class JsonBotHandler(BaseHTTPRequestHandler):
    """The HTTP side of a stdlib bot: HTTP/1.1 keep-alive, TCP_NODELAY (without it delayed
    ACKs cost ~40 ms a move), quiet, JSON answers. Subclasses write do_GET / do_POST."""

    protocol_version = "HTTP/1.1"

    def setup(self):
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, *args):
        pass

    def _send(self, body: bytes, status: int = 200):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class _FirstMoveBot(JsonBotHandler):
    """The bench bot: answers the first legal move (no thinking)."""

    def do_GET(self):
        self._send(json.dumps({"apiversion": "1", "name": "bench", "games": []}).encode())

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        move = body["legal_moves"][0] if self.path == "/move" else None
        self._send(json.dumps({"move": move}).encode())


def start_bot() -> str:
    """Serve a bench bot on a free loopback port (in a thread); its URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _FirstMoveBot)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_port}"


def _arena(settings: Settings, queued: bool = False) -> Arena:
    """The arena of a service built by the root; matches finish inline in this process."""
    return build_service(settings, [arena_plugin(inline=True, loopback=True)], queued).extensions["arena"]


def _run_matches(arena: Arena, game: str, seats: list, count: int) -> tuple[int, float]:
    moves, start = 0, time.perf_counter()
    for seed in range(count):
        created = arena.create_match(game, seats, None, seed, rated=False)
        while runner.advance(arena.service, created.meta.id):
            pass
        moves += arena.service.store.live(created.meta.id).version
    return moves, time.perf_counter() - start


def per_move(game: str, players: int, matches: int, redis_url: str | None) -> dict:
    """Microseconds per move: the bare engine, the runner with builtin bots, HTTP bots."""
    prefix = f"bench-{uuid.uuid4().hex[:8]}"
    arena = _arena(Settings(redis_url=redis_url, key_prefix=prefix))
    start, engine_moves = time.perf_counter(), 0
    for seed in range(matches):
        engine_moves += len(random_playout(arena.service.games.get(game), players, None, seed)[2])
    engine_us = (time.perf_counter() - start) / engine_moves * 1e6
    moves, seconds = _run_matches(arena, game, ["builtin:random"] * players, matches)
    builtin_us = seconds / moves * 1e6
    urls = [start_bot() for _ in range(2)]
    seats = []
    for i in range(players):
        bot = arena.bots.register(f"bench{i}", urls[i % 2], [game], "bench", [game],
                                  once=False)
        seats.append(f"bot:{bot['id']}")
    moves, seconds = _run_matches(arena, game, seats, matches)
    http_us = seconds / moves * 1e6
    _cleanup(arena.service.store.redis, prefix)
    return {"engine_us": engine_us, "runner_builtin_us": builtin_us, "http_us": http_us,
            "overhead_us": builtin_us - engine_us}


def matches_per_second(game: str, players: int, matches: int, workers: int, redis_url: str,
                       use_http: bool) -> float:
    """Queue `matches` on `workers` worker processes; matches finished per second."""
    prefix, queue = f"bench-{uuid.uuid4().hex[:8]}", f"bench-{uuid.uuid4().hex[:8]}"
    arena = _arena(Settings(redis_url=redis_url, key_prefix=prefix, queue_name=queue),
                   queued=True)
    seats = ["builtin:random"] * players
    if use_http:
        url = start_bot()
        ids = [arena.bots.register(f"w{i}", url, [game], "bench", [game], once=False)["id"]
               for i in range(players)]
        seats = [f"bot:{bot_id}" for bot_id in ids]
    env = {**os.environ, "REDIS_URL": redis_url, "REFEREE_PREFIX": prefix, "REFEREE_QUEUE": queue}
    referee = os.path.join(os.path.dirname(sys.executable), "referee")
    procs = [subprocess.Popen([referee, "worker"], env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL) for _ in range(workers)]
    try:
        time.sleep(1.0)  # let the workers start before the clock does
        start = time.perf_counter()
        ids = [arena.create_match(game, seats, None, s, rated=False).meta.id
               for s in range(matches)]
        while any(arena.service.store.live(m).status == MatchStatus.ACTIVE for m in ids):
            time.sleep(0.01)
        rate = matches / (time.perf_counter() - start)
    finally:
        for proc in procs:
            proc.terminate()
            proc.wait(10)
        _cleanup(arena.service.store.redis, prefix)
    return rate


def _cleanup(redis, prefix: str) -> None:
    keys = list(redis.scan_iter(f"{prefix}:*", count=1000))
    for i in range(0, len(keys), 1000):
        redis.delete(*keys[i:i + 1000])


def main(argv=None) -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(prog="referee bench arena", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game")
    parser.add_argument("--players", type=int)
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--redis-url", default=os.environ.get("REDIS_URL") or
                        "redis://127.0.0.1:6379/0")
    args = parser.parse_args(argv)
    games = registry_for(Settings(redis_url=None))
    game = games.get(args.game or games.names()[0])
    name, players = game.spec.name, args.players or game.spec.min_players
    print(f"arena benchmark: {name}, {players} players, {args.matches} matches per figure")
    for label, url in (("embedded store", None), ("real Redis", args.redis_url)):
        r = per_move(name, players, args.matches, url)
        print(f"  {label:<14}: engine {r['engine_us']:.0f} us/move; runner with in-process "
              f"bots {r['runner_builtin_us']:.0f} us/move (referee overhead "
              f"{r['overhead_us']:.0f} us); two loopback HTTP bots, keep-alive: "
              f"{r['http_us']:.0f} us/move end to end", flush=True)
    for use_http in (False, True):
        kind = "HTTP bots" if use_http else "builtin bots"
        rates = [matches_per_second(name, players, args.matches, w, args.redis_url, use_http)
                 for w in (1, 2)]
        print(f"  {kind:<12}: {rates[0]:.2f} matches/s with 1 worker, {rates[1]:.2f} with 2 "
              f"(x{rates[1] / rates[0]:.2f})", flush=True)


if __name__ == "__main__":
    main()
