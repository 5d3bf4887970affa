"""The HTTP/1.1 of bot calls (arena/httpwire.py): every way a response may frame its body, the
limits, and what is refused with http.client's exception classes, read from any split of the
bytes into packets; and through a real bot call, a chunked answer and a bot that closes."""

from __future__ import annotations

import http.client

import pytest

from arena import botclient, httpwire
from arena.netguard import AddressPolicy, resolve
from tests.arena.rawserver import RawServer, http_answer

MOVE = b'{"move": {"type": "keep"}}'


class Packets:
    """A socket that hands out `data` in pieces of `size` bytes, then end of file."""

    def __init__(self, data: bytes, size: int):
        self.pieces = [data[i:i + size] for i in range(0, len(data), size)]
        self.sent = b""

    def recv(self, _most: int) -> bytes:
        return self.pieces.pop(0) if self.pieces else b""

    def sendall(self, data: bytes) -> None:
        self.sent += data


def read(data: bytes, method: str = "POST", limit: int = 1000, size: int = 0):
    """(status, body, close) of the first response in `data`, the same for every packet
    size tried (whole, and one to seven bytes at a time) unless `size` is given."""
    found = set()
    for piece in ([size] if size else [len(data) or 1, 1, 2, 3, 7]):
        wire = httpwire.Wire(Packets(data, piece))
        head = wire.head()
        body, close = wire.body(head, method, limit)
        found.add((head[1], body, close))
    assert len(found) == 1, found
    return found.pop()


