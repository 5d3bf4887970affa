"""This thread's keep-alive connections to bots (arena/botclient.py sends and reads over them):
a deadline socket to the target's first pinned address that answers, TLS for https, the URL's
host as Host; a connection whose answer is still awaited is given up before it is used again."""

from __future__ import annotations

import functools
import math
import socket
import ssl
import threading
import time

from arena.deadlinesock import DeadlineSocket as _DeadlineSocket
from arena.deadlinesock import DeadlineSSLSocket as _DeadlineSSLSocket
from arena.httpwire import Wire, host_header
from arena.netguard import Target

CONNECT_TIMEOUT = 2.0
"""Seconds to open a connection to a bot (counted within the call's deadline, too)."""

_tls = ssl.create_default_context()
_tls.sslsocket_class = _DeadlineSSLSocket


class _Connection:
    """A keep-alive HTTP/1.1 connection to the target's pinned address, with the URL's host
    as Host; requests and responses go through httpwire (not http.client: see there)."""

    def __init__(self, target: Target):
        self.target = target
        self.host = _host(target)
        self.deadline = math.inf
        self.sock, self.wire = None, None
        self.waiting = None   # a Sent whose answer has not been read on this connection

    def connect(self):
        """Open (and for https, wrap) a deadline socket to the first pinned address that
        answers."""
        t = self.target
        sock = self._dial()
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            if t.scheme == "https":
                # CPython bounds the whole handshake by the timeout set here
                sock.settimeout(max(0.001, self.deadline - time.monotonic()))
                sock = _tls.wrap_socket(sock, server_hostname=t.host)
        except BaseException:
            sock.close()
            raise
        sock.deadline = self.deadline
        self.sock, self.wire = sock, Wire(sock)

    def close(self) -> None:
        """Close the socket (the next request opens another)."""
        sock, self.sock, self.wire = self.sock, None, None
        if sock is not None:
            sock.close()

    def _dial(self) -> socket.socket:
        """A connected socket to one of the pinned addresses, tried in order in the time
        left; the last error if none connects."""
        error = None
        for address in self.target.addresses:
            family = socket.AF_INET6 if ":" in address else socket.AF_INET
            sock = _DeadlineSocket(family, socket.SOCK_STREAM)
            try:
                left = self.deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError("the call's deadline has passed")
                sock.settimeout(min(CONNECT_TIMEOUT, left))
                sock.connect((address, self.target.port))
                return sock
            except OSError as err:
                sock.close()
                error = err
                if isinstance(err, TimeoutError) and self.deadline <= time.monotonic():
                    break
        raise error

    def arm(self, deadline: float) -> None:
        """Give this call's deadline to the connection (and its socket, if open)."""
        self.deadline = deadline
        if self.sock is not None:
            self.sock.deadline = deadline


_local = threading.local()


def _connection(target: Target) -> tuple[_Connection, tuple]:
    """This thread's keep-alive connection to the target (opened on first use).

    Neither requests nor http.client on this hot path: requests cost ~0.5 ms a call on
    loopback, http.client ~0.2 ms, httpwire a few tens of microseconds (measured with the
    bench bot)."""
    pool = getattr(_local, "pool", None)
    if pool is None:
        pool = _local.pool = {}
    key = (target.scheme, target.host, target.port, target.addresses)
    conn = pool.get(key)
    if conn is not None and conn.waiting is not None:
        abandon(conn.waiting)   # its answer would be read as the next request's
        conn = None
    if conn is None:
        conn = pool[key] = _Connection(target)
    return conn, key


def close(target: Target) -> None:
    """Close this thread's kept-alive connection to the target, if any (botcheck, once done,
    leaves no socket open to the bot)."""
    pool = getattr(_local, "pool", None)
    if pool is not None:
        for key in [k for k, conn in pool.items() if conn.target == target]:
            _drop(key)


def _drop(key) -> None:
    conn = _local.pool.pop(key, None)
    if conn is not None:
        conn.close()


def abandon(sent) -> None:
    """Give up a request whose answer will not be read: its connection goes (the answer would
    be read as the next one's)."""
    sent.abandoned = True
    if sent.reply is None and sent.conn is not None:
        if _local.pool.get(sent.key) is sent.conn:
            _drop(sent.key)
        sent.conn.close()


@functools.lru_cache(maxsize=1024)
def _host(target: Target) -> str:
    """The Host header for the target's URL (remembered: a request is built every move, and
    asking this thread's connection for it could give up a request waiting on it)."""
    return host_header(target.host, target.port, 443 if target.scheme == "https" else 80)
