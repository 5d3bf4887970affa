"""Error mapping: each problem-detail family raised from a real problem of the real app."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from referee_client import (AuthError, BotError, Client, GameError, LimitsError, MatchError,
                            MoveError, OptionsError, PlayersError, RateLimitError,
                            RefereeError, RequestError, SeatsError, ServerError, StateError,
                            TournamentError, TurnError, error_for)
from tests.clients.support import serving


@pytest.fixture
def api(shared_service_url):
    """A client of one app shared by this module (errors leave matches unchanged)."""
    return Client(shared_service_url)


@pytest.fixture
def faulty_url(app):
    """The real app with one extra route that fails, to see the service's own 500 problem."""
    def fault():
        raise RuntimeError("a bug on the service side")

    app.add_url_rule("/v1/test-fault", "test_fault", fault)
    with serving(app) as url:
        yield url


@pytest.fixture
def match(api):
    """A two-seat match where seat 0 bid 4 and seat 1 bid 1: seat 0 must award the prize."""
    created = api.create_match("gops", ["remote", "remote"], options={"cards": 4}, seed=2)
    mid, t0, t1 = created["id"], created["tokens"]["0"], created["tokens"]["1"]
    api.move(mid, t0, {"type": "bid", "card": 4})
    api.move(mid, t1, {"type": "bid", "card": 1})
    return mid, t0, t1


def _over(api):
    created = api.create_match("gops", ["remote", "builtin:random"], options={"cards": 2})
    seat = api.seat(created["id"], created["tokens"]["0"])
    seat.play(lambda prompt: prompt["legal_moves"][0])
    return seat


CASES = [
    # name, call(api, match) -> raises, class, code, status
    ("move.malformed", lambda a, m: a.move(m[0], m[1], "keep"), MoveError, "move.malformed", 400),
    ("move.unexpected", lambda a, m: a.move(m[0], m[1], {"type": "bid", "card": 3}),
     MoveError, "move.unexpected", 422),
    ("move.illegal", lambda a, m: a.move(m[0], m[1], {"type": "give", "to": 0}),
     MoveError, "move.illegal.give.target", 422),
    ("turn.not_yours", lambda a, m: a.move(m[0], m[2], {"type": "keep"}),
     TurnError, "turn.not_yours", 409),
    ("match.version_stale", lambda a, m: a.move(m[0], m[1], {"type": "keep"}, expected_version=1),
     MatchError, "match.version_stale", 409),
    ("match.not_found", lambda a, m: a.match("no-such-match"), MatchError, "match.not_found", 404),
    ("match.over", lambda a, m: _over(a).move({"type": "keep"}), MatchError, "match.over", 409),
    ("auth.token_missing", lambda a, m: a.prompt(m[0], None), AuthError, "auth.token_missing", 401),
    ("auth.token_invalid", lambda a, m: a.prompt(m[0], "not-a-token"),
     AuthError, "auth.token_invalid", 403),
    ("game.unknown", lambda a, m: a.game("chess"), GameError, "game.unknown", 404),
    ("options.invalid", lambda a, m: a.create_match("gops", ["remote"] * 2, options={"cards": 99}),
     OptionsError, "options.invalid", 422),
    ("players.invalid", lambda a, m: a.create_match("gops", ["remote"] * 5),
     PlayersError, "players.invalid", 422),
    ("seats.invalid", lambda a, m: a.create_match("gops", ["remote", "alien"]),
     SeatsError, "seats.invalid", 422),
    ("limits.invalid", lambda a, m: a.create_arena_match("gops", ["builtin:random"] * 2,
                                                         limits={"move_ms": 1}),
     LimitsError, "limits.invalid", 422),
    ("request.invalid", lambda a, m: a.request("POST", "/matches", json={"game": "gops"}),
     RequestError, "request.invalid", 422),
    ("request.malformed_json", lambda a, m: a.request(
        "POST", "/matches", data=b"{", headers={"Content-Type": "application/json"}),
     RequestError, "request.malformed_json", 400),
    ("request.too_large", lambda a, m: a.check("gops", players=2, seed=1,
                                               options={"pad": "x" * 300_000}),
     RequestError, "request.too_large", 413),
    ("http.not_found", lambda a, m: a.request("GET", "/nowhere"),
     RequestError, "http.not_found", 404),
    ("bot.rejected", lambda a, m: a.register_bot("ftp://127.0.0.1/bot", ["gops"]),
     BotError, "bot.rejected", 422),
    ("bot.not_found", lambda a, m: a.bot("bnope"), BotError, "bot.not_found", 404),
    ("tournament.not_found", lambda a, m: a.tournament("tnope"),
     TournamentError, "tournament.not_found", 404),
    ("tournament.invalid", lambda a, m: a.create_tournament(  # no such builtin
        "gops", ["builtin:nope", "builtin:random"]), TournamentError, "tournament.invalid", 422),
]


