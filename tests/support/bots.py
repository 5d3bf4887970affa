"""Bot servers on loopback for arena tests: well-behaved, slow, crashing, garbage, illegal.

Each serves bot protocol v1 with the standard library only, verifies our signatures once it
knows its secret, and records what it was sent.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import ThreadingHTTPServer

from arena.benchbot import JsonBotHandler
from arena.protocol import verify


def deterministic_choice(request: dict) -> dict:
    """A legal move that depends only on the request (so replays repeat it)."""
    moves = request["legal_moves"]
    return moves[(request["version"] * 7 + request["seat"] * 3) % len(moves)]


class BotServer:
    """A test bot; `behaviour` is good, slow, crash, garbage, not_a_move, illegal, huge,
    or a callable(request) -> (status, body bytes)."""

    def __init__(self, behaviour="good", name=None, games=("gops",), delay=0.0,
                 fail_after=0, apiversion="1"):
        self.behaviour, self.delay, self.fail_after = behaviour, delay, fail_after
        self.name, self.games, self.apiversion = name or f"{behaviour}-bot", list(games), apiversion
        self.secret: str | None = None
        self.requests: list[tuple[str, dict]] = []
        self.refused: list[str] = []
        self.nonces: set = set()
        self.moves_answered = 0
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_port}"
        # a shutdown poll of 50 ms, not 0.5 s: stop() waits out one poll, in every arena test
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,),
                                        daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Close the port (a bot that went away)."""
        self._server.shutdown()
        self._server.server_close()

    def paths(self) -> list[str]:
        """The paths of the requests received, in order."""
        return [p for p, _ in self.requests]

    def _answer_move(self, request: dict):
        self.moves_answered += 1
        failing = self.moves_answered > self.fail_after
        behaviour = self.behaviour if failing else "good"
        if callable(behaviour):
            return behaviour(request)
        if behaviour == "slow":
            time.sleep(self.delay)
        elif self.delay:
            time.sleep(self.delay)
        if behaviour == "crash":
            return 500, b'{"error": "boom"}'
        if behaviour == "garbage":
            return 200, b"<html>I am not JSON</html>"
        if behaviour == "not_a_move":
            return 200, b'{"action": 3}'
        if behaviour == "illegal":
            return 200, json.dumps({"move": {"type": "bid", "card": 999}}).encode()
        if behaviour == "huge":
            return 200, b'{"move": {"type": "keep", "pad": "' + b"x" * 400_000 + b'"}}'
        return 200, json.dumps({"move": deterministic_choice(request)}).encode()

    def _handler(self):
        bot = self

        class Handler(JsonBotHandler):
            def do_GET(self):
                info = {"apiversion": bot.apiversion, "name": bot.name, "author": "tests",
                        "games": bot.games}
                self._send(json.dumps(info).encode())

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                if bot.secret is not None:
                    reason = verify(bot.secret, self.headers, body, seen_nonces=bot.nonces)
                    if reason is not None:
                        bot.refused.append(reason)
                        return self._send(json.dumps({"error": reason}).encode(), 401)
                request = json.loads(body)
                bot.requests.append((self.path, request))
                if self.path == "/move":
                    status, answer = bot._answer_move(request)
                    return self._send(answer, status)
                self._send(b"{}")

        return Handler


def counting_handler(answer, pause: float):
    """A BotServer handler that holds each call `pause` seconds and answers `answer(request)`
    ((status, body)), and the most calls it had at once (`peak[0]`): (handler, peak)."""
    active, peak, lock = [0], [0], threading.Lock()

    def handle(request):
        with lock:
            active[0] += 1
            peak[0] = max(peak[0], active[0])
        time.sleep(pause)
        with lock:
            active[0] -= 1
        return answer(request)
    return handle, peak
