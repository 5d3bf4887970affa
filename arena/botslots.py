"""A per-bot cap on calls in flight, shared by every worker process through Redis.

Each call in flight holds a slot: a member of a sorted set scored by when the slot expires
(the call's own deadline plus a margin), so a worker that dies mid-call frees its slots once
their calls could no longer be running. Taking a slot is one script: drop expired slots, add
ours, count; over the cap, ours is removed again. Nobody is ever admitted over the cap.

At the cap, a call waits for a free slot within its own deadline (polling every 2-50 ms, so
not strictly first come, first served); if none frees up in time it is the bot's
`bot.timeout`: the bot is slower than the matches it entered. The wait counts in the call's
latency, as the match waited for it.
"""

from __future__ import annotations

import os
import threading
import time

from arena.tokens import token_hex
from referee.service.scripts import Rider, hot_script

MAX_CALLS_ENV = "REFEREE_BOT_MAX_CALLS"
DEFAULT_MAX_CALLS = 8
EXPIRY_MARGIN_S = 5.0
"""Slots outlive their call's deadline by this much (clock skew between workers, slow Redis)."""
RIDE_SLACK_S = 1.0
"""A slot taken ahead of its call (`ride`) is held this much longer than the call could last,
and serves a call that starts within this time."""
KEY_TTL_S = 4000
"""The set itself goes after this long without calls: longer than any call (move limit plus
bank), so it never takes a live slot with it."""


def max_calls_setting(environ=None) -> int:
    """The cap from $REFEREE_BOT_MAX_CALLS (default 8; at least 1)."""
    environ = os.environ if environ is None else environ
    return max(1, int(environ.get(MAX_CALLS_ENV, DEFAULT_MAX_CALLS)))


_TAKE = """
for i = 1, tonumber(ARGV[6]) do redis.call('ZREM', KEYS[2 + i], ARGV[6 + i]) end
local value = false
if KEYS[2] ~= '' then value = redis.call('GET', KEYS[2]) end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
local count = redis.call('ZCARD', KEYS[1])
redis.call('EXPIRE', KEYS[1], ARGV[5])
if count > tonumber(ARGV[4]) then
  redis.call('ZREM', KEYS[1], ARGV[3])
  return {0, value}
end
return {1, value}
"""
# One attempt at a slot, atomic: give back the deferred slots (KEYS[3..] with their tokens),
# read KEYS[2] (unless ''), drop expired slots, add ours, count, and over the cap take ours
# out again. {1 or 0, the value read}. A hot script (referee/service/scripts.py): one
# EVALSHA over our own sockets on a real Redis, where a seven-command MULTI through redis-py
# cost some 0.3 ms of CPU a bot move.