@pytest.mark.parametrize("name, call, cls, code, status", CASES, ids=[c[0] for c in CASES])
def test_each_family_from_a_real_problem(api, match, name, call, cls, code, status):
    """The family's class, with the problem's code, detail, status and whole body."""
    with pytest.raises(cls) as caught:
        call(api, match)
    err = caught.value
    assert (err.code, err.status) == (code, status)
    assert err.message and err.message == err.problem["detail"]
    assert err.problem["code"] == code and err.problem["status"] == status
    assert isinstance(err, RefereeError) and str(err).startswith(code)


def test_an_illegal_move_names_its_rule_and_leaves_the_match_unchanged(api, match):
    """MoveError.rule is the rule of move.illegal.<rule>; the version does not move."""
    mid, t0, _ = match
    with pytest.raises(MoveError) as caught:
        api.move(mid, t0, {"type": "give", "to": 0})
    assert caught.value.rule == "give.target" and "another seat" in caught.value.message
    assert api.match(mid)["version"] == 2


def test_bot_rejection_keeps_the_details(api):
    """Structured `details` of a problem are kept (the bot rejection's reason)."""
    with pytest.raises(BotError) as caught:
        api.register_bot("http://127.0.0.1:9/", ["gops"])
    assert caught.value.details["reason"] == "health"


def test_a_service_fault_is_a_server_error(faulty_url):
    """The service's own 500 problem (server.error) raises ServerError."""
    with pytest.raises(ServerError) as caught:
        Client(faulty_url).request("GET", "/test-fault")
    assert (caught.value.code, caught.value.status) == ("server.error", 500)
    assert "a bug" not in caught.value.message  # the service never leaks internals


def test_an_error_page_that_is_not_a_problem(tmp_path):
    """A proxy's HTML error page still raises by status: 5xx ServerError, http.<status>."""
    class Proxy(BaseHTTPRequestHandler):
        def do_GET(self):
            body = b"<html>Bad Gateway</html>"
            self.send_response(502)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Proxy)
    threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
    try:
        with pytest.raises(ServerError) as caught:
            Client(f"http://127.0.0.1:{server.server_port}").health()
    finally:
        server.shutdown()
        server.server_close()
    assert caught.value.code == "http.502" and "Bad Gateway" in caught.value.message


def test_every_catalogued_code_has_its_family_class(api):
    """No code in GET /v1/problems falls through to the base class."""
    for code in api.problems():
        err = error_for({"code": code, "status": 400, "detail": "x"})
        assert type(err) is not RefereeError, code


def test_families_no_endpoint_produces(api):
    """state.* and rate.* have classes though no endpoint returns them today; an unknown
    family keeps the base class, or ServerError for a 5xx."""
    assert isinstance(error_for({"code": "state.invalid", "status": 422}), StateError)
    assert isinstance(error_for({"code": "rate.limited", "status": 429}), RateLimitError)
    assert type(error_for({"code": "novel.thing", "status": 418})) is RefereeError
    assert isinstance(error_for({"code": "novel.thing", "status": 503}), ServerError)
