"""The example bots as real processes (Python random bot, JavaScript bot): signature checks on
their sockets, arena matches played by worker threads, and a round robin played by `referee
worker` processes."""

from __future__ import annotations

import http.client
import json
import sys
import time
from urllib.parse import urlsplit

import pytest

from referee_client import Client
from referee_client.signing import sign
from tests.support.peersocket import server_nodelay
from tests.clients.support import JS_DIR, MOVE_REQUEST, NODE, RANDOM_BOT, needs_node, post

BODY = json.dumps(MOVE_REQUEST).encode()
LANGUAGES = ["python", pytest.param("js", marks=needs_node)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_bot_verifies_signatures(service_url, example_bots, language):
    """Once registered (it learnt its secret), the bot answers only fresh requests signed
    with that secret: unsigned, wrong-secret, stale and replayed requests get 401."""
    _, secret, url = example_bots(language, service_url, f"{language}-sig")
    good = sign(secret, BODY)
    assert post(url, "/move", BODY, good) == (200, {"move": {"type": "bid", "card": 2}})
    assert post(url, "/move", BODY, good) == (401, {"error": "replayed nonce"})
    assert post(url, "/move", BODY) == (401, {"error": "unsigned request"})
    assert post(url, "/move", BODY, sign("wrong", BODY)) == (401, {"error": "bad signature"})
    stale = sign(secret, BODY, now=time.time() - 3600)
    assert post(url, "/move", BODY, stale) == (401, {"error": "stale timestamp"})
    assert post(url, "/start", b"{}", sign(secret, b"{}")) == (200, {})


JS_OWN_BOT = """
const { serveBot } = require(process.argv[1]);
// async, and wrong on purpose when there is a choice: it returns no move
const bot = serveBot(async (r) => (r.legal_moves.length === 1 ? r.legal_moves[0] : null),
                     { name: 'own', games: ['gops'], secret: process.argv[2] });
bot.server.listen(0, '127.0.0.1', () => console.log(`serving http://127.0.0.1:${bot.server.address().port}`));
"""


@needs_node
def test_the_js_kit_serves_your_own_function(processes):
    """serveBot(fn) from your own script: async functions work; no move is a 500 (never a
    silent substitute); bad JSON is a 400, an unknown path a 404; GET / names the bot."""
    secret = "js-secret"
    reader = processes([NODE, "-e", JS_OWN_BOT, str(JS_DIR / "bot.js"), secret])
    url = reader.wait_for(r"serving (http://\S+)").group(1)
    assert post(url, "/move", BODY, sign(secret, BODY)) == (200, {"move": {"type": "bid",
                                                                           "card": 2}})
    two = json.dumps({**MOVE_REQUEST, "legal_moves": [{"type": "keep"}] * 2}).encode()
    status, answer = post(url, "/move", two, sign(secret, two))
    assert status == 500 and "must return a move object" in answer["error"]
    assert post(url, "/move", b"{oops", sign(secret, b"{oops"))[0] == 400
    assert post(url, "/nowhere", BODY, sign(secret, BODY))[0] == 404
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=5)
    conn.request("GET", "/")
    assert json.loads(conn.getresponse().read()) == {"apiversion": "1", "name": "own",
                                                     "author": "", "games": ["gops"]}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_bot_keeps_the_connection_and_answers_at_once(service_url, example_bots, language):
    """Twenty signed moves on one kept-alive connection, whose server end has TCP_NODELAY
    set (without it, Nagle's algorithm and delayed ACKs cost ~40 ms an answer): asked of
    the bot process's socket itself, not timed."""
    _, secret, url = example_bots(language, service_url, f"{language}-fast")
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=5)
    conn.connect()
    sock = conn.sock
    for _ in range(20):
        headers = {"Content-Type": "application/json", **sign(secret, BODY)}
        conn.request("POST", "/move", body=BODY, headers=headers)
        response = conn.getresponse()
        assert (response.status, json.loads(response.read())) == (200, {"move": MOVE_REQUEST[
            "legal_moves"][0]})
    assert conn.sock is sock
    assert server_nodelay(sock)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_bot_plays_arena_matches(service_url, api, example_bots, language):
    """In every seat of a match against builtin:random, and at a three-seat table: complete
    matches ended by the rules, with no failure on the bot's record."""
    bot_id, _, _ = example_bots(language, service_url, f"{language}-arena")
    seatings = [[f"bot:{bot_id}", "builtin:random"], ["builtin:random", f"bot:{bot_id}"],
                ["builtin:random", f"bot:{bot_id}", "builtin:random"]]
    # a rated match seats each entrant once: the three-seat table (builtin twice) is unrated
    ids = [api.create_arena_match("gops", seats, options={"cards": 4}, seed=i,
                                  rated=len(seats) == 2)["id"]
           for i, seats in enumerate(seatings)]
    for match_id in ids:
        final = api.wait_for_match(match_id, timeout=30)
        assert final["result"]["termination"] == "rules", final["result"]
        log = api.log(match_id)
        assert not any(m.get("failure") for m in log["moves"])
        assert any(m.get("latency_ms") is not None for m in log["moves"])  # the bot's moves
    health = _until(lambda: api.bot(bot_id)["health"], lambda h: h["matches"] == 3)
    assert health["moves"] > 3 * 4 and health["latency_ms"]["p50"] is not None
    assert sum(health[k] for k in ("timeouts", "crashes", "bad_responses", "illegal_moves")) == 0


@needs_node
def test_both_bots_in_a_round_robin_on_worker_processes(cluster_url, example_bots):
    """Python bot, JavaScript bot and builtin:random in a duplicate round robin played by
    two `referee worker` processes: every match complete, no failures, a full table."""
    api = Client(cluster_url)
    py_id, _, _ = example_bots("python", cluster_url, "py-random")
    js_id, _, _ = example_bots("js", cluster_url, "js-random")
    tour = api.create_tournament("gops", [py_id, js_id, "builtin:random"], players=2,
                                 seeds_per_table=2, seed=3, options={"cards": 4})
    done = api.wait_for_tournament(tour["id"], timeout=60)
    assert done["status"] == "finished"
    assert done["progress"] == {"matches": 12, "finished": 12, "total": 12}
    rows = {row["entrant"]: row for row in done["standings"]}
    assert set(rows) == {py_id, js_id, "builtin:random"}
    assert all(row["matches"] == 8 and row["failure_rate"] == 0 for row in rows.values())
    assert {rows[py_id]["name"], rows[js_id]["name"]} == {"py-random", "js-random"}
    for match_id in done["matches"]:
        assert api.match(match_id)["result"]["termination"] == "rules"


def _until(fetch, done, timeout=10.0):
    deadline = time.monotonic() + timeout
    while not done(value := fetch()):
        assert time.monotonic() < deadline, value
        time.sleep(0.05)
    return value


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_refused_registration_is_reported(service_url, processes, language):
    """Registering for a game the service does not have: the problem code, exit status 1."""
    program = [NODE, str(JS_DIR / "bot.js")] if language == "js" else [sys.executable,
                                                                       str(RANDOM_BOT)]
    reader = processes(program + ["--port", "0", "--register", service_url, "--games", "chess"])
    reader.wait_for("registration refused: bot.rejected")
    assert reader.proc.wait(10) == 1