@pytest.mark.parametrize("data, expected", [
    (http_answer(MOVE), (200, MOVE, False)),
    (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=1\r\n{\"mov\r\n"
     b"15\r\ne\": {\"type\": \"keep\"}}\r\n0\r\nX-Trailer: 1\r\n\r\n", (200, MOVE, False)),
    (b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n" + MOVE, (200, MOVE, True)),
    (b"HTTP/1.0 200 OK\r\nContent-Length: 26\r\n\r\n" + MOVE, (200, MOVE, True)),
    (b"HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 26\r\n\r\n" + MOVE,
     (200, MOVE, False)),
    (b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 26\r\n\r\n" + MOVE,
     (200, MOVE, True)),
    (b"HTTP/1.1 204 No Content\r\n\r\n", (204, b"", False)),
    (b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\ncontent-length: 2\r\n\r\n{}",
     (201, b"{}", False)),
    (b"HTTP/1.1 200 OK\nContent-Length: 2\n\n{}", (200, b"{}", False)),   # bare line feeds
    (b"HTTP/1.1 500 Boom\r\nContent-Length: 2\r\nContent-Length: 9\r\n\r\n{}",
     (500, b"{}", False)),                                                # the first counts
    (b"HTTP/1.1 200 OK\r\nContent-Length: -4\r\n\r\n{}", (200, b"{}", True)),
    (b"HTTP/1.1 200 OK\r\nX-Long: a\r\n folded: b\r\nContent-Length: 2\r\n\r\n{}",
     (200, b"{}", False)),
], ids=["length", "chunked", "until-close", "http10", "http10-keep-alive",
        "close", "no-content", "continue", "bare-lf", "two-lengths", "bad-length", "folded"])
def test_every_framing_of_a_body(data, expected):
    """Content-Length, chunks (extensions and trailers skipped), until the close; whether
    the connection must close after it."""
    assert read(data) == expected


def test_bytes_beyond_the_response_close_the_connection():
    """What arrived with the answer beyond it would be read as the next answer: the
    connection closes (bytes arriving later fail the next read, which the bot client
    retries once on a fresh connection)."""
    data = http_answer(MOVE) + b"HTTP/1.1 200 OK"
    assert read(data, size=len(data)) == (200, MOVE, True)


def test_a_head_request_has_no_body():
    assert read(b"HTTP/1.1 200 OK\r\nContent-Length: 26\r\n\r\n", method="HEAD") == \
        (200, b"", False)


@pytest.mark.parametrize("data, error", [
    (b"", http.client.RemoteDisconnected),
    (b"HTTP/1.1 200 OK\r\nContent-Length: 30\r\n\r\n" + MOVE, http.client.IncompleteRead),
    (b"SMTP ready\r\n\r\n", http.client.BadStatusLine),
    (b"HTTP/1.1 2x0 OK\r\n\r\n", http.client.BadStatusLine),
    (b"HTTP/1.1 99 Low\r\n\r\n", http.client.BadStatusLine),
    (b"\r\n\r\n", http.client.BadStatusLine),
    (b"HTTP/2 200 OK\r\n\r\n", http.client.UnknownProtocol),
    (b"HTTP/1.1 200 OK\r\n" + b"X: y\r\n" * 101 + b"\r\n", http.client.HTTPException),
    (b"HTTP/1.1 200 OK\r\nX: " + b"y" * 70_000 + b"\r\n\r\n", http.client.LineTooLong),
    (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", ValueError),
    (b"HTTP/1.1 200 OK\r\n" + b"X: y\r\n" * 50_000, http.client.HTTPException),
], ids=["nothing", "short", "not-http", "status", "low-status", "blank", "http2",
        "headers", "line", "chunk-size", "endless-head"])
def test_what_is_refused_keeps_http_clients_exceptions(data, error):
    """The bot client tells these apart as it did with http.client (unreachable, or a bad
    response for what is no exception of HTTP's)."""
    with pytest.raises(error):
        read(data, size=4096)


@pytest.mark.parametrize("data", [
    b"HTTP/1.1 200 OK\r\nContent-Length: 1001\r\n\r\n" + b"x" * 1001,
    b"HTTP/1.1 200 OK\r\n\r\n" + b"x" * 1001,
    b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + b"200\r\n" + b"x" * 512 +
    b"\r\n" + b"200\r\n" + b"x" * 512 + b"\r\n0\r\n\r\n",
], ids=["length", "until-close", "chunked"])
def test_a_body_over_the_limit_is_too_large_with_its_first_bytes(data):
    with pytest.raises(httpwire.TooLarge) as caught:
        read(data, size=300)
    assert caught.value.first.startswith(b"x") and len(caught.value.first) <= 1000


def test_the_request_is_one_send_with_http_clients_headers():
    """Host as http.client writes it (IPv6 in brackets, the port unless the default),
    identity encoding, the length; a path or host that could split the request is
    refused."""
    data = httpwire.request_bytes("POST", "/bot/move", httpwire.host_header("::1", 8080, 80),
                                  {"X-A": "1"}, b"{}")
    assert data == (b"POST /bot/move HTTP/1.1\r\nHost: [::1]:8080\r\nAccept-Encoding: identity"
                    b"\r\nContent-Length: 2\r\nX-A: 1\r\n\r\n{}")
    assert httpwire.host_header("bot.example", 443, 443) == "bot.example"
    with pytest.raises(http.client.InvalidURL):
        httpwire.request_bytes("GET", "/a b", "h", {}, None)
    with pytest.raises(http.client.InvalidURL):
        httpwire.host_header("h\r\nX-Injected: 1", 80, 80)


def test_a_real_call_reads_chunks_and_reconnects_after_a_close():
    """A bot answering in chunks and closing after each answer: every call succeeds on a
    connection of its own."""
    chunked = (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
               b"%x\r\n%s\r\n0\r\n\r\n" % (len(MOVE), MOVE))
    server = RawServer(lambda conn, request: conn.sendall(chunked) or False)
    try:
        target = resolve(server.url, AddressPolicy.from_setting("127.0.0.0/8"))
        replies = [botclient.call(target, "/move", {"x": 1}, "s", 2.0) for _ in range(3)]
    finally:
        server.stop()
    assert [r.body for r in replies] == [{"move": {"type": "keep"}}] * 3
    assert len(server.requests) == 3


def test_a_request_sent_and_given_up_never_answers_the_next_one():
    """send, then abandon: reading it is our error, not the bot's; the next request to
    the bot goes on a fresh connection and reads its own answer. A request left unread
    when another is sent to the bot is given up the same way."""
    server = RawServer(lambda conn, request: conn.sendall(http_answer(
        b'{"n": %d}' % int(request.rsplit(b"\r\n\r\n", 1)[1] or b"0"))))
    try:
        target = resolve(server.url, AddressPolicy.from_setting("127.0.0.0/8"))
        first = botclient.send(target, "/move", b"1", "s", 2.0)
        botclient.abandon(first)
        with pytest.raises(RuntimeError):
            botclient.receive(first)
        assert botclient.call(target, "/move", b"2", "s", 2.0).body == {"n": 2}
        unread = botclient.send(target, "/move", b"3", "s", 2.0)
        assert botclient.call(target, "/move", b"4", "s", 2.0).body == {"n": 4}
        assert unread.abandoned
    finally:
        server.stop()
