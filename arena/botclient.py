"""Calling bots over HTTP: keep-alive connections to pinned addresses, signed requests, one
absolute deadline per call, a size limit, strict JSON.

Every failure becomes a short record, never an exception the match would die of:
bot.timeout, bot.unreachable, bot.http_error (with the status), bot.signature_refused (401 or
403 to a signed request: the bot could not verify our signature), bot.bad_response. A record
holds only our own words: nothing the bot sent. The first bytes of what it sent go to
`Reply.private`, which only the bot's owner may see (see BotRegistry).

A call is `send` then `receive`; the runner sends a bot's request as soon as the commit before
it landed and reads the answer after its own bookkeeping (arena/driver.py).

Connections are arena/botconn.py's. The deadline covers connect, send and receive together
(arena/deadlinesock.py: sockets that re-arm their timeout to what is left before every recv
and send). The answer and its failure records are arena/botreply.py's.
"""

from __future__ import annotations

import http.client
import time
from dataclasses import dataclass, field

from referee.service import fastjson
from arena.botreply import PRIVATE_BYTES, Reply  # noqa: F401 (imported from here: driver, bots)
from arena.botreply import BotFault as _Failure, excerpt as _excerpt, failure as _failure, \
    ms as _ms, parse as _parse
# abandon and close are called as botclient's too (bots, botcheck)
from arena.botconn import _connection, _drop, _host, abandon, close  # noqa: F401
from arena.httpwire import TooLarge, request_bytes
from arena.netguard import Target
from arena.protocol import sign

MAX_RESPONSE_BYTES = 256 * 1024
"""Bot answers larger than this are bad responses (a move is a small object)."""

SIGNATURE_REFUSALS = (401, 403)
"""Statuses that, to a signed request, say "your signature is not one I accept"."""

_ENCODE = fastjson.dumpb
# orjson (compact, UTF-8): the payload carries the seat's whole view, which the standard
# library's encoder took some 0.1-0.2 ms to write on every bot move


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


def _stale(sent: Sent, err: Exception) -> bool:
    """A kept-alive connection the bot had closed: worth one more try on a fresh one."""
    return isinstance(err, (ConnectionError, http.client.RemoteDisconnected,
                            http.client.BadStatusLine)) and \
        sent.reused and not sent.retried and not sent.answered


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


