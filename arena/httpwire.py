"""The HTTP/1.1 that a call to a bot needs, spoken on a socket of ours: a request written in one
send, a response read whole (status line, headers, then a body by Content-Length, by chunks, or
until the bot closes).

http.client did this for some 0.15 ms of CPU a call on loopback, most of a bot move's cost on
the referee's side: its response headers go through the email package, and it wrote a request's
head and body in two sends, which woke the bot twice. Here it is a few tens of microseconds.
What is refused keeps http.client's exception classes (BadStatusLine, LineTooLong,
RemoteDisconnected, IncompleteRead, UnknownProtocol, InvalidURL: all HTTPException, or
ConnectionError for RemoteDisconnected), so callers tell failures apart as they did; an
answer larger than the caller's limit raises `TooLarge`.
"""

from __future__ import annotations

import http.client
import re

MAX_LINE = 65536
"""Longest status line, header line or chunk-size line (as http.client)."""
MAX_HEADERS = 100
"""Most header lines in a response (as http.client)."""
MAX_HEAD = 256 * 1024
"""Longest status line and headers together (http.client allowed 100 lines of 64 KiB)."""
_DISALLOWED = re.compile("[\x00-\x20\x7f]")
# what http.client refuses in a request's path or Host (no request splitting)
_NO_BODY = (204, 304)


class TooLarge(Exception):
    """The body is larger than allowed; `first` holds its first bytes."""

    def __init__(self, first: bytes):
        super().__init__("the answer is too large")
        self.first = first


def host_header(host: str, port: int, default_port: int) -> str:
    """The Host header's value for a URL's host and port, as http.client writes it."""
    if _DISALLOWED.search(host):
        raise http.client.InvalidURL(f"the host {host!r} has characters a URL may not hold")
    try:
        host.encode("ascii")
    except UnicodeEncodeError:
        host = host.encode("idna").decode("ascii")
    if ":" in host:   # an IPv6 literal (RFC 2732)
        host = f"[{host}]"
    return host if port == default_port else f"{host}:{port}"


def request_bytes(method: str, path: str, host: str, headers: dict,
                  body: bytes | None) -> bytes:
    """A whole request, head and body, to be written in one send."""
    if _DISALLOWED.search(path):
        raise http.client.InvalidURL(f"the path {path!r} has characters a URL may not hold")
    lines = [f"{method} {path} HTTP/1.1".encode("ascii"),
             f"Host: {host}\r\nAccept-Encoding: identity".encode("latin-1")]
    if body is not None:
        lines.append(b"Content-Length: %d" % len(body))
    lines += [f"{name}: {value}".encode("latin-1") for name, value in headers.items()]
    return b"\r\n".join(lines) + b"\r\n\r\n" + (body or b"")


