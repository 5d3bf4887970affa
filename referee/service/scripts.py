"""The store's two hot Lua scripts (read a live record, commit a move) sent over plain sockets.

A move or a prompt makes one Redis round trip, and redis-py spends about two hundred Python
calls on each (retries, observability hooks, the pool, its parser): measured inside a request,
some 0.3-0.4 ms of CPU of a 1-2 ms request, ten times the round trip itself. These scripts go
over a pool of our own sockets instead, encoding the command and reading the reply (RESP2) in a
few lines. On the embedded store (fakeredis) a script with a Python twin runs that instead
(embeddedscripts.py). Everything else, and any server we cannot reach by plain TCP (TLS, Unix
sockets), stays with redis-py (`hot_script` returns its Script there).

A script may carry a rider (`run_with_rider`): another hot script sent in the same round trip,
pipelined after it (the runner's commit takes the next bot's call slot so: one round trip a
bot move instead of two). It is generic: the service never learns what the rider does.

Failures keep redis-py's meaning: a Redis error reply raises redis.ResponseError, a broken
connection redis.ConnectionError. A pooled connection the server closed while it sat idle (a
restart, a timeout) is noticed before use, as redis-py does, and replaced; a command is never
sent twice, so a commit never runs twice.

Why one module: the socket pool, the script run over it and the riders pipelined in its round
trip are one hot path: a rider's script and the one it rides are sent by the pool's
`call_together` and fall back to running alone, so pool, script and riders would import one
another if split; the RESP codec they speak is in resp.py.
"""

from __future__ import annotations

import hashlib
import logging
import os
import select
import socket
import sys
import threading
import time
from dataclasses import dataclass
from typing import Callable

import redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError, ResponseError

from referee.service import embeddedscripts
# the RESP codec; as names of this module, so a counter may wrap _command (arena/roundtrips.py)
from referee.service.resp import answer as _answer, command as _command, reply as _reply, \
    send as _send
from referee.service.resp import Run

log = logging.getLogger(__name__)


_process = [os.getpid()]
# this process's id, kept by a fork hook: os.getpid() is a system call, and `Sockets._take`
# asked it on every command
os.register_at_fork(after_in_child=lambda: _process.__setitem__(0, os.getpid()))


def hot_script(client: redis.Redis, text: str, embedded=None):
    """A callable `(keys=[...], args=[...])` running `text` on the server of `client`: over our
    own sockets for a plain TCP server; on the embedded store, `embedded` (the same script in
    Python, embeddedscripts.py) when given; else redis-py's Script."""
    pool = getattr(client, "connection_pool", None)
    if pool is None or getattr(pool, "connection_class", None) is not redis.Connection:
        lua = client.register_script(text)
        python = embedded and embeddedscripts.embedded_runner(client, embedded, lua)
        return python or lua
    # redis-py before 8 leaves an unbounded pool at 2**31 connections: a list of that many
    # spare slots took 16 GB; no process here opens more than MOST_SOCKETS at once
    most = min(getattr(pool, "max_connections", None) or 100, MOST_SOCKETS)
    return SocketScript(Sockets(pool.connection_kwargs, most, getattr(pool, "timeout", None)),
                        text)


MOST_SOCKETS = 10_000
"""The most sockets one pool of ours opens: redis-py 8's default pool holds 100."""


REPLY_WAIT = 0.002
"""Seconds a gevent worker waits for a Redis reply in the kernel (the system's select, the
whole worker blocked) before it yields to its hub to wait there. A loopback Redis answers a
hot script in well under this; waiting through the hub instead costs a loop of it and more
system calls (a recv that finds nothing yet, then epoll's) on every round trip. The wait
ends early when the hub has work (`_hub_fd`), and the bound keeps a slow Redis from
stalling the worker's other requests for more than this per round trip
(tests/service/test_scripts.py)."""


def _cooperative() -> bool:
    """Whether sockets yield to gevent's hub (its monkey patching: the README's workers)."""
    monkey = sys.modules.get("gevent.monkey")
    return monkey is not None and monkey.is_module_patched("socket")


def _hub_fd() -> int | None:
    """The descriptor gevent's hub of this thread polls (its loop's epoll), or None: it reads
    as ready when any socket or watcher of the hub is, i.e. when another request of the
    worker could go on. A worker waiting for Redis in the kernel watches it too, so that it
    sleeps only while it has nothing else to do: under load (32 clients) it serves a ready
    request meanwhile instead of letting the machine switch to another process and back."""
    gevent = sys.modules.get("gevent")
    if gevent is None:
        return None
    fileno = getattr(gevent.get_hub().loop, "fileno", None)   # libev's and libuv's loops
    fd = fileno() if fileno is not None else None
    return fd if isinstance(fd, int) and fd >= 0 else None


