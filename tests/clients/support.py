"""Helpers for the client tests: processes read line by line, example bots, signed requests."""

from __future__ import annotations

import http.client
import json
import re
import shutil
import subprocess
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.support.http import serve_in_thread

ROOT = Path(__file__).resolve().parents[2]
CLIENTS_PY = ROOT / "clients" / "python"
JS_DIR = ROOT / "clients" / "js"
RANDOM_BOT = CLIENTS_PY / "examples" / "random_bot.py"
NODE = shutil.which("node")

needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed")


serving = serve_in_thread
"""Serve a WSGI app on a loopback port; yields its URL (the shared test helper)."""


class LineReader:
    """A subprocess whose output a thread collects, so a test can wait for a line."""

    def __init__(self, proc: subprocess.Popen):
        self.proc, self.lines = proc, []
        self._changed = threading.Condition()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            with self._changed:
                self.lines.append(line.rstrip("\n"))
                self._changed.notify_all()
        with self._changed:
            self._changed.notify_all()

    def wait_for(self, pattern: str, timeout: float = 15.0) -> re.Match:
        """The first output line matching `pattern`; fails if the process exits first."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                for line in self.lines:
                    if found := re.search(pattern, line):
                        return found
                left = deadline - time.monotonic()
                if left <= 0 or (self.proc.poll() is not None and not self._thread.is_alive()):
                    raise AssertionError(f"no line matching {pattern!r}; output:\n{self.text()}")
                self._changed.wait(min(left, 0.2))

    def text(self) -> str:
        """Everything printed so far."""
        return "\n".join(self.lines)

    def stop(self, timeout: float = 10.0) -> str:
        """Terminate the process (kill after `timeout`); everything it printed."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._thread.join(timeout)
        return self.text()


def start_example_bot(start, language: str, service_url: str, name: str, secret_file: Path,
                      games: str = "gops"):
    """Start the Python or JS example bot registered with the service for `games` (comma-
    separated); (id, secret, url)."""
    if language == "js":
        if NODE is None:
            pytest.skip("node is not installed")
        args = [NODE, str(JS_DIR / "bot.js")]
    else:
        import sys
        args = [sys.executable, str(RANDOM_BOT)]
    reader = start(args + ["--port", "0", "--name", name, "--games", games,
                           "--register", service_url, "--secret-file", str(secret_file)])
    url = reader.wait_for(r"serving (http://\S+)").group(1)
    bot_id = reader.wait_for(r"registered bot (\S+)").group(1)
    return bot_id, secret_file.read_text().strip(), url


def post(url: str, path: str, body: bytes, headers: dict | None = None) -> tuple[int, dict]:
    """One POST over a fresh connection; the status and the decoded JSON answer."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=5)
    try:
        conn.request("POST", path, body=body, headers={"Content-Type": "application/json",
                                                       **(headers or {})})
        response = conn.getresponse()
        return response.status, json.loads(response.read() or b"{}")
    finally:
        conn.close()


MOVE_REQUEST = {"apiversion": "1", "match": "m1", "game": "gops", "rules_version": "1",
                "seat": 0, "version": 3, "decision": {"seat": 0, "kind": "bid"},
                "view": {"hands": [[1, 2]]}, "legal_moves": [{"type": "bid", "card": 2}],
                "time": {"move_ms": 1000, "bank_ms": 10000, "allowed_ms": 11000},
                "previous_latency_ms": None}
"""A /move request as the service sends it (one legal move, so any bot answers it)."""

EXAMPLES = Path(__file__).resolve().parents[2] / "clients" / "protocol" / "examples"
_DSCHUNKE = json.loads((EXAMPLES / "dschunke.json").read_text())
START_REQUEST = _DSCHUNKE["start"]["request"]
END_REQUEST = _DSCHUNKE["end"]["request"]
"""A real /start and /end (clients/protocol/examples/, from a seeded match): `match` is the
match id string in both, as in /move."""
