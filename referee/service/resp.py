"""RESP2, as the hot scripts speak it to Redis over plain sockets (referee/service/scripts.py):
a command or a pipeline of them encoded, and one reply read from a buffered reader."""

from __future__ import annotations

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError, ResponseError


def command(args, *more) -> bytes:
    """What one round trip sends, in RESP: a command (an array of bulk strings), or several
    pipelined (`more`), whose replies come back in order."""
    parts = []
    for command in (args, *more):
        parts.append(b"*%d\r\n" % len(command))
        for arg in command:
            if isinstance(arg, bytes):   # a record: copied once, by join
                parts += (b"$%d\r\n" % len(arg), arg, b"\r\n")
            else:                    # keys, numbers, tokens: small, one piece each
                data = str(arg).encode()
                parts.append(b"$%d\r\n%s\r\n" % (len(data), data))
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
