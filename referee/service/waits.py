"""Held waits: one pub/sub listener per process fans match changes out to every waiter, and
caps on how many waits a caller and the whole process may hold.

Before, each long poll opened a pub/sub connection of its own and took a second connection
from the client's pool to read the match: 60 held polls on the embedded default (a pool of
100) answered 500 `MaxConnectionsError` when the match changed. Now a process holds one
pub/sub connection (a pattern subscription to every match's change channel) whatever the
number of waiters; a waiter is a `threading.Event` under its match id, which the listener sets
when that match commits. Under gunicorn's gevent worker (the README's deployment) threads and
events are greenlets, so a held wait costs no worker thread.
"""

from __future__ import annotations

import logging
import threading
import time
from contextlib import contextmanager
from typing import Callable

import redis

from referee.core.errors import RefereeError

log = logging.getLogger(__name__)

RECHECK_S = 1.0
"""How often a waiter re-reads the match while the listener is not subscribed (Redis down,
reconnecting): no change is missed, it is seen late at worst."""
RECONNECT_S = 0.5
"""Pause of the listener before it subscribes again after losing Redis."""


class TooManyWaits(RefereeError):
    """This caller already holds as many waits as one caller may (REFEREE_WAITS_PER_CALLER)."""

    code = "wait.too_many"
    status = 429
    retry_after = 5


class WaitCapacity(RefereeError):
    """This server process holds as many waits as it takes (REFEREE_MAX_WAITS)."""

    code = "wait.capacity"
    status = 503
    retry_after = 5


class WaitSlots:
    """Counts the waits held in this process, in total and per caller (a seat token's hash,
    or a spectator's address)."""

    def __init__(self, total: int, per_caller: int):
        self.total, self.per_caller = total, per_caller
        self._held: dict[str, int] = {}
        self._count = 0
        self._lock = threading.Lock()

    def acquire(self, caller: str) -> None:
        """Take a slot for `caller`; raises TooManyWaits or WaitCapacity when none is free."""
        with self._lock:
            if self._held.get(caller, 0) >= self.per_caller:
                raise TooManyWaits(f"this caller already holds {self.per_caller} waits (long "
                                   f"polls and event streams); close one or retry later")
            if self._count >= self.total:
                raise WaitCapacity(f"this server holds its maximum of {self.total} waits; "
                                   f"retry later")
            self._held[caller] = self._held.get(caller, 0) + 1
            self._count += 1

    def release(self, caller: str) -> None:
        """Give back a slot taken by `acquire`."""
        with self._lock:
            left = self._held.get(caller, 0) - 1
            if left > 0:
                self._held[caller] = left
            else:
                self._held.pop(caller, None)
            self._count -= 1

    @contextmanager
    def hold(self, caller: str):
        """A slot for the duration of a `with` block."""
        self.acquire(caller)
        try:
            yield
        finally:
            self.release(caller)

    @property
    def held(self) -> int:
        """Waits held now."""
        return self._count


class ChangeHub:
    """One pattern subscription per process; wakes the waiters of a match when it commits."""

    def __init__(self, client: redis.Redis, pattern: str, match_of: Callable[[str], str]):
        """`pattern`: the change channels (e.g. `ref:m:*:events`); `match_of(channel)`: the
        match id a channel belongs to."""
        self.client, self.pattern, self.match_of = client, pattern, match_of
        self._waiters: dict[str, set[threading.Event]] = {}
        self._lock = threading.Lock()
        self._subscribed = threading.Event()
        self._thread: threading.Thread | None = None
        self._stop = False

    def _ensure_listening(self) -> None:
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._stop = False
                self._thread = threading.Thread(target=self._listen, name="referee-changes",
                                                 daemon=True)
                self._thread.start()
        self._subscribed.wait(RECHECK_S)

    def close(self) -> None:
        """Stop the listener (it ends within a second)."""
        self._stop = True

    def _listen(self) -> None:
        while not self._stop:
            pubsub = self.client.pubsub(ignore_subscribe_messages=True)
            try:
                pubsub.psubscribe(self.pattern)
                self._subscribed.set()
                self._wake_all()  # a change may have gone by while we were not subscribed
                while not self._stop:
                    message = pubsub.get_message(timeout=1.0)
                    if message is not None and message.get("type") == "pmessage":
                        self._wake(self.match_of(message["channel"]))
            except (redis.RedisError, OSError) as err:
                log.warning("change listener lost Redis (%s); subscribing again", err)
            finally:
                self._subscribed.clear()
                self._close_quietly(pubsub)
            if not self._stop:
                time.sleep(RECONNECT_S)

    @staticmethod
    def _close_quietly(pubsub) -> None:
        try:
            pubsub.close()
        except (redis.RedisError, OSError):
            pass

    def _wake(self, match_id: str) -> None:
        with self._lock:
            events = list(self._waiters.get(match_id, ()))
        for event in events:
            event.set()

    def _wake_all(self) -> None:
        with self._lock:
            events = [e for group in self._waiters.values() for e in group]
        for event in events:
            event.set()

    @contextmanager
    def watch(self, match_id: str):
        """An Event set whenever `match_id` commits, for the duration of a `with` block.

        Register first, then read the match: a change between the two sets the event."""
        self._ensure_listening()
        event = threading.Event()
        with self._lock:
            self._waiters.setdefault(match_id, set()).add(event)
        try:
            yield event
        finally:
            with self._lock:
                group = self._waiters.get(match_id)
                if group is not None:
                    group.discard(event)
                    if not group:
                        del self._waiters[match_id]

    def wait_on(self, event: threading.Event, timeout: float) -> bool:
        """Sleep until `event` is set or `timeout` passes (at most RECHECK_S while the
        listener is not subscribed), then clear it; False when nothing can have changed."""
        subscribed = self._subscribed.is_set()
        if not subscribed:
            timeout = min(timeout, RECHECK_S)
        woken = event.wait(max(timeout, 0.0))
        event.clear()
        return woken or not subscribed

    def wait_for_change(self, match_id: str, version: int, timeout: float, read):
        """Block up to `timeout` s until `read()` (the match's live record) is past `version`;
        returns the last record read (None if the match is gone)."""
        deadline = time.monotonic() + timeout
        with self.watch(match_id) as event:
            while True:
                live = read()
                remaining = deadline - time.monotonic()
                if live is None or live.version != version or remaining <= 0:
                    return live
                self.wait_on(event, remaining)
