"""Held waits: one pub/sub listener per process fans match changes out to every waiter, and
caps on how many waits a caller and the whole process may hold.

Before, each long poll opened a pub/sub connection of its own and took a second connection
from the client's pool to read the match: 60 held polls on the embedded default (a pool of
100) answered 500 `MaxConnectionsError` when the match changed. Now a process holds one
pub/sub connection whatever the number of waiters, subscribed to the change channels of the
matches it has waiters on; a waiter is a `threading.Event` under its match id, which the
listener sets when that match commits. Under gunicorn's gevent worker (the README's deployment) threads and
events are greenlets, so a held wait costs no worker thread.

Why one module: `ChangeHub` is one listener thread and the subscriptions, waiters and lock it
shares with the request threads; its invariants (who subscribes, who wakes whom, what happens
when the connection is lost) hold across all its methods, so they are read together, with the
caps on waits beside them.
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
LINGER_S = 10.0
"""How long a match's channel stays subscribed after its last waiter left: a bot that
long-polls in a loop (wait, move, wait) does not subscribe again for each poll."""
SWEEP_S = 1.0
"""How often the listener unsubscribes the channels that lingered long enough."""


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


class _Watch:
    """What `ChangeHub.watch` gives a waiter: its event, set when the match commits, and its
    match's `ready`, set while the match's channel is subscribed on the live connection."""

    __slots__ = ("event", "ready")

    def __init__(self, event: threading.Event, ready: threading.Event):
        self.event, self.ready = event, ready


class ChangeHub:
    """One pub/sub connection per process, subscribed to the change channels of the matches
    this process has waiters on (and of those that had one within LINGER_S); wakes the
    waiters of a match when it commits.

    It used to hold a pattern subscription to every match's channel: each API process then
    read every change of every match, watched or not, about 17 us of CPU each (with 4
    gunicorn workers, 70 us of API CPU per move of any match, the arena's included)."""

    def __init__(self, client: redis.Redis, channel_of: Callable[[str], str],
                 match_of: Callable[[str], str], control: str):
        """`channel_of(match_id)`: a match's change channel; `match_of(channel)`: the match
        id of such a channel; `control`: a channel of this hub's own, which wakes its
        listener to subscribe a match."""
        self.client, self.channel_of, self.match_of = client, channel_of, match_of
        self.control = control
        self._waiters: dict[str, set[threading.Event]] = {}
        self._ready: dict[str, threading.Event] = {}   # the matches the listener tracks
        self._to_subscribe: set[str] = set()
        self._left: dict[str, float] = {}   # when a match's last waiter left
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._stop = False
        # the listener thread's own: channels sent SUBSCRIBE (and not UNSUBSCRIBE) on the
        # live connection, and per match the subscribe replies still to come
        self._sent: set[str] = set()
        self._pending: dict[str, int] = {}

    def _ensure_listening(self) -> None:
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._stop = False
                self._thread = threading.Thread(target=self._listen, name="referee-changes",
                                                daemon=True)
                self._thread.start()

    def close(self) -> None:
        """Stop the listener (it ends within a second)."""
        self._stop = True

    def _listen(self) -> None:
        while not self._stop:
            pubsub = self.client.pubsub()
            try:
                pubsub.subscribe(self.control)
                self._sent, self._pending = set(), {}
                self._subscribe_asked(pubsub)
                self._wake_all()  # a change may have gone by while we were not subscribed
                sweep_at = time.monotonic() + SWEEP_S
                while not self._stop:
                    message = pubsub.get_message(timeout=1.0)
                    if message is not None:
                        self._handle(message)
                    self._subscribe_asked(pubsub)
                    if time.monotonic() >= sweep_at:
                        self._unsubscribe_left(pubsub)
                        sweep_at = time.monotonic() + SWEEP_S
            except (redis.RedisError, OSError) as err:
                log.warning("change listener lost Redis (%s); subscribing again", err)
            finally:
                self._lost()
                self._close_quietly(pubsub)
            if not self._stop:
                time.sleep(RECONNECT_S)

    def _subscribe_asked(self, pubsub) -> None:
        """SUBSCRIBE the channels of the matches waiters asked for since the last time."""
        with self._lock:
            asked, self._to_subscribe = self._to_subscribe, set()
        new = [m for m in asked if m not in self._sent]
        for match_id in new:
            self._sent.add(match_id)
            self._pending[match_id] = self._pending.get(match_id, 0) + 1
        if new:
            pubsub.subscribe(*(self.channel_of(m) for m in new))

    def _unsubscribe_left(self, pubsub) -> None:
        """UNSUBSCRIBE the matches whose last waiter left more than LINGER_S ago."""
        now, gone = time.monotonic(), []
        with self._lock:
            for match_id, left in list(self._left.items()):
                if match_id in self._waiters:
                    del self._left[match_id]
                elif now - left >= LINGER_S:
                    del self._left[match_id]
                    self._ready.pop(match_id, None)   # a later waiter asks again
                    gone.append(match_id)
        for match_id in gone:
            if not self._pending.get(match_id):
                self._pending.pop(match_id, None)   # else its last reply still comes
        gone = [m for m in gone if m in self._sent]
        self._sent.difference_update(gone)
        if gone:
            pubsub.unsubscribe(*(self.channel_of(m) for m in gone))

    def _handle(self, message: dict) -> None:
        kind, channel = message.get("type"), message.get("channel")
        if isinstance(channel, bytes):
            channel = channel.decode()
        if channel == self.control:
            return   # a wake-up: the loop subscribes what was asked
        if kind == "message":
            self._wake(self.match_of(channel))
        elif kind == "subscribe":
            # ready once the last SUBSCRIBE sent for it is answered (an UNSUBSCRIBE and a
            # SUBSCRIBE may be under way behind an earlier reply)
            match_id = self.match_of(channel)
            left = self._pending[match_id] = max(0, self._pending.get(match_id, 0) - 1)
            if left == 0 and match_id not in self._sent:
                del self._pending[match_id]   # unsubscribed meanwhile: nothing to count
            elif left == 0:
                with self._lock:
                    ready = self._ready.get(match_id)
                if ready is not None:
                    ready.set()

    def _lost(self) -> None:
        """The connection is gone: nothing is subscribed; the matches with waiters are asked
        again, those without are forgotten."""
        with self._lock:
            for match_id in list(self._ready):
                self._ready[match_id].clear()
                if match_id not in self._waiters:
                    del self._ready[match_id]
                    self._left.pop(match_id, None)
            self._to_subscribe = set(self._waiters)

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
        """A `_Watch` whose event is set whenever `match_id` commits, for the duration of a
        `with` block.

        Register first, then read the match: a change between the two sets the event. So
        the block starts once the match's channel is subscribed (at most RECHECK_S later:
        the waiter then re-reads every RECHECK_S until it is)."""
        self._ensure_listening()
        event = threading.Event()
        with self._lock:
            self._waiters.setdefault(match_id, set()).add(event)
            ready = self._ready.get(match_id)
            ask = ready is None
            if ask:
                ready = self._ready[match_id] = threading.Event()
                self._to_subscribe.add(match_id)
        try:
            if ask:
                self._wake_listener()
            ready.wait(RECHECK_S)
            yield _Watch(event, ready)
        finally:
            with self._lock:
                group = self._waiters.get(match_id)
                if group is not None:
                    group.discard(event)
                    if not group:
                        del self._waiters[match_id]
                        self._left[match_id] = time.monotonic()

    def _wake_listener(self) -> None:
        try:
            self.client.publish(self.control, "")
        except (redis.RedisError, OSError):
            pass   # the listener reconnects and subscribes what was asked

    def wait_on(self, watch: _Watch, timeout: float) -> bool:
        """Sleep until the watch's event is set or `timeout` passes (at most RECHECK_S while
        its match's channel is not subscribed), then clear it; False when nothing can have
        changed."""
        subscribed = watch.ready.is_set()
        if not subscribed:
            timeout = min(timeout, RECHECK_S)
        woken = watch.event.wait(max(timeout, 0.0))
        watch.event.clear()
        return woken or not subscribed

    def wait_for_change(self, match_id: str, version: int, timeout: float, read):
        """Block up to `timeout` s until `read()` (the match's live record) is past `version`;
        returns the last record read (None if the match is gone)."""
        deadline = time.monotonic() + timeout
        with self.watch(match_id) as watch:
            while True:
                live = read()
                remaining = deadline - time.monotonic()
                if live is None or live.version != version or remaining <= 0:
                    return live
                self.wait_on(watch, remaining)
