"""A per-bot cap on calls in flight, shared by every worker process through Redis.

Each call in flight holds a slot: a member of a sorted set scored by when the slot expires
(the call's own deadline plus a margin), so a worker that dies mid-call frees its slots once
their calls could no longer be running. Taking a slot is one MULTI/EXEC: drop expired slots,
add ours, count; over the cap, ours is removed again. Nobody is ever admitted over the cap.

At the cap, a call waits for a free slot within its own deadline (polling every 2-50 ms, so
not strictly first come, first served); if none frees up in time it is the bot's
`bot.timeout`: the bot is slower than the matches it entered. The wait counts in the call's
latency, as the match waited for it.
"""

from __future__ import annotations

import os
import secrets
import threading
import time

MAX_CALLS_ENV = "REFEREE_BOT_MAX_CALLS"
DEFAULT_MAX_CALLS = 8
EXPIRY_MARGIN_S = 5.0
"""Slots outlive their call's deadline by this much (clock skew between workers, slow Redis)."""
KEY_TTL_S = 4000
"""The set itself goes after this long without calls: longer than any call (move limit plus
bank), so it never takes a live slot with it."""


def max_calls_setting(environ=None) -> int:
    """The cap from $REFEREE_BOT_MAX_CALLS (default 8; at least 1)."""
    environ = os.environ if environ is None else environ
    return max(1, int(environ.get(MAX_CALLS_ENV, DEFAULT_MAX_CALLS)))


class CallSlots:
    """Slots for one registry's bots under `<key_of(bot_id)>`.

    A runner may defer giving a slot back (`defer`): the release then rides on its next
    acquire (or `release_deferred`, when the runner stops), so a move of a bot match costs
    one round trip for its slot, not two. Deferred slots are kept per thread: each runner
    gives back its own."""

    def __init__(self, redis, key_of, cap: int):
        self.redis, self.key_of, self.cap = redis, key_of, cap
        self._local = threading.local()

    def acquire(self, bot_id: str, deadline: float) -> str | None:
        """A slot token, waiting until `deadline` (time.monotonic()); None if none freed up."""
        return self.acquire_reading(bot_id, deadline)[0]

    def acquire_reading(self, bot_id: str, deadline: float, read: str | None = None):
        """`acquire`, whose first round trip also gives back this thread's deferred slots and
        reads the key `read`: (the token or None, the value read)."""
        key, token = self.key_of(bot_id), secrets.token_hex(8)
        pause, first, value = 0.002, True, None
        while True:
            left = deadline - time.monotonic()
            now = time.time()
            pipe = self.redis.pipeline(transaction=True)
            if first:
                self._queue_deferred(pipe)
                if read is not None:
                    pipe.get(read)
            pipe.zremrangebyscore(key, "-inf", now)
            pipe.zadd(key, {token: now + max(left, 0) + EXPIRY_MARGIN_S})
            pipe.zcard(key)
            pipe.expire(key, KEY_TTL_S)
            results = pipe.execute()
            if first and read is not None:
                value = results[-5]
            first = False
            if results[-2] <= self.cap:
                return token, value
            self.redis.zrem(key, token)
            if left <= pause:
                return None, value
            time.sleep(min(pause, left))
            pause = min(pause * 2, 0.05)

    def release(self, bot_id: str, token: str) -> None:
        """Give the slot back."""
        self.redis.zrem(self.key_of(bot_id), token)

    def defer(self, bot_id: str, token: str) -> None:
        """Give the slot back with this thread's next acquire or `release_deferred`."""
        self._deferred().append((self.key_of(bot_id), token))

    def release_deferred(self, pipe) -> None:
        """Queue on `pipe` the release of this thread's deferred slots."""
        self._queue_deferred(pipe)

    def _queue_deferred(self, pipe) -> None:
        deferred = self._deferred()
        for key, token in deferred:
            pipe.zrem(key, token)
        deferred.clear()

    def _deferred(self) -> list:
        deferred = getattr(self._local, "deferred", None)
        if deferred is None:
            deferred = self._local.deferred = []
        return deferred

    def in_flight(self, bot_id: str) -> int:
        """Calls to the bot holding a slot now (expired ones not counted)."""
        return int(self.redis.zcount(self.key_of(bot_id), time.time(), "+inf"))