def _plain_select():
    """The system's select, also under gevent's monkey patching (the README's gunicorn
    workers): gevent's, even with a zero timeout, yields to its hub after polling, a loop of
    the hub (about 20 µs of CPU) on every hot request for a check that never waits."""
    monkey = sys.modules.get("gevent.monkey")
    if monkey is not None and monkey.is_module_patched("select"):
        return monkey.get_original("select", "select")
    return select.select


FD_SETSIZE = 1024
"""The highest descriptor select() takes, plus one (glibc's fixed fd_set). A gevent worker
holding 2,000 long polls or event streams has sockets past it: select() then raised
"filedescriptor out of range" on every Redis round trip of the worker (`bench polls --held
2000`), so those go through poll(), which takes any descriptor."""


def _plain_poll():
    """The system's poll object maker, also under gevent's monkey patching (see
    `_plain_select`)."""
    monkey = sys.modules.get("gevent.monkey")
    if monkey is not None and monkey.is_module_patched("select"):
        return monkey.get_original("select", "poll")
    return select.poll


def _any_descriptor(plain_select, plain_poll):
    """A select(readable, [], [], timeout) for readability that takes any descriptor: the
    system's select while every one is below FD_SETSIZE (the hot path as it was), its poll
    past that."""
    def ready(readable, writable, exceptional, timeout):
        fds = [f if isinstance(f, int) else f.fileno() for f in readable]
        if max(fds, default=0) < FD_SETSIZE:
            return plain_select(readable, writable, exceptional, timeout)
        poller = plain_poll()
        for fd in fds:
            poller.register(fd, select.POLLIN)
        hit = {fd for fd, _ in poller.poll(None if timeout is None else timeout * 1000)}
        return [f for f, fd in zip(readable, fds) if fd in hit], [], []
    return ready


