"""Real bot servers on loopback: registration, signed requests, and every failure as a result."""

from __future__ import annotations

import pytest

from tests.api.helpers import wait_until
from tests.arena.helpers import arena_match, finished, register
from tests.support.protocol import errors




def test_registration_checks_health_and_returns_a_secret(client, bots):
    """GET / is called; the id and signing secret come back; the secret is never listed."""
    bot = bots("good")
    r = client.post("/v1/bots", json={"url": bot.url, "games": ["gops"], "owner": "me"})
    assert r.status_code == 201 and r.json["secret"] and r.json["name"] == "good-bot"
    listed = client.get("/v1/bots").json["bots"]
    assert [b["id"] for b in listed] == [r.json["id"]]
    assert "secret" not in listed[0] and "secret" not in client.get(f"/v1/bots/{r.json['id']}").json


REJECTIONS = [
    ("ftp URL", "ftp://127.0.0.1/bot", "url"),
    ("file URL", "file:///etc/passwd", "url"),
    ("no host", "http://", "url"),
    ("closed port", "http://127.0.0.1:9/", "health"),
]


@pytest.mark.parametrize("name, url, reason", REJECTIONS, ids=[r[0] for r in REJECTIONS])
def test_bad_bot_urls_are_refused(client, name, url, reason):
    """Only http(s) URLs of bots that answer GET / are accepted."""
    r = client.post("/v1/bots", json={"url": url, "games": ["gops"]})
    assert (r.status_code, r.json["code"], r.json["details"]["reason"]) == (422, "bot.rejected", reason)


def test_wrong_apiversion_and_unknown_games_are_refused(client, bots):
    """A bot must speak protocol 1 and claim the games it is entered for."""
    old = bots("good", apiversion="0")
    assert client.post("/v1/bots", json={"url": old.url, "games": ["gops"]}).json["code"] == "bot.rejected"
    bot = bots("good")
    r = client.post("/v1/bots", json={"url": bot.url, "games": ["chess"]})
    assert r.json["details"]["reason"] == "games"


def test_two_good_bots_play_a_signed_match(client, bots):
    """Start, moves and end are signed and verified; health figures add up."""
    a, b = bots("good", "alpha"), bots("good", "beta")
    ia, ib = register(client, a), register(client, b)
    body = arena_match(client, [f"bot:{ia}", f"bot:{ib}"], seed=5)
    match = finished(client, body["id"])
    assert match["status"] == "over" and match["result"]["termination"] == "rules"
    assert a.refused == [] and b.refused == []
    assert a.paths()[0] == "/start" and b.paths()[0] == "/start"
    wait_until(lambda: a.paths()[-1] == "/end" and b.paths()[-1] == "/end")
    move = next(req for path, req in a.requests if path == "/move")
    assert {"match", "game", "rules_version", "seat", "version", "decision", "view",
            "legal_moves", "time", "previous_latency_ms"} <= set(move)
    # every request the bot got fits the protocol document the service serves
    doc = client.get("/v1/bot-protocol/openapi.json").json
    schema = {"/start": "StartRequest", "/move": "MoveRequest", "/end": "EndRequest"}
    assert [(path, errors(doc, schema[path], req)) for path, req in a.requests
            if errors(doc, schema[path], req)] == []
    assert isinstance(a.requests[0][1]["match"], str)   # the id, as in /move and /end
    later = [req for path, req in a.requests if path == "/move"][1]
    assert later["previous_latency_ms"] is not None and later["previous_latency_ms"] > 0
    log = client.get(f"/v1/matches/{body['id']}/log").json
    assert all("latency_ms" in m for m in log["moves"])
    health = wait_until(lambda: (h := client.get(f"/v1/bots/{ia}").json["health"])["matches"] == 1 and h)
    assert health["moves"] == sum(1 for p in a.paths() if p in ("/move", "/start"))
    assert health["latency_ms"]["p50"] is not None and health["timeouts"] == 0


