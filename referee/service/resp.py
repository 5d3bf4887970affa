"""RESP2, as the hot scripts speak it to Redis over plain sockets (referee/service/scripts.py):
a command or a pipeline of them encoded, and one reply read from a buffered reader."""

from __future__ import annotations

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError, ResponseError


class Bulk(str):
    """A text sent again and again (a key, a channel, a script's sha, a match id), with its
    RESP bulk string written once (`wire`); anywhere else it is the text it holds (redis-py,
    the embedded store and `str()` see a plain string).

    `command` wrote every argument afresh: a commit's three pipelined calls have some 38,
    most of them the match's keys and a few constants, and their encoding cost about 119,000
    instructions a Dschunke move (callgrind, in-process); with the match's kept as Bulk and
    Run (MatchStore._wire, Indexes) and small numbers written once, 43,000."""

    def __new__(cls, text: str) -> "Bulk":
        """`text`, its encoding made now."""
        bulk = super().__new__(cls, text)
        data = text.encode()
        bulk.wire = b"$%d\r\n%s\r\n" % (len(data), data)
        return bulk


class Run(bytes):
    """Several arguments in a row already in RESP (`count` bulk strings, one after another):
    what a script call sends before its own arguments (EVALSHA, the sha, the keys), written
    once instead of one argument at a time on every call."""

    def __new__(cls, args) -> "Run":
        """The run of `args` (texts, numbers, bytes)."""
        args = list(args)
        run = super().__new__(cls, command(args)[len(b"*%d\r\n" % len(args)):])
        run.count = len(args)
        return run


SMALL_NUMBERS = 10_000
"""Non-negative integers below this (versions, key counts) are encoded once each, when first
sent, and kept (at most this many short bytes)."""

_NUMBERS: dict[int, bytes] = {}
_ARRAYS = tuple(b"*%d\r\n" % n for n in range(64))


def command(args, *more) -> bytes:
    """What one round trip sends, in RESP: a command (an array of bulk strings), or several
    pipelined (`more`), whose replies come back in order."""
    parts = []
    append = parts.append
    for command in (args, *more):
        at, runs = len(parts), 0
        append(b"")                  # the array's length, once its runs are counted
        for arg in command:
            kind = type(arg)
            if kind is Bulk:         # a key, a channel: written once (Bulk)
                append(arg.wire)
            elif kind is Run:        # EVALSHA, its sha, the keys
                append(arg)
                runs += arg.count - 1
            elif isinstance(arg, bytes):   # a record: copied once, by join
                append(b"$%d\r\n" % len(arg))
                append(arg)
                append(b"\r\n")
            elif kind is int and 0 <= arg < SMALL_NUMBERS:   # a version, a key count
                data = _NUMBERS.get(arg)
                if data is None:
                    text = b"%d" % arg
                    data = _NUMBERS[arg] = b"$%d\r\n%s\r\n" % (len(text), text)
                append(data)
            else:                    # other numbers, tokens: small, one piece each
                data = str(arg).encode()
                append(b"$%d\r\n%s\r\n" % (len(data), data))
        size = len(command) + runs
        parts[at] = _ARRAYS[size] if size < 64 else b"*%d\r\n" % size
    return b"".join(parts)


def send(sock, data: bytes) -> None:
    """`sock.sendall(data)`, with one plain send first: a command fits the socket's buffer,
    and gevent's sendall asks the kernel for that buffer's size (a system call) every time."""
    sent = sock.send(data)
    if sent < len(data):
        sock.sendall(memoryview(data)[sent:])


def reply(read):
    """One RESP2 reply from a buffered reader, decoded as UTF-8 text; an error reply raises
    (redis.ResponseError, or NoScriptError)."""
    got = answer(read)
    if isinstance(got, ResponseError):
        raise got
    return got


def answer(read):
    """One RESP2 reply as `reply` reads it, with an error reply returned as its exception
    (as redis-py returns an error inside an array): a pipeline reads every reply, whatever
    one of them is."""
    line = read.readline()
    if not line.endswith(b"\r\n"):
        raise RedisConnectionError("Redis closed the connection")
    kind, rest = line[:1], line[1:-2]
    if kind == b"$":
        size = int(rest)
        return None if size < 0 else read.read(size + 2)[:-2].decode()
    if kind == b"*":
        size = int(rest)
        return None if size < 0 else [answer(read) for _ in range(size)]
    if kind == b":":
        return int(rest)
    if kind == b"+":
        return rest.decode()
    if kind == b"-":
        message = rest.decode()
        return NoScriptError(message) if message.startswith("NOSCRIPT") else \
            ResponseError(message)
    raise RedisConnectionError(f"unexpected reply from Redis: {line[:40]!r}")
