"""Who may do what (issue 11): the stranger test over every write route of the app, the
OpenAPI security of every operation, and attack 3 ("anyone controls anything"), on the real
app on a real Redis (no embedded store: no loopback organiser)."""

from __future__ import annotations

import hashlib

import pytest

from referee.access.hook import view_level
from referee.service.access import ANYONE, ORGANISER, PLAYER, SEAT, SPECTATOR_OR_SEAT
from tests.api.helpers import auth
from tests.arena.helpers import register
from tests.conftest import account_client, organiser_client
from tests.support.bots import BotServer

WRITES = {"POST", "PUT", "PATCH", "DELETE"}

STRANGER = {
    # (method, rule): (body the stranger sends, status, code) with another account's key;
    # the thing in the URL (or named in the body) belongs to the owner
    ("POST", "/v1/matches"): (lambda t: {"game": "gops", "seats": [f"bot:{t['bot']}",
                                                                   "remote"]},
                              403, "seats.not_open"),
    ("POST", "/v1/matches/<match_id>/moves"): (lambda t: {"move": {}}, 401, "auth.token_missing"),
    ("POST", "/v1/matches/<match_id>/resign"): (lambda t: None, 401, "auth.token_missing"),
    ("POST", "/v1/matches/<match_id>/chance"): (lambda t: {"move": {}}, 403,
                                                "auth.organiser_only"),
    ("POST", "/v1/matches/<match_id>/events/ticket"): (lambda t: None, 401,
                                                       "auth.token_missing"),
    ("POST", "/v1/games/<game>/check"): None,  # anyone: the stateless check is a read
    ("POST", "/v1/verify"): None,  # anyone: a stateless check of a whole record
    ("POST", "/v1/check-sessions"): None,  # anyone: it makes the caller's own session
    # a session is used only with its own token (401 session.token_invalid otherwise):
    # tests/api/test_verify_and_sessions.py
    ("POST", "/v1/check-sessions/<session_id>/moves"): None,
    ("DELETE", "/v1/check-sessions/<session_id>"): None,
    ("POST", "/v1/accounts"): (lambda t: {"name": "x"}, 403, "auth.organiser_only"),
    ("POST", "/v1/accounts/me/key"): None,  # acts on the caller's own account only
    ("POST", "/v1/bots"): (lambda t: {"url": t["bot_url"], "games": ["gops"]},
                           409, "bot.url_taken"),
    ("PATCH", "/v1/bots/<bot_id>"): (lambda t: {"open": True}, 403, "auth.forbidden"),
    ("DELETE", "/v1/bots/<bot_id>"): (lambda t: None, 403, "auth.forbidden"),
    ("POST", "/v1/bots/<bot_id>/secret"): (lambda t: {}, 403, "auth.forbidden"),
    ("POST", "/v1/bots/<bot_id>/versions"): (lambda t: {}, 403, "auth.forbidden"),
    ("POST", "/v1/bots/<bot_id>/enable"): (lambda t: {}, 403, "auth.forbidden"),
    ("POST", "/v1/bots/<bot_id>/check"): (lambda t: None, 403, "auth.forbidden"),
    ("POST", "/v1/bots/<bot_id>/disable"): (lambda t: {}, 403, "auth.organiser_only"),
    ("POST", "/v1/arena/matches"): (lambda t: {"game": "gops", "seats": [
        f"bot:{t['bot']}", "builtin:random"]}, 403, "seats.not_open"),
    ("POST", "/v1/tournaments"): (lambda t: {"game": "gops", "entrants": [
        t["bot"], "builtin:random"]}, 403, "seats.not_open"),
    ("POST", "/v1/tournaments/<tid>/stop"): (lambda t: {}, 403, "auth.forbidden"),
}
"""Every write route of the app, and what a stranger with a key of its own gets; the test
fails when a route is added without a line here."""

ANONYMOUS = {SEAT: (401, "auth.token_missing"), PLAYER: (401, "auth.key_missing"),
             ORGANISER: (401, "auth.key_missing")}


@pytest.fixture
def things(app):
    """An owner (a player) with a closed bot, a match and a tournament; a stranger player."""
    owner, owner_id = account_client(app, "owner")
    stranger, _ = account_client(app, "stranger")
    bot = BotServer("good", "owned")
    bot_id = register(owner, bot)
    match = owner.post("/v1/matches", json={"game": "gops", "seats": ["remote", "remote"]}).json
    tour = owner.post("/v1/tournaments", json={
        "game": "gops", "entrants": [bot_id, "builtin:random"], "format": "ladder",
        "max_matches": 1000, "concurrency": 1, "options": {"cards": 4}}).json
    yield {"owner": owner, "owner_id": owner_id, "stranger": stranger, "bot": bot_id,
           "bot_url": bot.url, "match": match, "tid": tour["id"], "game": "gops"}
    owner.post(f"/v1/tournaments/{tour['id']}/stop")
    bot.stop()


