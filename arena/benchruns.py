"""The runs `referee bench arena` times: one policy, the same seeds, logs kept for comparing.

Each run returns a `Run`: moves, seconds (wall clock, and this thread's CPU time), the move
log of every match, how many moves the referee played (a forfeit's stand-in), forfeits, and
the Redis round trips it made (counted by `arena.roundtrips.RoundTrips`)."""

from __future__ import annotations

import http.client
import os
import socket
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import redis

from arena.benchbot import bench_move
from arena.parts import arena_parts
from arena.roundtrips import RoundTrips
from arena.service import Arena
from referee.core import engine
from referee.service import defaults, runner
from referee.service.config import Settings
from referee.service.context import assemble
from referee.service.drivers import Choice, SeatDriver, Turn
from referee.service.errors import InvalidSeats
from referee.service.plugins import Plugin
from referee.service.store import MatchStatus
from referee.service.worker import drop_queue

BENCH_SEAT = "bench:policy"
"""An in-process seat playing `bench_move`, as builtin seats play theirs."""


@dataclass
class Run:
    """What one figure measured."""

    moves: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0   # this thread's CPU time: what the machine's load does not add
    logs: list = field(default_factory=list)  # per match: [(seat, move), ...]
    by_referee: int = 0
    forfeits: int = 0
    round_trips: int = 0

    def add(self, other: "Run") -> "Run":
        """This run with `other`'s matches added (the same figure, measured in turns)."""
        self.moves += other.moves
        self.seconds += other.seconds
        self.cpu_seconds += other.cpu_seconds
        self.logs += other.logs
        self.by_referee += other.by_referee
        self.forfeits += other.forfeits
        self.round_trips += other.round_trips
        return self

    @property
    def us_per_move(self) -> float:
        """Microseconds per move, wall clock."""
        return self.seconds / self.moves * 1e6

    @property
    def cpu_us_per_move(self) -> float:
        """Microseconds of this thread's CPU per move (a bot's own process not counted)."""
        return self.cpu_seconds / self.moves * 1e6

    @property
    def trips_per_move(self) -> float:
        """Redis round trips per move."""
        return self.round_trips / self.moves


class BenchDriver(SeatDriver):
    """Seats `bench:policy`: `bench_move` in this process, from the legal moves."""

    replayable = True   # as builtin seats: the move is a function of the turn alone

    def validate(self, ref: str) -> None:
        """Only `policy`."""
        if ref != "policy":
            raise InvalidSeats(f"no bench seat {ref!r}")

    def describe(self, ref: str) -> dict:
        """The seat's name."""
        return {"name": BENCH_SEAT}

    def choose(self, turn: Turn, ref: str) -> Choice:
        """The policy's move."""
        return Choice(bench_move(turn.game.legal_moves(turn.state, turn.seat),
                                 turn.live.version, turn.seat))

    def rejected(self, ref: str, failure: dict, match_id: str, version: int) -> None:
        """The policy plays legal moves only; nothing to record."""


def make_arena(redis_url: str | None, queued: bool = False, queue: str | None = None) -> Arena:
    """An arena on a fresh key prefix (matches finish inline), with the bench seats."""
    settings = Settings(redis_url=redis_url, key_prefix=f"bench-{uuid.uuid4().hex[:8]}",
                        **({"queue_name": queue} if queue else {}))
    bench = Plugin(name="bench", drivers=lambda store, settings: {"bench": BenchDriver()})
    plugins = [arena_parts(inline=True, loopback=True), bench]
    return assemble(settings, plugins, queued).extensions["arena"]


def cleanup(arena: Arena) -> None:
    """Delete every key of the arena's prefix."""
    store = arena.service.store
    keys = list(store.redis.scan_iter(f"{store.prefix}:*", count=1000))
    for i in range(0, len(keys), 1000):
        store.redis.delete(*keys[i:i + 1000])


def rules_alone(game, players: int, seeds) -> Run:
    """The bare engine loop with the policy: no store, no runner, no bots' requests."""
    run, start, cpu = Run(), time.perf_counter(), time.thread_time()
    for seed in seeds:
        _, state = engine.start(game, players, None, seed)
        log = []
        while len(log) < defaults.MAX_MOVES:
            decisions = game.pending(state)
            if not decisions:
                break
            seat = decisions[0].seat
            move = bench_move(game.legal_moves(state, seat), len(log), seat)
            state, _ = engine.play(game, state, len(log), seat, move)
            log.append((seat, move))
        run.logs.append(log)
    run.seconds, run.cpu_seconds = time.perf_counter() - start, time.thread_time() - cpu
    run.moves = sum(len(log) for log in run.logs)
    return run


