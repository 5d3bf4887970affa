"""A raw TCP server on loopback for hostile-bot tests: each connection is handed to a function
that writes whatever bytes it likes, as slowly as it likes."""

from __future__ import annotations

import socket
import threading
import time


class RawServer:
    """Accepts connections on 127.0.0.1; `serve(conn, request_bytes)` answers each request.

    `requests` keeps (first line, headers as a dict) of every request received.
    """

    def __init__(self, serve):
        self.serve = serve
        self.requests: list[tuple[str, dict]] = []
        self._sock = socket.socket()
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen(16)
        self.port = self._sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self._stopped = False
        threading.Thread(target=self._accept, daemon=True).start()

    def stop(self) -> None:
        """Stop accepting (connections in progress end on their own)."""
        self._stopped = True
        self._sock.close()

    def _accept(self) -> None:
        while not self._stopped:
            try:
                conn, _ = self._sock.accept()
            except OSError:
                return
            threading.Thread(target=self._handle, args=(conn,), daemon=True).start()

    def _handle(self, conn) -> None:
        try:
            while True:
                request = read_request(conn)
                if request is None:
                    return
                head = request.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
                headers = dict(line.split(": ", 1) for line in head[1:] if ": " in line)
                self.requests.append((head[0], {k.lower(): v for k, v in headers.items()}))
                if self.serve(conn, request) is False:
                    return
        except OSError:
            pass
        finally:
            conn.close()


def read_request(conn) -> bytes | None:
    """One whole request (head and Content-Length body), or None once the peer closes."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            return None
        data += chunk
    head, body = data.split(b"\r\n\r\n", 1)
    length = 0
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":", 1)[1])
    while len(body) < length:
        body += conn.recv(65536)
    return head + b"\r\n\r\n" + body


def http_answer(body: bytes, status: str = "200 OK") -> bytes:
    """A complete keep-alive HTTP/1.1 response."""
    return (f"HTTP/1.1 {status}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode() + body


def dripping(prefix: bytes, every_s: float):
    """A serve function that sends `prefix` at once, then one byte of a valid answer every
    `every_s` seconds, forever (until the peer goes)."""
    def serve(conn, request):
        conn.sendall(prefix)
        for byte in http_answer(b'{"move": {"type": "keep"}}')[len(prefix):] * 1000:
            time.sleep(every_s)
            conn.sendall(bytes([byte]))
        return False
    return serve
