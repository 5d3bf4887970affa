"""Bot health figures: requests, latencies, failures by kind, the last error, matches.

Counts of requests and latencies wait in the worker between writes (`Tally`): a bot match's
moves never wait on Redis for them (written on every move, they cost a round trip a move,
~0.25 ms). They go out every FLUSH_REQUESTS requests or FLUSH_SECONDS, with a failure (written
at once), when a match ends (before its finishing counts it) and when the runner stops.
"""

from __future__ import annotations

import json
import threading
import time

LATENCY_SAMPLES = 1000
FAILURE_KINDS = {"bot.timeout": "timeouts", "bot.unreachable": "crashes",
                 "bot.http_error": "crashes", "bot.bad_response": "bad_responses",
                 "bot.signature_refused": "signature_refusals",
                 "bot.illegal_move": "illegal_moves", "bot.stalling": "stalls",
                 "bot.url_refused": "crashes", "bot.disabled": "other"}
"""Which health counter each failure code counts towards."""

HEALTH_READS = 4
"""Replies of a bot's own health reads (stats, latencies, last error, calls in flight)."""

PUBLIC_FAILURE_KEYS = ("code",)
"""What of a failure record anyone may read in a bot's health (with its match, version, time
and log link); the rest is the owner's."""

FLUSH_REQUESTS = 100
"""Requests counted in this process before their counts are written."""
FLUSH_SECONDS = 2.0
"""...or seconds since the last write, whichever comes first (checked as requests come)."""


class Tally:
    """Requests and latencies per bot since the last write, shared by a process's threads."""

    def __init__(self):
        self._lock = threading.Lock()
        self._counts: dict[str, list] = {}  # bot id -> [requests, [latency ms, ...]]
        self._requests = 0
        self._since = time.monotonic()

    def add(self, bot_id: str, latency_ms: float) -> bool:
        """Count one request; True when the counts are due to be written."""
        with self._lock:
            counts = self._counts.setdefault(bot_id, [0, []])
            counts[0] += 1
            counts[1].append(round(latency_ms, 3))
            self._requests += 1
            return (self._requests >= FLUSH_REQUESTS
                    or time.monotonic() - self._since >= FLUSH_SECONDS)

    def take(self) -> dict[str, list]:
        """The counts since the last take, per bot ({} if none); they start again at zero."""
        with self._lock:
            counts, self._counts, self._requests = self._counts, {}, 0
            self._since = time.monotonic()
            return counts