class Sockets:
    """A pool of plain connections to the server redis-py's pool points at (host, port, db,
    user and password as configured there): at most `most` open at once, a caller waiting up
    to `wait` seconds for one when all are busy, as redis-py's blocking pool does.

    Taking and returning a connection are single list operations, atomic under the GIL, with
    no lock: a threading.BoundedSemaphore and a Lock around them cost ~40,000 instructions a
    command under gevent, where the semaphore's Condition also yielded to the hub on every
    release (it asks whether its lock is held by trying to take it, and gevent's lock sleeps
    when that fails). Only a caller that finds every connection busy waits, on a Condition."""

    def __init__(self, settings: dict, most: int, wait: float | None):
        self.settings, self.wait, self.most = settings, wait, most
        self.server = tuple(settings.get(k) for k in ("host", "port", "db", "username"))
        self._ready = _any_descriptor(_plain_select(), _plain_poll())
        self._cooperative = _cooperative()
        self._reset()

    def _reset(self) -> None:
        self._pid = _process[0]
        self._idle: list = []               # open connections nobody is using
        self._spare = [None] * self.most    # one per connection that may still be opened
        self._waiters = 0
        self._freed = threading.Condition(threading.Lock())

    def _connect(self):
        s = self.settings
        sock = socket.create_connection((s.get("host", "localhost"), s.get("port", 6379)),
                                        timeout=s.get("socket_connect_timeout"))
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        sock.settimeout(s.get("socket_timeout"))
        conn = (sock, sock.makefile("rb"))
        try:
            if s.get("password"):
                user = [s["username"]] if s.get("username") else []
                self._ask(conn, ["AUTH", *user, s["password"]])
            if s.get("db"):
                self._ask(conn, ["SELECT", s["db"]])
        except BaseException:
            self._close(conn)
            raise
        return conn

    @staticmethod
    def _ask(conn, args):
        _send(conn[0], _command(args))
        return _reply(conn[1])

    def call(self, args: list, meanwhile=None):
        """Send one command and return its reply (`meanwhile`: see `call_together`)."""
        answer, = self.call_together([args], meanwhile)
        if isinstance(answer, ResponseError):
            raise answer
        return answer

    def call_together(self, commands: list, meanwhile=None) -> list:
        """Send the commands in one round trip (pipelined: Redis runs them in order, each
        whatever the others answer); their replies, an error reply as its exception.
        `meanwhile()` runs once they are sent, before the replies are read (see Rider).
        A gevent worker first waits up to REPLY_WAIT s for the reply without its hub, unless
        the hub has other work."""
        conn = self._take()
        try:
            _send(conn[0], _command(*commands))
            if meanwhile is not None:
                _meanwhile(meanwhile)
            if self._cooperative:   # a reply, other work of the hub, or REPLY_WAIT s
                hub = _hub_fd()
                self._ready([conn[0]] if hub is None else [conn[0], hub], [], [], REPLY_WAIT)
            answers = [_answer(conn[1]) for _ in commands]
        except OSError as err:
            self._discard(conn)
            raise RedisConnectionError(f"Redis connection failed: {err}") from err
        except BaseException:
            self._discard(conn)   # an interrupted read: start afresh
            raise
        if any(isinstance(a, ResponseError) for a in answers):
            self._discard(conn)   # an error reply: start afresh, as before pipelines
        else:
            self._idle.append(conn)
            if self._waiters:
                self._wake()
        return answers

    def _take(self):
        """An idle connection, else a new one while fewer than `most` are open, else the
        first one freed within `wait` seconds (RedisConnectionError after that)."""
        if self._pid != _process[0]:   # a forked child: the parent's sockets are not ours
            self._reset()
        conn = self._idle_or_new()
        if conn is not None:
            return conn
        deadline = None if self.wait is None else time.monotonic() + self.wait
        while conn is None:
            with self._freed:
                self._waiters += 1
                try:
                    while not (self._idle or self._spare):
                        left = None if deadline is None else deadline - time.monotonic()
                        if left is not None and left <= 0:
                            raise RedisConnectionError(
                                "no Redis connection free (REFEREE_REDIS_CONNECTIONS)")
                        self._freed.wait(left)
                finally:
                    self._waiters -= 1
            conn = self._idle_or_new()   # None: another caller took it first
        return conn

    def _idle_or_new(self):
        """An idle connection the server has not closed (a closed one reads as ready: end of
        file), else a new one if fewer than `most` are open, else None."""
        while True:
            try:
                conn = self._idle.pop()
            except IndexError:
                break
            if not self._ready([conn[0]], [], [], 0)[0]:
                return conn
            self._discard(conn)
        try:
            self._spare.pop()
        except IndexError:
            return None
        try:
            return self._connect()
        except OSError as err:
            self._give_back()
            raise RedisConnectionError(f"cannot connect to Redis: {err}") from err
        except BaseException:
            self._give_back()
            raise

    def _discard(self, conn) -> None:
        """Close a connection; another may be opened in its place."""
        self._close(conn)
        self._give_back()

    def _give_back(self) -> None:
        self._spare.append(None)
        if self._waiters:
            self._wake()

    def _wake(self) -> None:
        with self._freed:
            self._freed.notify()

    @staticmethod
    def _close(conn) -> None:
        for part in (conn[1], conn[0]):
            try:
                part.close()
            except OSError:
                pass


class SocketScript:
    """A Lua script run by EVALSHA over `Sockets` (loaded with SCRIPT LOAD when the server
    does not know it yet, e.g. after a restart)."""

    def __init__(self, sockets: Sockets, text: str):
        self.sockets, self.text = sockets, text
        self.sha = hashlib.sha1(text.encode()).hexdigest()
        self._head = Run(["EVALSHA", self.sha])   # written once (resp.Run)

    def __call__(self, keys=(), args=(), meanwhile=None):
        """The script's reply for `keys` and `args`; `meanwhile()`, if given, runs while the
        round trip is in flight (what it raises is dropped)."""
        command = self._command(keys, args)
        try:
            return self.sockets.call(command, meanwhile)
        except NoScriptError:
            self.sockets.call(["SCRIPT", "LOAD", self.text])
            return self.sockets.call(command)

    def _command(self, keys, args) -> list:
        if type(keys) is Keys:   # kept by the caller: its count and keys written once
            return [self._head, keys.wire, *args]
        return [self._head, len(keys), *keys, *args]

    def with_rider(self, keys, args, rider: "Rider"):
        """This script and the rider's, pipelined in one round trip (see `run_with_rider`)."""
        reply, ridden = self.sockets.call_together(
            [self._command(keys, args), rider.script._command(rider.keys, rider.args)],
            rider.meanwhile)
        if isinstance(reply, NoScriptError):    # ours did not run: again, loading it first
            reply = self(keys, args)
        elif isinstance(reply, ResponseError):
            raise reply
        if isinstance(ridden, NoScriptError):   # nor did the rider: after ours, loading it
            ridden = _ride_alone(rider)
        return reply, ridden


