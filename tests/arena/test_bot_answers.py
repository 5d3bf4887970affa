"""A bot is charged for whatever it sends (issues 11 and 12): a drip is bot.timeout at the
deadline, NaN and deep nesting are bot.bad_response, the match ends with the bot forfeited
(never aborted), its health counts it, and nothing it sent reaches a public record."""

from __future__ import annotations

import json
import time

import pytest

from arena import botclient
from referee.service import strictjson
from arena.netguard import AddressPolicy, resolve
from tests.api.helpers import wait_until
from tests.arena.helpers import arena_match, finished, register
from tests.arena.rawserver import RawServer, http_answer

LOOPBACK = AddressPolicy.from_setting("127.0.0.0/8")
MARK = "PRIVATE-BOT-BYTES-7731"




def _no_constants(name):
    raise AssertionError(f"invalid JSON constant {name}")


def strict(data: bytes):
    """Parse as strict JSON: NaN / Infinity fail the test."""
    return json.loads(data, parse_constant=_no_constants)


def _drip(head: bytes):
    """Answer GET / properly; answer POSTs with `head` at once, then a byte every 0.8 s."""
    def serve(conn, request):
        if request.startswith(b"GET"):
            return conn.sendall(http_answer(b'{"apiversion": "1", "games": ["gops"]}'))
        conn.sendall(head)
        for _ in range(200):
            time.sleep(0.8)
            conn.sendall(b" ")
        return False
    return serve


DRIPS = {"status line": b"H",
         "headers": b"HTTP/1.1 200 OK\r\nX-Slow: a",
         "body": b"HTTP/1.1 200 OK\r\nContent-Length: 500\r\n\r\n{"}


@pytest.mark.parametrize("where", list(DRIPS))
def test_a_drip_times_out_at_the_deadline(where):
    """One byte every 0.8 s against a 1 s limit: bot.timeout at 1 s, wherever it drips."""
    server = RawServer(_drip(DRIPS[where]))
    try:
        target = resolve(server.url, LOOPBACK)
        start = time.monotonic()
        reply = botclient.call(target, "/move", {"x": 1}, "s", 1.0)
        elapsed = time.monotonic() - start
    finally:
        server.stop()
    assert reply.failure == {"code": "bot.timeout", "limit_ms": 1000}
    assert 0.95 <= elapsed < 1.5 and reply.latency_ms < 1500


def test_a_dripping_bot_forfeits_a_match_in_time(client):
    """In a match: the drip costs the move limit once, not 80 s; the match ends."""
    server = RawServer(_drip(DRIPS["headers"]))
    try:
        bot_id = register(client, type("B", (), {"name": "drip", "url": server.url})())
        start = time.monotonic()
        body = arena_match(client, [f"bot:{bot_id}", "builtin:random"],
                           limits={"move_ms": 1000, "bank_ms": 0, "start_ms": 1000})
        match = finished(client, body["id"], timeout=30)
        elapsed = time.monotonic() - start
    finally:
        server.stop()
    assert match["result"]["failures"]["0"]["code"] == "bot.timeout"
    assert elapsed < 10  # one start (1 s); without the deadline: a minute and more


def test_strict_json_refusals():
    """What strictjson refuses, and what it keeps."""
    refused = [b'{"a": NaN}', b'{"a": Infinity}', b'[-Infinity]', b'[1e999]', b'[-1e400]',
               b'{"a": 1, "a": 2}', b'["\\ud800"]', b'{"\\udfff": 1}', b'\xef\xbb\xbf{}',
               b'\xff{}', b"[" + b"9" * 30 + b"]", b"[" * 65 + b"]" * 65, b"[1,]", b"{'a': 1}",
               b"[" * 60_000 + b"]" * 60_000, b'{"a": [' + b'"[", ' * 100 + b"1]}" + b"}"]
    for data in refused:
        with pytest.raises(strictjson.BadJson):
            strictjson.loads(data)
    assert strictjson.loads(b"[" * 64 + b"]" * 64) is not None
    assert strictjson.loads(b'{"a": "[[[[", "e": "\\ud83d\\ude00", "n": -9223372036854775808}') \
        == {"a": "[[[[", "e": "\U0001F600", "n": -2 ** 63}


def _answer(body: bytes, status: int = 200):
    return lambda request: (status, body)


NAN = _answer(b'{"move": {"type": "bid", "card": NaN}, "note": "' + MARK.encode() + b'"}')
DEEP = _answer(b'{"move": ' + b"[" * 60_000 + b"]" * 60_000 + b"}")
CRASH = _answer(f'{{"error": "{MARK}"}}'.encode(), 500)
DUPLICATE = _answer(b'{"move": {"type": "keep"}, "move": {"type": "bid", "card": 1}}')


@pytest.mark.parametrize("behaviour, code", [(NAN, "bot.bad_response"),
                                             (DEEP, "bot.bad_response"),
                                             (CRASH, "bot.http_error"),
                                             (DUPLICATE, "bot.bad_response")],
                         ids=["nan", "deep", "crash", "duplicate-keys"])
def test_a_hostile_answer_is_the_bots_failure_and_never_leaks(client, bots, behaviour, code):
    """The match ends over (not aborted) with the bot forfeited and last; its health counts
    the failure; every endpoint emits strict JSON; what it sent is only in its private view."""
    bad, good = bots(behaviour, "hostile"), bots("good", "fine")
    ids = [register(client, bad), register(client, good)]
    body = arena_match(client, [f"bot:{ids[0]}", f"bot:{ids[1]}"])
    match = finished(client, body["id"])
    assert match["status"] == "over" and match["result"]["termination"] == "forfeit"
    assert match["result"]["failures"]["0"]["code"] == code and match["result"]["ranks"] == [2, 1]
    health = wait_until(lambda: (h := client.get(f"/v1/bots/{ids[0]}").json["health"])
                        ["matches"] == 1 and h)
    kind = "crashes" if code == "bot.http_error" else "bad_responses"
    assert health[kind] == 1 and health["last_error"]["code"] == code
    for path in (f"/v1/matches/{body['id']}", f"/v1/matches/{body['id']}/log", "/v1/bots",
                 f"/v1/bots/{ids[0]}", "/v1/leaderboards/gops", "/v1/tournaments"):
        r = client.get(path)
        assert r.status_code == 200 and MARK.encode() not in r.data, path
        strict(r.data)
    private = client.application.extensions["referee"].extensions["arena"].bots.private(ids[0])
    assert private["last_error"]["code"] == code
    if behaviour in (NAN, CRASH):
        assert MARK in private["last_error"]["sent"]["body"]


def test_an_unexpected_answer_shape_is_a_bad_response():
    """Whatever goes wrong looking at an answer is the bot's: {"move": 3}, a list, null."""
    from arena.driver import _check_answer

    for body in ({"move": 3}, [1], None, {"move": None}, "move"):
        failure, private = _check_answer(body)
        assert failure["code"] == "bot.bad_response" and "body" not in failure
    assert _check_answer({"move": {"type": "keep"}}) == (None, None)