def test_requests_with_a_bad_signature_are_refused_by_the_bot(client, bots):
    """A bot that knows a different secret refuses our requests: signing is real. Its 401 is
    recorded as bot.signature_refused (issue 39: not a crash), counted apart in its health,
    and its page explains it."""
    a, b = bots("good", "alpha"), bots("good", "beta")
    ia, ib = register(client, a), register(client, b)
    a.secret = "not-the-secret"
    body = arena_match(client, [f"bot:{ia}", f"bot:{ib}"])
    match = finished(client, body["id"])
    assert a.refused and set(a.refused) == {"bad signature"}
    assert match["result"]["termination"] == "forfeit"
    assert match["result"]["failures"]["0"]["code"] == "bot.signature_refused"
    assert match["result"]["failures"]["0"]["status"] == 401
    health = client.get(f"/v1/bots/{ia}").json["health"]
    assert (health["signature_refusals"], health["crashes"]) == (1, 0)
    assert health["last_error"]["code"] == "bot.signature_refused"
    page = client.get(f"/bots/{ia}").get_data(as_text=True)
    assert 'id="signaturehelp"' in page and "does not accept the secret we sign with" in page


FAILURES = [
    # behaviour, extra bot args, limits, expected code
    ("slow", {"delay": 0.5}, {"move_ms": 100, "bank_ms": 100}, "bot.timeout"),
    ("crash", {}, {}, "bot.http_error"),
    ("garbage", {}, {}, "bot.bad_response"),
    ("not_a_move", {}, {}, "bot.bad_response"),
    ("huge", {}, {}, "bot.bad_response"),
    ("illegal", {}, {}, "bot.illegal_move"),
]


@pytest.mark.parametrize("behaviour, extra, limits, code", FAILURES, ids=[f[0] for f in FAILURES])
def test_a_failing_bot_forfeits_and_ranks_last(client, bots, behaviour, extra, limits, code):
    """The failure is recorded with its code; the bot ranks last; the match still ends."""
    bad, good1, good2 = bots(behaviour, **extra), bots("good", "g1"), bots("good", "g2")
    ids = [register(client, b) for b in (bad, good1, good2)]
    body = arena_match(client, [f"bot:{ids[0]}", f"bot:{ids[1]}", f"bot:{ids[2]}"],
                       seed=3, limits=limits)
    match = finished(client, body["id"])
    result = match["result"]
    assert match["status"] == "over" and result["termination"] == "forfeit"
    assert result["ranks"][0] == 3 and sorted(result["ranks"][1:]) in ([1, 2], [1, 1])
    assert result["failures"]["0"]["code"] == code
    log = client.get(f"/v1/matches/{body['id']}/log").json
    failed = [m for m in log["moves"] if m.get("failure")]
    assert failed[0]["failure"]["code"] == code and failed[0]["by"] == "referee"
    after = [m for m in log["moves"] if m["seat"] == 0 and m["version"] > failed[0]["version"]]
    assert all(m["by"] == "referee" for m in after)  # the referee plays the rest at random
    if code == "bot.illegal_move":
        assert failed[0]["failure"]["error"]["code"] == "move.illegal.bid.not_in_hand"
    health = wait_until(lambda: (h := client.get(f"/v1/bots/{ids[0]}").json["health"])
                        ["last_error"] and h)
    assert health["last_error"]["code"] == code
    assert health["last_error"]["log"] == f"/v1/matches/{body['id']}/log"


def test_a_bot_whose_port_closed_is_unreachable(client, bots):
    """Registered while up, then gone: bot.unreachable, forfeited."""
    gone, good = bots("good", "gone"), bots("good", "stays")
    ids = [register(client, gone), register(client, good)]
    gone.stop()
    body = arena_match(client, [f"bot:{ids[0]}", f"bot:{ids[1]}"])
    result = finished(client, body["id"])["result"]
    assert result["failures"]["0"]["code"] == "bot.unreachable"
    assert result["failures"]["0"]["phase"] == "start"
    assert result["ranks"] == [2, 1]


