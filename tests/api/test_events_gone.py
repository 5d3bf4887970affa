"""An event stream whose client closed its connection gives its wait slot back while idle,
long before its next heartbeat (referee/api/peer.py, PEER_CHECK_S): on `referee serve` and
on the README's gunicorn (gevent), on loopback, with real sockets closed by the client."""

from __future__ import annotations

import socket
import time

import pytest
import requests

from referee.service.events import PEER_CHECK_S
from tests.support.http import serve_embedded, serve_gunicorn, stop_process

HEARTBEAT = 120
"""Far beyond the test: a slot given back within it was not given back by a failed write."""


@pytest.fixture(scope="module", params=["serve", "gunicorn"])
def capped(request):
    """A server holding at most 2 waits, with a heartbeat of HEARTBEAT seconds."""
    env = {"REFEREE_HEARTBEAT": str(HEARTBEAT), "REFEREE_MAX_WAITS": "2",
           "REFEREE_WAITS_PER_CALLER": "3"}
    proc, base = serve_embedded(**env) if request.param == "serve" else \
        serve_gunicorn(REDIS_URL="", **env)
    yield base
    output = stop_process(proc)
    assert "Traceback" not in output, output


def _open_stream(base: str, match_id: str) -> socket.socket:
    """A raw connection holding GET …/events as a spectator, its headers read (200)."""
    host, port = base.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=10)
    sock.sendall(f"GET /v1/matches/{match_id}/events HTTP/1.1\r\nHost: {host}\r\n"
                 f"Connection: close\r\n\r\n".encode())
    head = b""
    while b"retry:" not in head:
        chunk = sock.recv(4096)
        assert chunk, head
        head += chunk
    assert head.startswith(b"HTTP/1.1 200"), head
    return sock


def test_a_closed_stream_frees_its_slot_before_its_heartbeat(capped):
    """Two streams fill the server; a third is refused 503 wait.capacity; the two clients
    close their sockets without a word, and a new stream is taken within a few peer checks,
    though no heartbeat (every HEARTBEAT s) has written to the closed ones."""
    match = requests.post(f"{capped}/v1/matches", json={"game": "dschunke", "seed": 11,
                                                        "seats": ["remote"] * 3}, timeout=10)
    assert match.status_code == 201, match.text
    match_id = match.json()["id"]
    held = [_open_stream(capped, match_id) for _ in range(2)]
    refused = requests.get(f"{capped}/v1/matches/{match_id}/events", stream=True, timeout=10)
    assert refused.status_code == 503 and refused.json()["code"] == "wait.capacity"
    for sock in held:
        sock.close()
    closed = time.monotonic()
    while True:
        answer = requests.get(f"{capped}/v1/matches/{match_id}/events", stream=True,
                              timeout=10)
        if answer.status_code == 200:
            answer.close()
            break
        assert answer.json()["code"] == "wait.capacity"
        waited = time.monotonic() - closed
        assert waited < 3 * PEER_CHECK_S + 5, \
            f"the closed streams still hold their slots {waited:.1f} s after they closed"
        time.sleep(0.25)
