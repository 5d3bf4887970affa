"""The bot kit on real loopback sockets: protocol v1, signatures, keep-alive, the secret."""

from __future__ import annotations

import http.client
import json
import socket
import time

import pytest

from arena import protocol as service_protocol
from referee_client.botkit import by_game, register, serve
from referee_client.signing import Verifier, sign, signature
from tests.clients.support import END_REQUEST, MOVE_REQUEST, START_REQUEST, post
from tests.support.peersocket import server_nodelay

BODY = json.dumps(MOVE_REQUEST).encode()
SECRET = "s3cret"


def first_move(request):
    """Play the first legal move."""
    return request["legal_moves"][0]


def test_get_root_says_who_the_bot_is(kit_bots):
    """GET / answers apiversion 1, the name, the author, the games."""
    bot = kit_bots(first_move, name="alpha", games=["gops"], author="me", version="2.1")
    conn = http.client.HTTPConnection("127.0.0.1", bot.port, timeout=5)
    conn.request("GET", "/")
    info = json.loads(conn.getresponse().read())
    assert info == {"apiversion": "1", "name": "alpha", "author": "me", "games": ["gops"],
                    "version": "2.1"}


def test_signed_requests_are_answered_with_the_move(kit_bots):
    """A request signed with the bot's secret reaches move_fn; its answer is {"move": ...}."""
    seen = []
    bot = kit_bots(lambda r: seen.append(r) or first_move(r), secret=SECRET)
    status, answer = post(bot.url, "/move", BODY, sign(SECRET, BODY))
    assert (status, answer) == (200, {"move": {"type": "bid", "card": 2}})
    assert seen == [MOVE_REQUEST] and bot.refused == []


REFUSALS = [
    ("unsigned", lambda: {}, "unsigned request"),
    ("wrong secret", lambda: sign("not-the-secret", BODY), "bad signature"),
    ("stale timestamp", lambda: sign(SECRET, BODY, now=time.time() - 3600), "stale timestamp"),
    ("future timestamp", lambda: sign(SECRET, BODY, now=time.time() + 3600), "stale timestamp"),
    ("other body", lambda: sign(SECRET, BODY + b" "), "bad signature"),
    ("signature only", lambda: {"X-Referee-Signature": sign(SECRET, BODY)["X-Referee-Signature"]},
     "unsigned request"),
]


@pytest.mark.parametrize("name, headers, reason", REFUSALS, ids=[r[0] for r in REFUSALS])
def test_refused_with_401(kit_bots, name, headers, reason):
    """Unsigned, wrongly signed, stale or tampered requests never reach move_fn."""
    calls = []
    bot = kit_bots(lambda r: calls.append(r) or first_move(r), secret=SECRET)
    status, answer = post(bot.url, "/move", BODY, headers())
    assert (status, answer) == (401, {"error": reason})
    assert calls == [] and bot.refused == [reason]


def test_a_replayed_request_is_refused(kit_bots):
    """The same signed request twice: the second is a replay (its nonce was seen)."""
    bot = kit_bots(first_move, secret=SECRET)
    headers = sign(SECRET, BODY)
    assert post(bot.url, "/move", BODY, headers)[0] == 200
    assert post(bot.url, "/move", BODY, headers) == (401, {"error": "replayed nonce"})


def test_the_service_signature_is_ours():
    """Our signing (from the wire format alone) agrees with the service's implementation."""
    assert signature("k", "1700000000", "n1", b"{}") == \
        service_protocol.signature("k", "1700000000", "n1", b"{}")
    assert Verifier().check("k", service_protocol.sign("k", BODY), BODY) is None


def test_remembered_nonces_stay_within_the_window():
    """Nonces older than the window are forgotten (a replay of one is refused as stale)."""
    verifier = Verifier(max_skew=300)
    for i in range(50):
        assert verifier.check(SECRET, sign(SECRET, BODY, now=1000, nonce=f"n{i}"), BODY,
                              now=1000) is None
    old = sign(SECRET, BODY, now=1000, nonce="n0")
    assert verifier.check(SECRET, sign(SECRET, BODY, now=2000), BODY, now=2000) is None
    assert len(verifier._seen) == 1  # the 50 from t=1000 were dropped at t=2000
    assert verifier.check(SECRET, old, BODY, now=2000) == "stale timestamp"


def test_the_secret_can_come_later(kit_bots):
    """Without a secret the kit cannot verify and accepts; once given, it refuses unsigned."""
    bot = kit_bots(first_move)
    assert post(bot.url, "/move", BODY)[0] == 200
    bot.secret = SECRET
    assert post(bot.url, "/move", BODY) == (401, {"error": "unsigned request"})
    assert post(bot.url, "/move", BODY, sign(SECRET, BODY))[0] == 200


def test_require_signature_refuses_until_there_is_a_secret(kit_bots):
    """With require_signature nothing is answered before the secret is known."""
    bot = kit_bots(first_move, require_signature=True)
    assert post(bot.url, "/move", BODY, sign(SECRET, BODY)) == (401, {"error": "no secret yet"})


