"""Calling bots over HTTP: keep-alive connections to pinned addresses, signed requests, one
absolute deadline per call, a size limit, strict JSON.

Every failure becomes a short record, never an exception the match would die of:
bot.timeout, bot.unreachable, bot.http_error (with the status), bot.signature_refused (401 or
403 to a signed request: the bot could not verify our signature), bot.bad_response. A record
holds only our own words: nothing the bot sent. The first bytes of what it sent go to
`Reply.private`, which only the bot's owner may see (see BotRegistry).

A call is `send` then `receive`; the runner sends a bot's request as soon as the commit before
it landed and reads the answer after its own bookkeeping (arena/driver.py).

The deadline covers connect, send and receive together. A socket's timeout is per
recv, so a bot dripping one byte at a time would never time out; our sockets re-arm their
timeout to what is left before every recv and send (status line and headers included; at
most once a millisecond: REARM_S), and fail at once when nothing is left.
"""

from __future__ import annotations

import functools
import http.client
import math
import socket
import ssl
import threading
import time
from dataclasses import dataclass, field

from referee.service import fastjson, strictjson
from arena.httpwire import TooLarge, Wire, host_header, request_bytes
from arena.netguard import Target
from arena.protocol import sign

MAX_RESPONSE_BYTES = 256 * 1024
"""Bot answers larger than this are bad responses (a move is a small object)."""

CONNECT_TIMEOUT = 2.0
"""Seconds to open a connection to a bot (counted within the call's deadline, too)."""

SIGNATURE_REFUSALS = (401, 403)
"""Statuses that, to a signed request, say "your signature is not one I accept"."""

PRIVATE_BYTES = 300
"""How much of a bot's failing answer is kept for its owner."""

_ENCODE = fastjson.dumpb
# orjson (compact, UTF-8): the payload carries the seat's whole view, which the standard
# library's encoder took some 0.1-0.2 ms to write on every bot move


@dataclass
class Reply:
    """A bot's answer: the JSON body, or a failure record; the latency; and `private`, what
    the bot sent with a failure (for its owner only, never in a public record)."""

    body: object = None
    failure: dict | None = None
    latency_ms: float = 0.0
    private: dict | None = None
    answered: bool = False  # an HTTP status line arrived (the far end speaks HTTP)


REARM_S = 0.001
"""A socket's timeout is set again once this long has passed since it was set for the same
deadline: the send of a request and the reads of its answer within a millisecond share one
setting (each is a system call); a deadline is overshot by this much at most."""


class _Deadline:
    """Socket methods that re-arm the timeout to what is left of `deadline` each time (every
    REARM_S at most)."""

    deadline = math.inf
    _armed = (math.inf, -math.inf)   # (deadline, time) of the last setting

    def _arm(self) -> None:
        now = time.monotonic()
        left = self.deadline - now
        if left <= 0:
            raise TimeoutError("the call's deadline has passed")
        deadline, at = self._armed
        if deadline != self.deadline or now - at >= REARM_S:
            self.settimeout(left)
            self._armed = (self.deadline, now)

    def recv_into(self, *args, **kwargs):
        self._arm()
        return super().recv_into(*args, **kwargs)

    def recv(self, *args, **kwargs):
        self._arm()
        return super().recv(*args, **kwargs)

    def sendall(self, *args, **kwargs):
        self._arm()
        return super().sendall(*args, **kwargs)

    def send(self, *args, **kwargs):
        self._arm()
        return super().send(*args, **kwargs)


class _DeadlineSocket(_Deadline, socket.socket):
    pass


class _DeadlineSSLSocket(_Deadline, ssl.SSLSocket):
    pass


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


class _Failure(Exception):
    def __init__(self, record: dict, private: dict | None = None):
        super().__init__(record["code"])
        self.record, self.private = record, private