def test_strikes_absorb_failures_with_logged_random_moves(client, bots):
    """With strikes=2 a crashing bot gets two logged random moves, then forfeits."""
    bad, good = bots("crash", "flaky"), bots("good", "solid")
    ids = [register(client, bad), register(client, good)]
    body = arena_match(client, [f"bot:{ids[0]}", f"bot:{ids[1]}"], limits={"strikes": 2},
                       options={"cards": 6})
    match = finished(client, body["id"])
    log = client.get(f"/v1/matches/{body['id']}/log").json
    failures = [m for m in log["moves"] if m.get("failure")]
    assert len(failures) == 3 and all(m["by"] == "referee" for m in failures)
    assert match["result"]["termination"] == "forfeit"
    assert len([p for p in bad.paths() if p == "/move"]) == 3  # no calls after the forfeit


def test_time_bank_absorbs_a_slow_move(client, bots):
    """Over the per-move limit but within the bank: no failure, the bank shrinks."""
    slowish, good = bots("good", "slowish", delay=0.15), bots("good", "quick")
    ids = [register(client, slowish), register(client, good)]
    body = arena_match(client, [f"bot:{ids[0]}", f"bot:{ids[1]}"], options={"cards": 2},
                       limits={"move_ms": 50, "bank_ms": 5000})
    match = finished(client, body["id"])
    assert match["result"]["termination"] == "rules"
    moves = [req for path, req in slowish.requests if path == "/move"]
    assert moves[-1]["time"]["bank_ms"] < moves[0]["time"]["bank_ms"] <= 5000


def test_a_remote_seat_against_bots(client, bots):
    """A person (pull mode) plays bots: the remote move queues the bots' next turn."""
    good = bots("good", "opponent")
    bot_id = register(client, good)
    body = arena_match(client, ["remote", f"bot:{bot_id}"], options={"cards": 3})
    token = body["tokens"]["0"]
    from tests.api.helpers import play_out
    match = play_out(client, body["id"], {0: token})
    assert match["status"] == "over"
    assert "seq" not in match["labels"] and match["labels"]["rated"] is False


def _exchanger(request):
    """Exchanges back and forth whenever it may: a turn that never ends."""
    import json as _json
    moves = request["legal_moves"]
    exchanges = [m for m in moves if m["type"] == "exchange"]
    if exchanges:
        wanted = "buy" if request["version"] % 2 == 0 else "sell"
        move = next((m for m in exchanges if m["direction"] == wanted), exchanges[0])
    else:
        move = moves[0]
    return 200, _json.dumps({"move": move}).encode()


def test_a_bot_that_never_ends_its_turn_is_stalling(client, bots):
    """Moves in a row past max_streak are bot.stalling: the bot forfeits, the match ends."""
    spinner, good = bots(_exchanger, "spinner", games=("yinzi-ming",)), \
        bots("good", "steady", games=("yinzi-ming",))
    ids = [register(client, spinner, games=("yinzi-ming",)),
           register(client, good, games=("yinzi-ming",))]
    r = client.post("/v1/arena/matches", json={
        "game": "yinzi-ming", "seats": [f"bot:{ids[0]}", f"bot:{ids[1]}"], "seed": 1,
        "limits": {"max_streak": 12}})
    assert r.status_code == 201, r.json
    match = finished(client, r.json["id"], timeout=120)
    result = match["result"]
    assert result["termination"] == "forfeit" and result["ranks"] == [2, 1]
    assert result["failures"]["0"]["code"] == "bot.stalling"
    assert result["failures"]["0"]["moves_in_a_row"] == 12
    health = client.get(f"/v1/bots/{ids[0]}").json["health"]
    assert health["stalls"] == 1 and health["last_error"]["code"] == "bot.stalling"