def _write_routes(app):
    """(method, rule, endpoint) of every write route the app serves."""
    return sorted((method, rule.rule, rule.endpoint) for rule in app.url_map.iter_rules()
                  for method in rule.methods & WRITES)


def _url(rule: str, things) -> str:
    return (rule.replace("<match_id>", things["match"]["id"])
            .replace("<bot_id>", things["bot"]).replace("<tid>", things["tid"])
            .replace("<game>", things["game"]))


def test_every_route_states_its_caller(app):
    """Every route of the app (reads too) declares who may call it with `requires`."""
    undeclared = [(m, r.rule) for r in app.url_map.iter_rules()
                  for m in r.methods - {"HEAD", "OPTIONS"}
                  if r.endpoint not in ("static", "api-docs.openapi_json",
                                        "api-docs.openapi_redoc", "api-docs.openapi_swagger_ui")
                  and not r.endpoint.endswith(".static")  # files and the API docs: anyone
                  and view_level(app, r.endpoint, m) is None]
    assert undeclared == []


def test_the_stranger_is_refused_on_every_write_route(app, things):
    """Every write route: without a key, 401 with the documented code, whatever the body
    (auth comes before validation); with another account's key, the documented refusal."""
    routes = _write_routes(app)
    assert {(m, r) for m, r, _ in routes} == set(STRANGER), "a write route without a line"
    anonymous = app.test_client()
    checked = 0
    for method, rule, endpoint in routes:
        level = view_level(app, endpoint, method)
        url = _url(rule, things)
        if level == ANYONE:
            assert STRANGER[(method, rule)] is None
            continue
        for body in ({}, {"junk": 1}, None):
            r = anonymous.open(url, method=method, json=body)
            assert (r.status_code, r.json["code"]) == ANONYMOUS[level], (method, rule, r.json)
        case = STRANGER[(method, rule)]
        if case is None:
            continue
        make_body, status, code = case
        r = things["stranger"].open(url, method=method, json=make_body(things))
        assert (r.status_code, r.json["code"]) == (status, code), (method, rule, r.json)
        assert "secret" not in r.json
        checked += 1
    assert checked >= 9
    bad_key = anonymous.post("/v1/bots", json={}, headers=auth("rk_" + "x" * 43))
    assert (bad_key.status_code, bad_key.json["code"]) == (401, "auth.key_invalid")


def test_openapi_declares_the_security_of_every_operation(app, client):
    """Every operation has `security`: [] (anyone), optional seat token, seat token or account
    key; account-key operations are exactly the player/organiser routes."""
    spec = client.get("/v1/openapi.json").json
    schemes = spec["components"]["securitySchemes"]
    assert schemes["accountKey"]["scheme"] == schemes["seatToken"]["scheme"] == "bearer"
    levels = {}
    for rule in app.url_map.iter_rules():
        path = rule.rule.replace("<", "{").replace(">", "}")
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            levels[(path, method.lower())] = view_level(app, rule.endpoint, method)
    count = 0
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            if method == "parameters":
                continue
            count += 1
            assert "security" in operation, (method, path)
            level = levels[(path, method)]
            expected = {ANYONE: [], SPECTATOR_OR_SEAT: [{}, {"seatToken": []}],
                        SEAT: [{"seatToken": []}], PLAYER: [{"accountKey": []}],
                        ORGANISER: [{"accountKey": []}]}[level]
            assert operation["security"] == expected, (method, path)
            if level in (PLAYER, ORGANISER):
                assert operation["x-caller"] == level
                assert "401" in operation["responses"], (method, path)
    assert count >= 25


# -- attack 3: anyone controls anything -----------------------------------------------------

def test_a_stranger_cannot_stop_a_tournament_its_owner_and_organisers_can(app, things):
    """Stop someone else's tournament: 403 and it keeps running; an organiser may stop any."""
    tid = things["tid"]
    r = things["stranger"].post(f"/v1/tournaments/{tid}/stop")
    assert (r.status_code, r.json["code"]) == (403, "auth.forbidden")
    assert things["owner"].get(f"/v1/tournaments/{tid}").json["status"] == "running"
    assert things["owner"].get(f"/v1/tournaments/{tid}").json["owner"] == things["owner_id"]
    r = organiser_client(app).post(f"/v1/tournaments/{tid}/stop")
    assert r.status_code == 200 and r.json["status"] == "stopped"