def play_matches(arena: Arena, game: str, seats: list, seeds) -> Run:
    """Create and run each match to its end in this thread; then read back the logs."""
    run, ids = Run(), []
    with RoundTrips() as trips:
        start, cpu = time.perf_counter(), time.thread_time()
        for seed in seeds:
            created = arena.create_match(game, seats, None, seed, rated=False)
            while runner.advance(arena.service, created.meta.id):
                pass
            ids.append(created.meta.id)
        run.seconds, run.cpu_seconds = time.perf_counter() - start, time.thread_time() - cpu
    run.round_trips = trips.count
    for match_id in ids:
        entries = arena.service.store.log(match_id)
        run.logs.append([(e["seat"], e["move"]) for e in entries])
        run.by_referee += sum(1 for e in entries if e.get("by") == "referee")
        run.forfeits += len(arena.service.store.live(match_id).forfeits)
    run.moves = sum(len(log) for log in run.logs)
    return run


def http_seats(arena: Arena, game: str, players: int, urls: list) -> list:
    """Register the bench bots (one URL may be several entrants) and seat them in turn."""
    return [f"bot:{arena.bots.register(f'bench{i}', urls[i % len(urls)], [game], 'bench', [game], once=False)['id']}"
            for i in range(players)]


def floor_ms(url: str, calls: int = 2000) -> float:
    """Milliseconds of one loopback keep-alive HTTP round trip to the bot's process (POST
    /ping, a small JSON body, TCP_NODELAY): the least a move over HTTP can cost."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port)
    conn.connect()
    conn.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    body, headers = b'{"ping":1}', {"Content-Type": "application/json"}
    try:
        for i in range(calls + 100):  # the first 100 warm up
            if i == 100:
                start = time.perf_counter()
            conn.request("POST", "/ping", body, headers)
            conn.getresponse().read()
        return (time.perf_counter() - start) / calls * 1000
    finally:
        conn.close()


def matches_per_second(game: str, seats_of, players: int, seeds, workers: int,
                       redis_url: str) -> tuple[float, int]:
    """Queue the matches on `workers` `referee worker` processes: (matches finished per
    second, seats forfeited). `seats_of(arena)` gives the seats."""
    queue = f"bench-{uuid.uuid4().hex[:8]}"
    arena = make_arena(redis_url, queued=True, queue=queue)
    seats = seats_of(arena)
    env = {**os.environ, "REDIS_URL": redis_url, "REFEREE_PREFIX": arena.service.store.prefix,
           "REFEREE_QUEUE": queue, "REFEREE_BOT_ALLOW": "127.0.0.0/8"}  # the bench bots
    referee = os.path.join(os.path.dirname(sys.executable), "referee")
    procs = [subprocess.Popen([referee, "worker"], env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL) for _ in range(workers)]
    try:
        time.sleep(1.0)  # let the workers start before the clock does
        start = time.perf_counter()
        ids = [arena.create_match(game, seats, None, s, rated=False).meta.id for s in seeds]
        lives = _until_over(arena.service.store, ids)
        rate = len(ids) / (time.perf_counter() - start)
        return rate, sum(len(live.forfeits) for live in lives)
    finally:
        for proc in procs:
            proc.terminate()
            proc.wait(10)
        cleanup(arena)
        drop_queue(redis.Redis.from_url(redis_url), queue)


def _until_over(store, ids: list[str]) -> list:
    """Wait until every match ended; their live records. Every seat is a bot's, so a match
    runs exactly while it is in the janitor's set of matches a bot must act in: polling that
    costs one small round trip (its shards pipelined) (polling the live records, state and all, every 10 ms took
    a tenth of a core from the workers being measured, the most on Yínzi's large states)."""
    wanted = set(ids)
    while True:
        time.sleep(0.01)
        if wanted.intersection(store.automated_ids()):
            continue
        lives = [store.live(m) for m in ids]
        if all(live.status != MatchStatus.ACTIVE for live in lives):
            return lives