@dataclass
class Sent:
    """A request sent to a bot whose answer is not read yet: `receive` reads it (within the
    deadline set when it was sent), `abandon` gives it up."""

    target: Target
    method: str
    data: bytes            # the whole request: sent again once if a kept-alive connection
    start: float           # turns out stale
    timeout_s: float
    conn: object = None
    key: tuple = ()
    reused: bool = False
    stale: bool = False    # the kept-alive connection was found closed while sending
    retried: bool = False
    answered: list = field(default_factory=list)
    reply: Reply | None = None   # the failure found while sending, or the answer once read
    abandoned: bool = False
    signed: bool = False   # it carried our signature (a 401/403 then refuses the signature)
    version: str = ""      # the HTTP version of the answer's status line (botcheck reads it)

    @property
    def deadline(self) -> float:
        """When the answer must have arrived (time.monotonic())."""
        return self.start + self.timeout_s


def call(target: Target, path: str, payload: dict | None, secret: str | None,
         timeout_s: float) -> Reply:
    """POST `payload` (or GET when None; bytes: JSON encoded already) to the bot within
    `timeout_s` from now, all told; never raises for the bot's faults."""
    return receive(send(target, path, payload, secret, timeout_s))


@dataclass
class Prepared:
    """A request written and signed ahead of its sending (`prepare`), with the secret it was
    signed with: `send` uses it only if that is still the bot's secret."""

    method: str
    data: bytes
    secret: str | None


def prepare(target: Target, path: str, payload: dict | bytes | None,
            secret: str | None, now: float | None = None) -> Prepared:
    """The whole request (head and body), signed with `secret` (at `now`, by default the
    present: botcheck signs stale ones on purpose): POST `payload` (bytes: JSON encoded
    already), or GET when None. Raises what an unusable URL or host raises."""
    body = payload if payload is None or type(payload) is bytes else _ENCODE(payload)
    headers = {"Content-Type": "application/json", "User-Agent": "referee-arena/1"}
    if secret and body is not None:
        headers.update(sign(secret, body, now))
    method = "GET" if body is None else "POST"
    return Prepared(method, request_bytes(method, (target.path + path) or "/", _host(target),
                                          headers, body), secret)


def send(target: Target, path: str, payload: dict | None, secret: str | None,
         timeout_s: float, prepared: Prepared | None = None) -> Sent:
    """The first half of `call`: the request signed and sent (`prepared` ahead, if it was
    signed with `secret`), its deadline running. Never raises for the bot's faults (a
    failure waits in `Sent.reply`)."""
    sent = Sent(target, "POST" if payload is not None else "GET", b"", time.monotonic(),
                timeout_s)
    try:
        if prepared is None or prepared.secret != secret:
            prepared = prepare(target, path, payload, secret)
        sent.method, sent.data = prepared.method, prepared.data
        sent.signed = bool(prepared.secret) and prepared.method == "POST"
        sent.start = time.monotonic()   # the deadline runs from the sending
        _send(sent)
    except Exception as err:
        if _stale(sent, err):
            sent.stale = True   # `receive` sends it again on a fresh connection
        else:
            sent.reply = _failure(sent, err)
    return sent


def receive(sent: Sent) -> Reply:
    """The second half of `call`: the bot's answer to a request `send` sent, or the failure
    that stands in for it."""
    if sent.abandoned:
        raise RuntimeError("the answer to an abandoned request cannot be read")
    if sent.reply is not None:
        return sent.reply
    try:
        status, data = _receive(sent)
    except Exception as err:
        sent.reply = _failure(sent, err)
        return sent.reply
    latency, limit_ms = _ms(sent.start), round(sent.timeout_s * 1000)
    if latency > sent.timeout_s * 1000:
        sent.reply = Reply(failure={"code": "bot.timeout", "limit_ms": limit_ms},
                           latency_ms=latency, answered=True)
    elif not 200 <= status < 300:
        refused = sent.signed and status in SIGNATURE_REFUSALS
        sent.reply = Reply(failure={"code": "bot.signature_refused" if refused
                                    else "bot.http_error", "status": status},
                           private=_excerpt(data), latency_ms=latency, answered=True)
    else:
        sent.reply = _parse(data, latency)
    return sent.reply


def abandon(sent: Sent) -> None:
    """Give up a request whose answer will not be read: its connection goes (the answer would
    be read as the next one's)."""
    sent.abandoned = True
    if sent.reply is None and sent.conn is not None:
        if _local.pool.get(sent.key) is sent.conn:
            _drop(sent.key)
        sent.conn.close()