def test_a_bot_url_is_registered_once(app, things):
    """Re-registering a bot's URL (by a stranger, or even by its owner, in another
    spelling) is refused 409 bot.url_taken, with no new id and no new secret."""
    ids = lambda: [b["id"] for b in things["owner"].get("/v1/bots").json["bots"]]  # noqa: E731
    before = ids()
    for client, url in ((things["stranger"], things["bot_url"]),
                        (things["owner"], things["bot_url"] + "/"),
                        (things["stranger"], things["bot_url"].replace("http://", "HTTP://"))):
        r = client.post("/v1/bots", json={"url": url, "games": ["gops"]})
        assert (r.status_code, r.json["code"]) == (409, "bot.url_taken"), r.json
        assert "secret" not in r.json and r.json["details"]["bot"] == things["bot"]
    assert ids() == before


def test_seating_another_accounts_bot_needs_it_open(app, things):
    """A closed bot of another account cannot be seated (403 seats.not_open); once its owner
    opens it, it can (unrated); the stranger cannot open it, its owner can."""
    seats = [f"bot:{things['bot']}", "builtin:random"]
    body = {"game": "gops", "seats": seats, "options": {"cards": 4}}
    r = things["stranger"].post("/v1/arena/matches", json=body)
    assert (r.status_code, r.json["code"]) == (403, "seats.not_open")
    assert things["stranger"].patch(f"/v1/bots/{things['bot']}",
                                    json={"open": True}).status_code == 403
    r = things["owner"].patch(f"/v1/bots/{things['bot']}", json={"open": True})
    assert r.status_code == 200 and r.json["open"] is True
    r = things["stranger"].post("/v1/arena/matches", json=body)
    assert r.status_code == 201, r.json
    log = things["stranger"].get(f"/v1/matches/{r.json['id']}/log").json
    assert log["labels"]["rated"] is False


def test_ratings_come_only_from_organisers_and_never_from_one_account_filling_seats(app):
    """The 5/5 farm: a player seats someone's open bot against its own two throw-away bots.
    Asking for a rated match is refused (403 auth.organiser_only), by default it is unrated;
    an organiser's match where one account fills two seats is played unrated, with the
    reason; the leaderboard stays empty."""
    victim, _ = account_client(app, "victim")
    farmer, _ = account_client(app, "farmer")
    bots = [BotServer("good", "star"), BotServer("crash", "throw1"), BotServer("crash", "throw2")]
    try:
        star = register(victim, bots[0])
        victim.patch(f"/v1/bots/{star}", json={"open": True})
        throw = [register(farmer, b) for b in bots[1:]]
        seats = [f"bot:{star}", *(f"bot:{t}" for t in throw)]
        body = {"game": "gops", "seats": seats, "options": {"cards": 4}}
        r = farmer.post("/v1/arena/matches", json={**body, "rated": True})
        assert (r.status_code, r.json["code"]) == (403, "auth.organiser_only")
        r = farmer.post("/v1/tournaments", json={"game": "gops", "entrants": [star, *throw],
                                                 "rated": True})
        assert (r.status_code, r.json["code"]) == (403, "auth.organiser_only")
        r = farmer.post("/v1/arena/matches", json=body)
        assert r.status_code == 201
        assert farmer.get(f"/v1/matches/{r.json['id']}/log").json["labels"]["rated"] is False
        r = organiser_client(app).post("/v1/arena/matches", json={**body, "rated": True})
        labels = farmer.get(f"/v1/matches/{r.json['id']}/log").json["labels"]
        assert labels["rated"] is False and labels["unrated"] == "one account fills several seats"
        fair = organiser_client(app).post("/v1/arena/matches", json={
            **body, "seats": [f"bot:{star}", f"bot:{throw[0]}"]})
        assert farmer.get(f"/v1/matches/{fair.json['id']}/log").json["labels"]["rated"] is True
        board = farmer.get("/v1/leaderboards/gops").json
        assert not any(row["entrant"] in throw[1:] for row in board["standings"])
    finally:
        for bot in bots:
            bot.stop()


def test_a_match_of_the_api_needs_a_key_and_moves_keep_seat_tokens(app, client):
    """POST /v1/matches needs a key; the seats then act with their own tokens only (an
    account key is not a seat token)."""
    anonymous = app.test_client()
    r = anonymous.post("/v1/matches", json={"game": "gops", "seats": ["remote", "remote"]})
    assert (r.status_code, r.json["code"]) == (401, "auth.key_missing")
    match = client.post("/v1/matches", json={"game": "gops", "seats": ["remote", "remote"]}).json
    prompt = anonymous.get(f"/v1/matches/{match['id']}/prompt",
                           headers=auth(match["tokens"]["0"]))
    assert prompt.status_code == 200 and prompt.json["seat"] == 0
    r = client.get(f"/v1/matches/{match['id']}/prompt")  # the organiser's key, no seat token
    assert (r.status_code, r.json["code"]) == (401, "auth.token_missing")
    assert anonymous.get(f"/v1/matches/{match['id']}").status_code == 200