class HealthFigures:
    """The health half of BotRegistry (which gives it `redis`, `_key`, `get`, `tally`, `slots`
    and `standing`)."""

    def record_move(self, bot_id: str, latency_ms: float, failure: dict | None,
                    match_id: str, version: int, private: dict | None = None) -> None:
        """Count one request to the bot: its latency and, if it failed, why (`private`:
        what it sent, kept for its owner). The counts wait in this process (see `Tally`)
        and go out every FLUSH_REQUESTS requests or FLUSH_SECONDS, with a failure, when a
        match ends and when the runner stops: a bot match's moves do not wait on them."""
        if not self.tally.add(bot_id, latency_ms) and failure is None:
            return
        pipe = self.redis.pipeline(transaction=False)
        if failure is not None:
            self._failure(pipe, bot_id, failure, match_id, version, private)
        self._write_tally(pipe)
        pipe.execute()

    def flush(self) -> None:
        """Write the counts waiting in this process and give back this thread's deferred
        call slots: one round trip, none when there is nothing to write."""
        pipe = self.redis.pipeline(transaction=False)
        self.slots.release_deferred(pipe)
        self._write_tally(pipe)
        if len(pipe):
            pipe.execute()

    def _write_tally(self, pipe) -> None:
        for bot_id, (requests, latencies) in self.tally.take().items():
            pipe.hincrby(self._key(bot_id, "stats"), "moves", requests)
            pipe.lpush(self._key(bot_id, "lat"), *latencies)
            pipe.ltrim(self._key(bot_id, "lat"), 0, LATENCY_SAMPLES - 1)

    def record_failure(self, bot_id: str, failure: dict, match_id: str, version: int) -> None:
        """Count a failure found after the bot answered (an illegal move)."""
        pipe = self.redis.pipeline(transaction=False)
        self._failure(pipe, bot_id, failure, match_id, version)
        pipe.execute()

    def _failure(self, pipe, bot_id, failure, match_id, version, private=None) -> None:
        """The public last error keeps the code and our own figures; the full record and
        what the bot sent go to the owner-only key."""
        where = {"match": match_id, "version": version, "at": time.time(),
                 "log": f"/v1/matches/{match_id}/log"}
        public = {k: failure[k] for k in PUBLIC_FAILURE_KEYS if k in failure}
        pipe.hincrby(self._key(bot_id, "stats"), FAILURE_KINDS.get(failure["code"], "other"), 1)
        pipe.set(self._key(bot_id, "last_error"), json.dumps({**public, **where}))
        pipe.set(self._key(bot_id, "private"), json.dumps(
            {**failure, **where, **({"sent": private} if private else {})}))

    def record_match(self, bot_id: str, forfeit: dict | None = None) -> None:
        """Count a finished match the bot played; `forfeit`, its seat's forfeit record if it
        forfeited (failed matches in a row disable the bot)."""
        pipe = self.redis.pipeline(transaction=False)
        self._write_tally(pipe)  # the moves before the match, as its figures may be read
        pipe.hincrby(self._key(bot_id, "stats"), "matches", 1)
        pipe.execute()
        self.standing.match_ended(bot_id, forfeit)

    def enable(self, bot_id: str) -> dict:
        """Re-enable a disabled bot (its owner or an organiser decided, at the route).
        Raises BotNotFound."""
        bot = self.get(bot_id)
        self.standing.enable(bot_id)
        return bot

    def disable(self, bot_id: str, reason: str) -> dict:
        """Disable a bot by an organiser's decision. Raises BotNotFound."""
        bot = self.get(bot_id)
        self.standing.disable(bot_id, reason)
        return bot

    def health(self, bot_id: str) -> dict:
        """Matches, moves, failures by kind, latency p50/p95, and the last error."""
        return self.health_many([bot_id])[0]

    def health_many(self, bot_ids: list[str]) -> list[dict]:
        """`health` of each bot, all read in one round trip (a page of bots took 7 each)."""
        pipe = self.redis.pipeline(transaction=False)
        for bot_id in bot_ids:
            self._read_health(pipe, bot_id)
        replies, size = pipe.execute(), HEALTH_READS + self.standing.FIGURES_READS
        return [self._health_from(replies[i * size:(i + 1) * size]) for i in range(len(bot_ids))]

    def _read_health(self, pipe, bot_id: str) -> None:
        pipe.hgetall(self._key(bot_id, "stats"))
        pipe.lrange(self._key(bot_id, "lat"), 0, -1)
        pipe.get(self._key(bot_id, "last_error"))
        self.slots.read_in_flight(pipe, bot_id)
        self.standing.read_figures(pipe, bot_id)

    def _health_from(self, replies: list) -> dict:
        stats, lat, last, in_flight = replies[:HEALTH_READS]
        stats = {k: int(v) for k, v in stats.items()}
        samples = sorted(float(x) for x in lat)
        figures = {k: stats.get(k, 0) for k in ("matches", "moves", "timeouts", "crashes",
                                                "bad_responses", "illegal_moves", "stalls",
                                                "signature_refusals")}
        figures["latency_ms"] = {"p50": _pct(samples, 0.50), "p95": _pct(samples, 0.95),
                                 "samples": len(samples)}
        figures["last_error"] = json.loads(last) if last else None
        return {**figures, **self.standing.figures_from(replies[HEALTH_READS:]),
                "calls_in_flight": int(in_flight)}


def _pct(samples: list, q: float):
    if not samples:
        return None
    return round(samples[min(len(samples) - 1, int(q * len(samples)))], 2)