def _failure(sent: Sent, err: Exception) -> Reply:
    """The failure record for what went wrong with a request (the bot's, never ours)."""
    answered, latency = bool(sent.answered), _ms(sent.start)
    if isinstance(err, _Failure):
        return Reply(failure=err.record, private=err.private, latency_ms=latency,
                     answered=answered)
    if isinstance(err, (TimeoutError, socket.timeout)):
        return Reply(failure={"code": "bot.timeout", "limit_ms": round(sent.timeout_s * 1000)},
                     latency_ms=latency, answered=answered)
    if isinstance(err, (OSError, http.client.HTTPException)):
        return Reply(failure={"code": "bot.unreachable"}, private={"error": type(err).__name__},
                     latency_ms=latency, answered=answered)
    # whatever else reading its answer raised: the bot's, not ours
    return Reply(failure={"code": "bot.bad_response", "detail": "the answer cannot be read"},
                 private={"error": type(err).__name__}, latency_ms=latency, answered=answered)


def _stale(sent: Sent, err: Exception) -> bool:
    """A kept-alive connection the bot had closed: worth one more try on a fresh one."""
    return isinstance(err, (ConnectionError, http.client.RemoteDisconnected,
                            http.client.BadStatusLine)) and \
        sent.reused and not sent.retried and not sent.answered


@functools.lru_cache(maxsize=1024)
def _host(target: Target) -> str:
    """The Host header for the target's URL (remembered: a request is built every move, and
    asking this thread's connection for it could give up a request waiting on it)."""
    return host_header(target.host, target.port, 443 if target.scheme == "https" else 80)


def _send(sent: Sent) -> None:
    """Write the request on this thread's connection to the target (opened if need be)."""
    conn, sent.key = _connection(sent.target)
    sent.conn, sent.reused = conn, conn.sock is not None
    try:
        conn.arm(sent.deadline)
        if conn.sock is None:
            conn.connect()
        conn.wire.send(sent.data)
    except BaseException:
        _drop(sent.key)
        raise
    conn.waiting = sent


def _receive(sent: Sent) -> tuple[int, bytes]:
    """Read the answer; once, if a kept-alive connection turned out stale before anything
    was answered, send the request again on a fresh one."""
    if not sent.stale:
        try:
            return _read(sent)
        except Exception as err:
            if not _stale(sent, err):
                raise
    sent.retried = True
    _send(sent)
    return _read(sent)


def _read(sent: Sent) -> tuple[int, bytes]:
    """The response to the request on `sent.conn` (the socket enforces the deadline),
    refusing an answer over MAX_RESPONSE_BYTES."""
    conn = sent.conn
    try:
        head = conn.wire.head()
        sent.answered.append(head[1])
        sent.version = head[0]
        try:
            data, close = conn.wire.body(head, sent.method, MAX_RESPONSE_BYTES)
        except TooLarge as err:
            raise _Failure({"code": "bot.bad_response", "detail": "the answer is larger than "
                            f"{MAX_RESPONSE_BYTES} bytes"}, _excerpt(err.first)) from None
    except BaseException:
        _drop(sent.key)
        raise
    conn.waiting = None
    if close:
        conn.close()
    return head[1], data


def _parse(data: bytes, latency: float) -> Reply:
    try:
        return Reply(body=strictjson.loads(data), latency_ms=latency, answered=True)
    except Exception as err:  # BadJson, and anything else: the bot's answer, the bot's fault
        reason = str(err) if isinstance(err, strictjson.BadJson) else "the body is not JSON"
        return Reply(failure={"code": "bot.bad_response", "detail": reason},
                     private=_excerpt(data), latency_ms=latency, answered=True)


def _excerpt(data: bytes) -> dict:
    """The first bytes of what a bot sent, as text, for its owner."""
    return {"body": data[:PRIVATE_BYTES].decode("utf-8", "replace")}


def _ms(start: float) -> float:
    return (time.monotonic() - start) * 1000