def test_accounts_keys_are_hashed_shown_once_and_rotated(app, client):
    """An organiser creates a player; the key works, is stored only as its hash, and a
    rotation stops the old key at once."""
    made = client.post("/v1/accounts", json={"name": "ann", "role": "player"})
    assert made.status_code == 201 and made.json["key"].startswith("rk_")
    key = made.json["key"]
    me = app.test_client().get("/v1/accounts/me", headers=auth(key)).json
    assert me == {k: made.json[k] for k in ("id", "name", "role", "created_at")}
    redis, prefix = app.extensions["referee"].store.redis, app.extensions["referee"].store.prefix
    stored = "".join(f"{k}={redis.get(k)}" for k in redis.scan_iter(f"{prefix}:acct*")
                     if redis.type(k) == "string")
    assert key not in stored and hashlib.sha256(key.encode()).hexdigest() in stored
    new = app.test_client().post("/v1/accounts/me/key", headers=auth(key)).json["key"]
    old = app.test_client().get("/v1/accounts/me", headers=auth(key))
    assert (old.status_code, old.json["code"]) == (401, "auth.key_invalid")
    assert app.test_client().get("/v1/accounts/me", headers=auth(new)).json["id"] == me["id"]


def test_the_embedded_default_trusts_only_this_machine(embedded_app):
    """No REDIS_URL: a keyless request from loopback acts as the local organiser; the same
    request from another address, or to a name that is not a loopback one, needs a key."""
    client = embedded_app.test_client()
    me = client.get("/v1/accounts/me").json
    assert me["id"] == "local" and me["role"] == "organiser"
    body = {"game": "gops", "seats": ["remote", "remote"]}
    assert client.post("/v1/matches", json=body).status_code == 201
    far = client.post("/v1/matches", json=body, environ_base={"REMOTE_ADDR": "192.0.2.7"})
    assert (far.status_code, far.json["code"]) == (401, "auth.key_missing")
    rebound = client.post("/v1/matches", json=body, headers={"Host": "evil.example:8000"})
    assert (rebound.status_code, rebound.json["code"]) == (401, "auth.key_missing")


def test_only_the_owner_rekeys_and_deletes_a_bot(app, things):
    """The owner's re-key hands out a new secret that every later call is signed with (the
    bot verifies it); the owner's delete takes the bot off the list and frees its URL."""
    from tests.arena.helpers import arena_match, finished

    owner, bot_id = things["owner"], things["bot"]
    bot = BotServer("good", "rekeyed")
    try:
        own = register(owner, bot)
        r = owner.post(f"/v1/bots/{own}/secret")
        assert r.status_code == 201 and r.json["secret"] != bot.secret
        old, bot.secret = bot.secret, r.json["secret"]
        match = finished(owner, arena_match(owner, [f"bot:{own}", "builtin:random"])["id"])
        assert match["status"] == "over" and not match["result"].get("failures"), match
        assert bot.refused == [] and old != bot.secret
        assert things["stranger"].delete(f"/v1/bots/{own}").status_code == 403
        assert owner.delete(f"/v1/bots/{own}").status_code == 204
        assert own not in [b["id"] for b in owner.get("/v1/bots").json["bots"]]
        r = owner.post("/v1/arena/matches", json={"game": "gops", "seats": [
            f"bot:{own}", "builtin:random"], "options": {"cards": 4}})
        assert r.status_code == 409, r.json
        again = things["stranger"].post("/v1/bots", json={"url": bot.url, "games": ["gops"]})
        assert again.status_code == 201 and again.json["id"] != own
    finally:
        bot.stop()
    assert bot_id


def test_without_the_access_plug_in_writes_fail_closed(redis_settings):
    """An app built without the access plug-in (as a test or a plug-in author might) opens
    nothing: routes that need an account refuse, since nobody set a caller."""
    from arena.plugin import arena_plugin
    from referee.root import create_app, stop_app

    app = create_app(redis_settings, plugins=[arena_plugin()])
    try:
        client = app.test_client()
        for url, body in (("/v1/matches", {"game": "gops", "seats": ["remote", "remote"]}),
                          ("/v1/tournaments", {"game": "gops", "entrants": ["builtin:random"] * 2}),
                          ("/v1/arena/matches", {"game": "gops", "seats": ["builtin:random"] * 2}),
                          ("/v1/bots/b1/disable", {}),
                          ("/v1/bots", {"url": "http://127.0.0.1:9/", "games": ["gops"]})):
            r = client.post(url, json=body)
            assert r.status_code in (401, 404) and r.json["code"] in (
                "auth.key_missing", "bot.not_found"), (url, r.json)
    finally:
        stop_app(app)