class CallSlots:
    """Slots for one registry's bots under `<key_of(bot_id)>`.

    A runner may defer giving a slot back (`defer`): the release then rides on its next
    acquire (or `release_deferred`, when the runner stops), so a move of a bot match costs
    one round trip for its slot, not two. It may also take the slot of its next call in the
    round trip of its commit (`ride`): the call then finds it ready, and a move costs no
    round trip of its own for its slot. Deferred and ready slots are kept per thread: each
    runner gives back its own."""

    def __init__(self, redis, key_of, cap: int):
        self.redis, self.key_of, self.cap = redis, key_of, cap
        self._local = threading.local()
        self._take = hot_script(redis, _TAKE)

    def acquire(self, bot_id: str, deadline: float) -> str | None:
        """A slot token, waiting until `deadline` (time.monotonic()); None if none freed up."""
        return self.acquire_reading(bot_id, deadline)[0]

    def acquire_reading(self, bot_id: str, deadline: float, read: str | None = None):
        """`acquire`, whose first round trip also gives back this thread's deferred slots and
        reads the key `read`: (the token or None, the value read). A slot `ride` took for
        this call, held long enough, is used at once (with the value it read)."""
        ready = self._ready(bot_id, deadline, read)
        if ready is not None:
            return ready
        key, token = self.key_of(bot_id), token_hex(8)
        pause, value = 0.002, None
        deferred = list(self._deferred())
        self._deferred().clear()
        while True:
            left = deadline - time.monotonic()
            now = time.time()
            taken, found = self._take(
                keys=[key, read or "", *[k for k, _ in deferred]],
                args=[repr(now), repr(now + max(left, 0) + EXPIRY_MARGIN_S), token, self.cap,
                      KEY_TTL_S, len(deferred), *[t for _, t in deferred]])
            if read is not None and value is None:
                value = found
            read, deferred = None, []   # the first attempt read and gave back
            if taken:
                return token, value
            if left <= pause:
                return None, value
            time.sleep(min(pause, left))
            pause = min(pause * 2, 0.05)

    def ride(self, bot_id: str, timeout_s: float, read: str | None = None) -> Rider:
        """One attempt at a slot for a call of at most `timeout_s` that this thread makes
        next, as a script to send with another (scripts.Rider): it also gives back the
        deferred slots and reads `read`, as an acquire does. Taken with a commit that
        landed, the slot waits for the call (`acquire_reading`); with one that did not, it
        is given back at once. Not taken (the bot is at its cap), the call waits for one as
        usual: nobody is ever admitted over the cap."""
        key, token = self.key_of(bot_id), token_hex(8)
        deferred = list(self._deferred())
        now = time.time()
        expires = now + timeout_s + EXPIRY_MARGIN_S + RIDE_SLACK_S

        def done(reply, landed: bool) -> None:
            if not isinstance(reply, (list, tuple)):   # it may have run: give it back later
                self.defer(bot_id, token)
                return
            mine = self._deferred()   # the script gave these back
            mine[:] = [d for d in mine if d not in deferred]
            if not reply[0]:
                return
            if landed:
                self._hold((bot_id, token, expires, read, reply[1]))
            else:   # a stale commit: the call it was for will not be made
                self.redis.zrem(key, token)
        return Rider(self._take, [key, read or "", *[k for k, _ in deferred]],
                     [repr(now), repr(expires), token, self.cap, KEY_TTL_S, len(deferred),
                      *[t for _, t in deferred]], done)

    def _hold(self, ready: tuple) -> None:
        """Keep a slot taken ahead for the next call (one at most: an unused one goes back
        with the next acquire)."""
        old = getattr(self._local, "ready", None)
        if old is not None:
            self.defer(old[0], old[1])
        self._local.ready = ready

    def _ready(self, bot_id: str, deadline: float, read: str | None):
        """The slot taken ahead for this call, as (token, value read), if it is this bot's,
        read `read` and is held past the call's deadline plus the margin; else None (and a
        slot taken ahead is deferred: given back with the next take)."""
        ready = getattr(self._local, "ready", None)
        if ready is None:
            return None
        self._local.ready = None
        ready_bot, token, expires, ready_read, value = ready
        if ready_bot == bot_id and ready_read == read and \
                expires >= time.time() + (deadline - time.monotonic()) + EXPIRY_MARGIN_S:
            return token, value
        self.defer(ready_bot, token)
        return None

    def release(self, bot_id: str, token: str) -> None:
        """Give the slot back."""
        self.redis.zrem(self.key_of(bot_id), token)

    def defer(self, bot_id: str, token: str) -> None:
        """Give the slot back with this thread's next acquire or `release_deferred`."""
        self._deferred().append((self.key_of(bot_id), token))

    def release_deferred(self, pipe) -> None:
        """Queue on `pipe` the release of this thread's deferred slots (and of a slot taken
        ahead for a call that was not made)."""
        ready = getattr(self._local, "ready", None)
        if ready is not None:
            self._local.ready = None
            self.defer(ready[0], ready[1])
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

    def read_in_flight(self, pipe, bot_id: str) -> None:
        """Queue `in_flight` on `pipe` (one reply, a count)."""
        pipe.zcount(self.key_of(bot_id), time.time(), "+inf")
