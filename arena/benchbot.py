"""The bench bot: the benchmark's one move policy, served over HTTP from its own process.

    python -m arena.benchbot     # prints "port <n>", serves on 127.0.0.1 until killed

`bench_move` is a pseudo-random legal move drawn from the version and the seat alone, so the
HTTP bots, the in-process bots and the bare rules loop of `referee bench arena` play the same
match move for move (the bench checks the logs are equal). A bot answering `legal_moves[0]`
is no benchmark: where the first legal move can repeat (a Yinzi exchange), it plays it until
the stalling limit forfeits it and the referee plays the rest at random.
"""

from __future__ import annotations

import hashlib
import socket
import subprocess
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import orjson


def bench_move(legal_moves: list, version: int, seat: int) -> dict:
    """The bench policy: the legal move a hash of (version, seat) points at."""
    digest = hashlib.blake2b(f"{version}:{seat}".encode(), digest_size=8).digest()
    return legal_moves[int.from_bytes(digest, "big") % len(legal_moves)]


class JsonBotHandler(BaseHTTPRequestHandler):
    """The HTTP side of a stdlib bot: HTTP/1.1 keep-alive, TCP_NODELAY (without it delayed
    ACKs cost ~40 ms a move), quiet, JSON answers. Subclasses write do_GET / do_POST."""

    protocol_version = "HTTP/1.1"

    def setup(self):
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, *args):
        pass

    def _send(self, body: bytes, status: int = 200):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class BenchBot(JsonBotHandler):
    """Plays `bench_move` at POST /move; /start, /end and /ping (the floor) answer {}."""

    def do_GET(self):
        self._send(orjson.dumps({"apiversion": "1", "name": "bench", "games": []}))

    def do_POST(self):
        # orjson, not json: the body carries the seat's whole view, which the standard
        # library's parser took some 870,000 instructions a Yinzi move to read (orjson
        # 380,000; a /ping's whole request, HTTP and all, costs the bot about 310,000)
        body = orjson.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if self.path == "/move":
            move = bench_move(body["legal_moves"], body["version"], body["seat"])
            self._send(orjson.dumps({"move": move}))
        else:
            self._send(b"{}")


class BotProcess:
    """A bench bot in a process of its own (as real bots are: not threads of the referee)."""

    def __init__(self):
        self.proc = subprocess.Popen([sys.executable, "-m", "arena.benchbot"],
                                     stdout=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline().split()
        if line[:1] != ["port"]:
            self.stop()
            raise RuntimeError("the bench bot did not start")
        self.url = f"http://127.0.0.1:{line[1]}"

    def stop(self) -> None:
        """End the bot's process."""
        self.proc.terminate()
        self.proc.wait(10)


def serve() -> None:
    """Serve the bench bot on a free loopback port; say which on stdout."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), BenchBot)
    server.daemon_threads = True
    print(f"port {server.server_port}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    serve()