def test_secret_from_a_file_written_later(kit_bots, tmp_path):
    """The secret file is read once it exists, and re-read when it changes."""
    path = tmp_path / "bot.secret"
    bot = kit_bots(first_move, secret_file=str(path), require_signature=True)
    assert post(bot.url, "/move", BODY, sign(SECRET, BODY))[0] == 401
    path.write_text(SECRET + "\n")
    assert post(bot.url, "/move", BODY, sign(SECRET, BODY))[0] == 200
    path.write_text("rotated\n")
    import os
    os.utime(path, (time.time() + 5, time.time() + 5))  # a new mtime even within one tick
    assert post(bot.url, "/move", BODY, sign(SECRET, BODY))[0] == 401
    assert post(bot.url, "/move", BODY, sign("rotated", BODY))[0] == 200


def test_secret_from_the_environment(kit_bots, monkeypatch):
    """$REFEREE_BOT_SECRET is the secret when none is given."""
    monkeypatch.setenv("REFEREE_BOT_SECRET", SECRET)
    bot = kit_bots(first_move)
    assert bot.secret == SECRET
    assert post(bot.url, "/move", BODY)[0] == 401


def test_start_and_end_reach_their_callbacks(kit_bots):
    """/start and /end go to on_start and on_end and are answered 200 {}."""
    events = []
    bot = kit_bots(first_move, on_start=lambda r: events.append(("start", r["match"], r["seat"])),
                   on_end=lambda r: events.append(("end", r["match"], r["result"]["ranks"])))
    # real requests (clients/protocol/examples): `match` is the match id string in both
    assert post(bot.url, "/start", json.dumps(START_REQUEST).encode()) == (200, {})
    assert post(bot.url, "/end", json.dumps(END_REQUEST).encode()) == (200, {})
    match = START_REQUEST["match"]
    assert events == [("start", match, 0), ("end", match, END_REQUEST["result"]["ranks"])]


def test_faults_are_answered_not_hidden(kit_bots):
    """A failing move_fn is a 500 (the service records the failure); bad input a 4xx."""
    def broken(request):
        raise ValueError("no idea")

    bot = kit_bots(broken)
    assert post(bot.url, "/move", BODY) == (500, {"error": "ValueError: no idea"})
    assert post(bot.url, "/move", b"not json")[0] == 400
    assert post(bot.url, "/elsewhere", BODY)[0] == 404
    lazy = kit_bots(lambda request: None)
    assert post(lazy.url, "/move", BODY)[0] == 500


def test_keep_alive_with_tcp_nodelay(kit_bots):
    """Twenty moves on one kept-alive connection, whose server end has TCP_NODELAY set
    (without it, Nagle's algorithm and delayed ACKs cost ~40 ms an answer): asked of the
    socket itself, not timed."""
    bot = kit_bots(first_move)
    conn = http.client.HTTPConnection("127.0.0.1", bot.port, timeout=5)
    conn.connect()
    sock = conn.sock
    for _ in range(20):
        conn.request("POST", "/move", body=BODY, headers={"Content-Type": "application/json"})
        assert conn.getresponse().read()
    assert conn.sock is sock  # the same connection throughout
    assert server_nodelay(sock)


def test_server_nodelay_reads_the_servers_own_setting():
    """The check above can fail: a plain server's end of a connection reads as without
    TCP_NODELAY until the server sets it."""
    with socket.create_server(("127.0.0.1", 0)) as listener:
        client = socket.create_connection(listener.getsockname())
        served, _ = listener.accept()
        with client, served:
            assert not server_nodelay(client)
            served.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            assert server_nodelay(client)


def test_serve_in_the_background_returns_the_server():
    """serve(..., background=True) returns a running server."""
    bot = serve(first_move, name="bg", background=True)
    try:
        assert post(bot.url, "/move", BODY) == (200, {"move": {"type": "bid", "card": 2}})
    finally:
        bot.stop()


def test_by_game_routes_each_game_to_its_strategy():
    """One server for several games: the request's game picks the function."""
    choose = by_game({"gops": lambda r: {"type": "gops-move"}},
                     fallback=lambda r: {"type": "fallback"})
    assert choose({"game": "gops"}) == {"type": "gops-move"}
    assert choose({"game": "other"}) == {"type": "fallback"}
    assert choose.games == ["gops"]
    with pytest.raises(LookupError):
        by_game({"gops": first_move})({"game": "other"})


def test_register_hands_the_secret_to_the_running_bot(service_url, api, kit_bots, tmp_path):
    """register() records the bot and gives it (and its secret file) the secret; the
    service's signed requests of a whole arena match are then all accepted."""
    secret_file = tmp_path / "kit.secret"
    bot = kit_bots(first_move, name="kit", games=["gops"], secret_file=str(secret_file))
    record = register(bot, service_url)
    assert bot.secret == record["secret"] == secret_file.read_text().strip()
    assert oct(secret_file.stat().st_mode & 0o777) == "0o600"
    match = api.create_arena_match("gops", [f"bot:{record['id']}", "builtin:random"],
                                   options={"cards": 3}, seed=1)
    final = api.wait_for_match(match["id"], timeout=30)
    assert final["result"]["termination"] == "rules" and bot.refused == []
    health = api.bot(record["id"])["health"]
    assert health["moves"] >= 3 and health["crashes"] == 0
