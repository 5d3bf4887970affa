"""GET /v1/bots is paginated and serves none of a bot's raw answers (issue 12: 20
registrations of a bot with a 250 KB `GET /` made a 5 MB unpaginated list)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

BLOB = "x" * 250_000


class Chatty(BaseHTTPRequestHandler):
    """A bot whose GET / (at any path) answers the protocol's fields and 250 KB besides."""

    def do_GET(self):  # noqa: N802 (http.server's name)
        body = json.dumps({"apiversion": "1", "name": "chatty", "games": ["gops"],
                           "author": "a" * 5000, "blob": BLOB}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def chatty():
    """The chatty bot on loopback; its base URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), Chatty)
    threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_bots_are_listed_a_page_at_a_time_without_their_raw_answers(client, chatty):
    """Five registrations: pages of 2 in registration order with the total; the default page
    size is 50; a bad limit is 422; no listed bot carries the 250 KB or the long author."""
    ids = []
    for i in range(5):
        r = client.post("/v1/bots", json={"url": f"{chatty}/b{i}", "games": ["gops"]})
        assert r.status_code == 201, r.json
        ids.append(r.json["id"])
    pages = [client.get(f"/v1/bots?offset={o}&limit=2").json for o in (0, 2, 4)]
    assert [b["id"] for p in pages for b in p["bots"]] == ids
    assert all(p["total"] == 5 and p["limit"] == 2 for p in pages)
    whole = client.get("/v1/bots")
    assert whole.json["limit"] == 50 and len(whole.json["bots"]) == 5
    assert len(whole.data) < 20_000 and "blob" not in whole.text
    assert all(len(b["author"]) <= 200 for b in whole.json["bots"])
    for bad in ("limit=0", "limit=201", "offset=-1", f"offset={2**63}"):
        assert client.get(f"/v1/bots?{bad}").status_code == 422, bad


def test_the_python_client_pages_through_every_bot(client, chatty, monkeypatch):
    """referee_client's bots() asks page by page until it has `total`."""
    from referee_client.client import Client

    for i in range(3):
        assert client.post("/v1/bots", json={"url": f"{chatty}/c{i}",
                                             "games": ["gops"]}).status_code == 201
    asked = []

    def fake_get(self, path, **kwargs):
        asked.append(kwargs["params"])
        offset, limit = kwargs["params"]["offset"], 2
        return client.get(f"/v1{path}?offset={offset}&limit={limit}").json
    monkeypatch.setattr(Client, "_get", fake_get)
    found = Client.__new__(Client).bots()
    assert len(found) == 3 and [a["offset"] for a in asked] == [0, 2]


def test_each_listed_bot_is_its_own_record(client, chatty):
    """The list reads its page of bots together (records, open flags, health in a pipeline):
    each entry must be what GET /v1/bots/{id} serves, whatever state the bot is in: open,
    disabled, with failures and latencies on record, with calls in flight."""
    import time

    from arena.bots import BotRegistry

    ids = [client.post("/v1/bots", json={"url": f"{chatty}/s{i}", "games": ["gops"]}).json["id"]
           for i in range(4)]
    bots: BotRegistry = client.application.extensions["referee"].extensions["arena"].bots
    bots.set_open(ids[0], True)
    bots.standing.disable(ids[1], "an organiser's decision")
    bots.record_move(ids[2], 12.5, {"code": "bot.timeout"}, "m1", 3)
    bots.record_move(ids[2], 7.0, None, "m1", 4)
    bots.flush()
    bots.redis.zadd(bots.slots.key_of(ids[3]), {"a-call": time.time() + 60})
    listed = {b["id"]: b for b in client.get("/v1/bots").json["bots"]}
    for bot_id in ids:
        assert listed[bot_id] == client.get(f"/v1/bots/{bot_id}").json
    assert listed[ids[0]]["open"] is True and listed[ids[1]]["health"]["status"] == "disabled"
    assert listed[ids[2]]["health"]["timeouts"] == 1
    assert listed[ids[2]]["health"]["latency_ms"]["samples"] == 2
    assert listed[ids[3]]["health"]["calls_in_flight"] == 1