class Keys(tuple):
    """A script's keys that a caller sends again and again (a match's, an index shard's):
    a tuple, with their count and the keys already in RESP (`wire`) for a SocketScript's
    command; any other script takes it as the keys it holds."""

    def __new__(cls, keys) -> "Keys":
        """`keys`, their RESP written now."""
        kept = super().__new__(cls, keys)
        kept.wire = Run([len(kept), *kept])
        return kept


@dataclass
class Rider:
    """A script run in the round trip of another (a commit): `script(keys=..., args=...)`,
    any hot script on the same Redis; `done(reply, landed)` hears its reply (an exception if
    it failed; None when nobody knows whether it ran: the round trip broke) and whether the
    script it rode on did its work. `meanwhile()`, if given, runs while the round trip is
    in flight (work that waits on neither reply: the runner builds the next bot request
    while Redis commits, which took a round trip's wait off every bot move); whatever it
    raises is dropped (the work is done again later, where its error counts)."""

    script: object
    keys: list
    args: list
    done: Callable
    meanwhile: Callable | None = None


def run_with_rider(script, keys, args, rider: Rider):
    """`script(keys, args)` and then the rider's script: (the reply, the rider's reply).

    Both in one round trip when they are SocketScripts on one server (pipelined: the rider
    runs whatever the first answers); else one after the other. An error of the first raises
    as `script` would (the rider may have run then: its `done` is the caller's to call); the
    rider's error is its reply, never raised: the first's work stands."""
    if isinstance(script, SocketScript) and isinstance(rider.script, SocketScript) and \
            script.sockets.server == rider.script.sockets.server:
        return script.with_rider(keys, args, rider)
    reply = script(keys=keys, args=args)
    if rider.meanwhile is not None:
        _meanwhile(rider.meanwhile)
    return reply, _ride_alone(rider)


def run_meanwhile(script, keys, args, meanwhile):
    """`script(keys=keys, args=args)`, with `meanwhile()` run while its round trip is in
    flight when it goes over our sockets (SocketScript); any other script (the embedded
    store's, redis-py's) runs alone and `meanwhile` not at all: its work would only come
    after the reply, where the caller does it anyway if it is wanted."""
    if isinstance(script, SocketScript):
        return script(keys=keys, args=args, meanwhile=meanwhile)
    return script(keys=keys, args=args)


def _meanwhile(work) -> None:
    try:
        work()
    except Exception:   # done again where it counts (Rider); never breaks the round trip
        log.debug("work done while a round trip was in flight failed", exc_info=True)


def _ride_alone(rider: Rider):
    try:
        return rider.script(keys=rider.keys, args=rider.args)
    except Exception as err:   # the rider's own failure: it hears it as its reply
        return err


def run_together(calls: list, main: int, meanwhile=None) -> list:
    """Run `calls` ((script, keys, args) each, None skipped) in order; their replies (None for
    a skipped one, an error as its exception). In one round trip when every script is a
    SocketScript on one server (pipelined: Redis runs them in this order even if this process
    dies meanwhile; `meanwhile()` runs while they are in flight), else one call after the
    other (and `meanwhile` not at all, as run_meanwhile). The main
    call's error raises; a call before it that fails stops the sequence there (the store's
    index adds must land before their commit, indexes.py); a later call's failure is only its
    reply (a lost index clear leaves a stale entry, which the janitor tolerates; a rider hears
    its own error)."""
    present = [(i, c) for i, c in enumerate(calls) if c is not None]
    replies = [None] * len(calls)
    scripts = [c[0] for _, c in present]
    if all(isinstance(s, SocketScript) for s in scripts) and \
            len({s.sockets.server for s in scripts}) == 1:
        answers = scripts[0].sockets.call_together(
            [s._command(k, a) for s, k, a in (c for _, c in present)], meanwhile)
        for (i, (script, keys, args)), reply in zip(present, answers):
            if isinstance(reply, NoScriptError):   # not run: again, loading it first
                reply = script(keys=keys, args=args) if i == main else \
                    _ride_alone(Rider(script, keys, args, None))
            replies[i] = reply
        if isinstance(replies[main], Exception):
            raise replies[main]
        return replies
    for i, (script, keys, args) in present:
        if i <= main:
            replies[i] = script(keys=keys, args=args)
        else:
            replies[i] = _ride_alone(Rider(script, keys, args, None))
    return replies
