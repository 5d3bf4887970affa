"""A bot protocol v1 server around one function, on the standard library.

GET / answers who the bot is; POST /start, /move and /end are verified against the secret
(once the bot has one) and handed to `on_start`, `move_fn` and `on_end`.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable

from referee_client.signing import MAX_SKEW_SECONDS, Verifier

log = logging.getLogger("referee_client.botkit")

API_VERSION = "1"
SECRET_ENV = "REFEREE_BOT_SECRET"
SECRET_FILE_ENV = "REFEREE_BOT_SECRET_FILE"
MAX_REQUEST_BYTES = 16 * 1024 * 1024
"""Requests larger than this are refused: a view is large, but not that large."""
IDLE_SECONDS = 300
"""A kept-alive connection idle this long is closed (the service reconnects as needed)."""
POLL_SECONDS = 0.1
"""How often the accept loop checks for stop(): how long stopping takes at most."""


class BotServer:
    """A bot: `move_fn(request) -> move` served over HTTP; start(), serve_forever(), stop().

    The secret may be given, taken from $REFEREE_BOT_SECRET, read from a file (given, or
    $REFEREE_BOT_SECRET_FILE; re-read when it changes), or assigned later (`server.secret =`)
    since a bot learns it only when it registers. Until it has one it cannot verify, so it
    accepts unsigned requests unless `require_signature` is set.
    """

    def __init__(self, move_fn: Callable[[dict], dict], *, name: str, games=(),
                 secret: str | None = None, secret_file: str | None = None,
                 host: str = "127.0.0.1", port: int = 0, author: str = "", version: str = "",
                 on_start: Callable[[dict], None] | None = None,
                 on_end: Callable[[dict], None] | None = None,
                 require_signature: bool = False, max_skew: float = MAX_SKEW_SECONDS):
        self.move_fn, self.on_start, self.on_end = move_fn, on_start, on_end
        self.name, self.games, self.author, self.version = name, list(games), author, version
        self._secret = secret or os.environ.get(SECRET_ENV) or None
        self.secret_file = secret_file or os.environ.get(SECRET_FILE_ENV) or None
        self._file_cache: tuple[float, str | None] = (-1.0, None)
        self.require_signature = require_signature
        self.verifier = Verifier(max_skew)
        self.refused: list[str] = []  # why requests were refused, newest last (bounded)
        self._httpd = _HTTPServer((host, port), _Handler)
        self._httpd.bot = self
        self._thread: threading.Thread | None = None

    # -- identity -----------------------------------------------------------------------------

    @property
    def port(self) -> int:
        """The port it listens on (useful with port=0)."""
        return self._httpd.server_address[1]

    @property
    def url(self) -> str:
        """The URL to register (a wildcard bind is reached on loopback)."""
        host = self._httpd.server_address[0]
        host = "127.0.0.1" if host in ("0.0.0.0", "") else host
        return f"http://{host}:{self.port}"

    def info(self) -> dict:
        """What GET / answers."""
        info = {"apiversion": API_VERSION, "name": self.name, "author": self.author,
                "games": self.games}
        return {**info, "version": self.version} if self.version else info

    @property
    def secret(self) -> str | None:
        """The signing secret: assigned, from the environment, or from the secret file."""
        if self._secret:
            return self._secret
        return self._read_secret_file()

    @secret.setter
    def secret(self, value: str | None) -> None:
        self._secret = value or None

    def _read_secret_file(self) -> str | None:
        if not self.secret_file:
            return None
        try:
            mtime = os.stat(self.secret_file).st_mtime
        except OSError:
            return None
        if mtime != self._file_cache[0]:
            with open(self.secret_file, encoding="utf-8") as handle:
                self._file_cache = (mtime, handle.read().strip() or None)
        return self._file_cache[1]

    # -- running --------------------------------------------------------------------------------

    def start(self) -> "BotServer":
        """Serve in a background thread; returns self."""
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(POLL_SECONDS,),
                                        daemon=True, name=f"bot-{self.name}")
        self._thread.start()
        return self

    def serve_forever(self) -> None:
        """Serve in this thread until stop() (or Ctrl-C)."""
        try:
            self._httpd.serve_forever(POLL_SECONDS)
        except KeyboardInterrupt:
            pass

    def wait(self) -> None:
        """Block until a server started with start() stops."""
        if self._thread is not None:
            self._thread.join()

    def stop(self) -> None:
        """Stop serving and close the port."""
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> "BotServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    # -- requests -------------------------------------------------------------------------------

    def handle_post(self, path: str, headers, body: bytes) -> tuple[int, dict]:
        """Verify and answer one POST: the status and the JSON body to send."""
        handler = {"/start": self._start, "/move": self._move, "/end": self._end}.get(path)
        if handler is None:
            return 404, {"error": f"no endpoint {path}"}
        reason = self._refusal(headers, body)
        if reason is not None:
            self.refused = (self.refused + [reason])[-100:]
            log.warning("refused %s: %s", path, reason)
            return 401, {"error": reason}
        try:
            request = json.loads(body)
        except ValueError:
            return 400, {"error": "the body is not JSON"}
        try:
            return 200, handler(request)
        except Exception as err:  # the bot's own bug: say so (the service records a failure)
            log.exception("%s failed", path)
            return 500, {"error": f"{type(err).__name__}: {err}"}

    def _refusal(self, headers, body: bytes) -> str | None:
        secret = self.secret
        if secret is None:
            return "no secret yet" if self.require_signature else None
        return self.verifier.check(secret, headers, body)

    def _start(self, request: dict) -> dict:
        if self.on_start is not None:
            self.on_start(request)
        return {}

    def _move(self, request: dict) -> dict:
        move = self.move_fn(request)
        if not isinstance(move, dict):
            raise TypeError(f"move_fn must return a move object, got {move!r}")
        return {"move": move}

    def _end(self, request: dict) -> dict:
        if self.on_end is not None:
            self.on_end(request)
        return {}


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128  # many workers may connect at once; socketserver's default is 5
    bot: BotServer


class _Handler(BaseHTTPRequestHandler):
    """HTTP/1.1 with keep-alive: the service reuses one connection per worker thread."""

    protocol_version = "HTTP/1.1"
    server_version = "referee-botkit/1"
    timeout = IDLE_SECONDS

    def setup(self):
        """Per connection: set TCP_NODELAY."""
        super().setup()
        # Without TCP_NODELAY, Nagle's algorithm holds the body segment until the service
        # ACKs the header segment, and delayed ACKs make that ~40 ms on every move.
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, format, *args):
        """Access lines go to the debug log, not stderr."""
        log.debug("%s " + format, self.address_string(), *args)

    def do_GET(self):
        """GET /: who the bot is."""
        if self.path.split("?")[0] in ("", "/"):
            return self._send(200, self.server.bot.info())
        self._send(404, {"error": f"no endpoint {self.path}"})

    def do_POST(self):
        """POST /start, /move, /end: read the body, hand it to the bot."""
        length = self.headers.get("Content-Length")
        if length is None or not length.isdigit():
            self.close_connection = True  # we cannot find the end of this request
            return self._send(411, {"error": "Content-Length required"})
        if int(length) > MAX_REQUEST_BYTES:
            self.close_connection = True
            return self._send(413, {"error": "request too large"})
        body = self.rfile.read(int(length))
        self._send(*self.server.bot.handle_post(self.path, self.headers, body))

    def _send(self, status: int, payload: dict) -> None:
        body = json.dumps(payload, separators=(",", ":")).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