class Wire:
    """One connection's socket (any object with sendall and recv) and what arrived on it
    beyond the response read so far."""

    def __init__(self, sock):
        self.sock, self._buf = sock, bytearray()   # appended to in place: no copy a packet

    def send(self, data: bytes) -> None:
        """Write the request."""
        self.sock.sendall(data)

    def head(self) -> tuple[str, int, dict]:
        """The status line and headers of the response (a 100 Continue before it skipped):
        (version, status, headers with names in lower case)."""
        while True:
            version, status, headers = self._head()
            if status != 100:
                return version, status, headers

    def body(self, head: tuple, method: str, limit: int) -> tuple[bytes, bool]:
        """The body of the response whose `head` was read: (body, whether the connection
        must close after it: the bot said so, or sent more than the response, or the body
        ran to its close)."""
        version, status, headers = head
        keep = ("keep-alive" in headers.get("connection", "").lower() if version == "HTTP/1.0"
                else "close" not in headers.get("connection", "").lower())
        if status in _NO_BODY or 100 <= status < 200 or method == "HEAD":
            body = b""
        elif headers.get("transfer-encoding", "").lower() == "chunked":
            body = self._chunked(limit)
        else:
            length = _length(headers.get("content-length"))
            if length is None:
                body, keep = self._until_close(limit), False
            else:
                body = self._exactly(length, limit)
        return body, not keep or bool(self._buf)

    def _fill(self) -> bool:
        """Receive what the bot sent next; False once it closed."""
        chunk = self.sock.recv(65536)
        self._buf += chunk
        return bool(chunk)

    def _line(self, what: str) -> bytes:
        """The next line (with its end), or what is left at the bot's close."""
        while True:
            end = self._buf.find(b"\n")
            if end >= 0:
                line = bytes(self._buf[:end + 1])
                del self._buf[:end + 1]
                if len(line) > MAX_LINE:
                    raise http.client.LineTooLong(what)
                return line
            if len(self._buf) > MAX_LINE:
                raise http.client.LineTooLong(what)
            if not self._fill():
                return self._take_all()

    def _head(self) -> tuple[str, int, dict]:
        """The status line and the headers (names in lower case, the first of each kept)."""
        head = self._through_blank_line()
        if not head:
            raise http.client.RemoteDisconnected("the bot closed the connection without "
                                                 "a response")
        # decoded once (ISO-8859-1: a character a byte, so lengths are the bytes'), not
        # line by line: a bot answers every move
        lines = head.decode("iso-8859-1").split("\n")
        if len(lines) - 1 > MAX_HEADERS:
            raise http.client.HTTPException(f"got more than {MAX_HEADERS} headers")
        if max(map(len, lines)) > MAX_LINE:
            raise http.client.LineTooLong("header line")
        parts = lines[0].split(None, 2)
        version = parts[0] if parts else ""
        if not version.startswith("HTTP/") or len(parts) < 2:
            raise http.client.BadStatusLine(repr(lines[0].encode("iso-8859-1")))
        try:
            status = int(parts[1])
        except ValueError:
            raise http.client.BadStatusLine(repr(lines[0].encode("iso-8859-1"))) from None
        if not 100 <= status <= 999:
            raise http.client.BadStatusLine(repr(lines[0].encode("iso-8859-1")))
        if version not in ("HTTP/1.0", "HTTP/0.9") and not version.startswith("HTTP/1."):
            raise http.client.UnknownProtocol(version)
        headers: dict = {}
        for line in lines[1:]:
            name, colon, value = line.partition(":")
            if colon and name[:1] not in (" ", "\t"):   # no folded continuation lines
                headers.setdefault(name.strip().lower(), value.strip())
        return version, status, headers

    def _through_blank_line(self) -> bytes:
        """The head: what arrives before the first empty line (taken off the buffer with
        that line), or everything left when the bot closes before one."""
        start = 0
        while True:
            end = self._buf.find(b"\n\r\n", start)
            bare = self._buf.find(b"\n\n", start, None if end < 0 else end + 1)
            if bare >= 0 or end >= 0:
                cut, skip = (bare, 2) if bare >= 0 else (end, 3)
                head = bytes(self._buf[:cut])
                del self._buf[:cut + skip]
                return head
            if self._buf.startswith((b"\r\n", b"\n")):   # no status line at all
                raise http.client.BadStatusLine(repr(self._buf[:2]))
            if len(self._buf) > MAX_HEAD:
                raise http.client.HTTPException(f"the head is longer than {MAX_HEAD} bytes")
            start = max(0, len(self._buf) - 2)
            if not self._fill():
                return self._take_all()

    def _exactly(self, length: int, limit: int) -> bytes:
        if length > limit:
            self._until(limit + 1)
            raise TooLarge(bytes(self._buf[:limit]))
        if not self._until(length):
            raise http.client.IncompleteRead(bytes(self._buf), length - len(self._buf))
        body = bytes(self._buf[:length])
        del self._buf[:length]
        return body

    def _until(self, size: int) -> bool:
        """Receive until `size` bytes wait (True) or the bot closed (False)."""
        while len(self._buf) < size:
            if not self._fill():
                return False
        return True

    def _until_close(self, limit: int) -> bytes:
        while self._fill():
            if len(self._buf) > limit:
                raise TooLarge(bytes(self._buf[:limit]))
        return self._take_all()

    def _take_all(self) -> bytes:
        """Everything received and not read yet."""
        data = bytes(self._buf)
        self._buf.clear()
        return data

    def _chunked(self, limit: int) -> bytes:
        parts, size = [], 0
        while True:
            line = self._line("chunk size")
            chunk = int(line.split(b";", 1)[0], 16)   # ValueError: not a chunk size
            if chunk == 0:
                break
            size += chunk
            if size > limit:
                raise TooLarge((b"".join(parts) + self._buf)[:limit])
            parts.append(self._exactly(chunk, limit))
            self._exactly(2, 2)   # the chunk's CRLF
        while self._line("trailer") not in (b"\r\n", b"\n", b""):
            pass
        return b"".join(parts)


def _length(value: str | None) -> int | None:
    """Content-Length as http.client reads it: None when absent, not a number or negative."""
    if value is None:
        return None
    try:
        length = int(value)
    except ValueError:
        return None
    return length if length >= 0 else None
