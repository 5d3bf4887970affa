"""The store's two hot Lua scripts (read a live record, commit a move) sent over plain sockets.

A move or a prompt makes one Redis round trip, and redis-py spends about two hundred Python
calls on each (retries, observability hooks, the pool, its parser): measured inside a request,
some 0.3-0.4 ms of CPU of a 1-2 ms request, ten times the round trip itself. These scripts go
over a pool of our own sockets instead, encoding the command and reading the reply (RESP2) in a
few lines. On the embedded store (fakeredis) a script with a Python twin runs that instead
(embeddedscripts.py). Everything else, and any server we cannot reach by plain TCP (TLS, Unix
sockets), stays with redis-py (`hot_script` returns its Script there).

Failures keep redis-py's meaning: a Redis error reply raises redis.ResponseError, a broken
connection redis.ConnectionError. A pooled connection the server closed while it sat idle (a
restart, a timeout) is noticed before use, as redis-py does, and replaced; a command is never
sent twice, so a commit never runs twice.
"""

from __future__ import annotations

import hashlib
import os
import select
import socket
import sys
import threading
import time

import redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError, ResponseError

from referee.service import embeddedscripts


def hot_script(client: redis.Redis, text: str, embedded=None):
    """A callable `(keys=[...], args=[...])` running `text` on the server of `client`: over our
    own sockets for a plain TCP server; on the embedded store, `embedded` (the same script in
    Python, embeddedscripts.py) when given; else redis-py's Script."""
    pool = getattr(client, "connection_pool", None)
    if pool is None or getattr(pool, "connection_class", None) is not redis.Connection:
        lua = client.register_script(text)
        python = embedded and embeddedscripts.embedded_runner(client, embedded, lua)
        return python or lua
    return SocketScript(Sockets(pool.connection_kwargs, getattr(pool, "max_connections", 100),
                                getattr(pool, "timeout", None)), text)


def _command(args) -> bytes:
    """One command in RESP: an array of bulk strings."""
    parts = [b"*%d\r\n" % len(args)]
    for arg in args:
        data = arg if isinstance(arg, bytes) else str(arg).encode()
        parts += (b"$%d\r\n" % len(data), data, b"\r\n")   # the value copied once, by join
    return b"".join(parts)


def _reply(read):
    """One RESP2 reply from a buffered reader, decoded as UTF-8 text."""
    line = read.readline()
    if not line.endswith(b"\r\n"):
        raise RedisConnectionError("Redis closed the connection")
    kind, rest = line[:1], line[1:-2]
    if kind == b"$":
        size = int(rest)
        return None if size < 0 else read.read(size + 2)[:-2].decode()
    if kind == b"*":
        size = int(rest)
        return None if size < 0 else [_reply(read) for _ in range(size)]
    if kind == b":":
        return int(rest)
    if kind == b"+":
        return rest.decode()
    if kind == b"-":
        message = rest.decode()
        raise NoScriptError(message) if message.startswith("NOSCRIPT") else \
            ResponseError(message)
    raise RedisConnectionError(f"unexpected reply from Redis: {line[:40]!r}")


def _plain_select():
    """The system's select, also under gevent's monkey patching (the README's gunicorn
    workers): gevent's, even with a zero timeout, yields to its hub after polling, a loop of
    the hub (about 20 µs of CPU) on every hot request for a check that never waits."""
    monkey = sys.modules.get("gevent.monkey")
    if monkey is not None and monkey.is_module_patched("select"):
        return monkey.get_original("select", "select")
    return select.select


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
        self._ready = _plain_select()
        self._reset()

    def _reset(self) -> None:
        self._pid = os.getpid()
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
        conn[0].sendall(_command(args))
        return _reply(conn[1])

    def call(self, args: list):
        """Send one command and return its reply."""
        conn = self._take()
        try:
            conn[0].sendall(_command(args))
            answer = _reply(conn[1])
        except OSError as err:
            self._discard(conn)
            raise RedisConnectionError(f"Redis connection failed: {err}") from err
        except BaseException:
            self._discard(conn)   # an error reply, or an interrupted read: start afresh
            raise
        self._idle.append(conn)
        if self._waiters:
            self._wake()
        return answer

    def _take(self):
        """An idle connection, else a new one while fewer than `most` are open, else the
        first one freed within `wait` seconds (RedisConnectionError after that)."""
        if self._pid != os.getpid():   # a forked child: the parent's sockets are not ours
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

    def __call__(self, keys=(), args=()):
        """The script's reply for `keys` and `args`."""
        command = ["EVALSHA", self.sha, len(keys), *keys, *args]
        try:
            return self.sockets.call(command)
        except NoScriptError:
            self.sockets.call(["SCRIPT", "LOAD", self.text])
            return self.sockets.call(command)
