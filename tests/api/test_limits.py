"""Rate limits (issue 12): 429 rate.limited with Retry-After for each limited route family,
per API key or token and per address; the switch; where the counts live; the document; the
Python client's patience. Apps here turn the limits on with tiny limits of their own."""

from __future__ import annotations

import os

import pytest
import redis

from tests.api.helpers import auth, create
from tests.api.limits_helpers import MATCH, TINY, assert_limited, limited_app
from tests.conftest import unique_name
from tests.support.http import serve_in_thread


FAMILIES = [
    # family, method+path, body: the request repeated until it is refused
    ("MATCHES", "/v1/matches", MATCH),
    ("CHECKS", "/v1/games/gops/check", {"players": 2, "seed": 1, "moves": []}),
    ("BOTS", "/v1/bots", {"url": "ftp://nowhere/", "games": ["gops"]}),
    ("EVENTS", "/v1/tournaments", {"game": "gops", "entrants": ["builtin:random"] * 2,
                                   "max_matches": 1, "format": "ladder"}),
    ("EVENTS", "/v1/arena/matches", {"game": "gops", "seats": ["builtin:random"] * 2}),
]


@pytest.mark.parametrize("family,path,body", FAMILIES, ids=[p for _, p, _ in FAMILIES])
def test_each_family_is_limited_per_address(make_app, family, path, body):
    """Two requests pass (whatever they answer: a refused body counts too), the third is 429
    with Retry-After; another family is not affected."""
    client = make_app(**{f"RATE_{family}_ADDR": "2/minute"}).test_client()
    for _ in range(2):
        assert client.post(path, json=body).status_code != 429
    assert_limited(client.post(path, json=body))
    other = "/v1/games" if family != "CHECKS" else "/v1/matches"
    assert client.get(other).status_code == 200


def test_moves_and_resignations_are_limited_per_seat_token(make_app):
    """The moves family, per token: one seat's third move request is refused, the other seat
    of the same match (another token) still plays; a resignation counts as a move request."""
    client = make_app(RATE_MOVES="2/minute").test_client()
    match = create(client)
    seat0, seat1 = auth(match["tokens"]["0"]), auth(match["tokens"]["1"])
    path = f"/v1/matches/{match['id']}/moves"
    for _ in range(2):
        assert client.post(path, json={"move": {"type": "nope"}}, headers=seat0).status_code \
            != 429
    assert_limited(client.post(path, json={"move": {"type": "nope"}}, headers=seat0))
    assert_limited(client.post(f"/v1/matches/{match['id']}/resign", headers=seat0))
    assert client.post(path, json={"move": {"type": "nope"}}, headers=seat1).status_code != 429


def test_a_key_limit_is_per_key_and_the_address_limit_is_shared(make_app):
    """Per key: each bearer token has its own count; per address: all of them together."""
    client = make_app(RATE_CHECKS="1/minute", RATE_CHECKS_ADDR="3/minute").test_client()
    body = {"players": 2, "seed": 1, "moves": []}
    assert client.post("/v1/games/gops/check", json=body, headers=auth("a")).status_code == 200
    assert_limited(client.post("/v1/games/gops/check", json=body, headers=auth("a")))
    assert client.post("/v1/games/gops/check", json=body, headers=auth("b")).status_code == 200
    assert client.post("/v1/games/gops/check", json=body).status_code == 200  # no key
    assert_limited(client.post("/v1/games/gops/check", json=body, headers=auth("c")))


def test_a_flood_is_refused_before_its_body_is_read(make_app):
    """The limiter runs before the strict-JSON guard: malformed bodies count and are refused
    as 429, not parsed again and again."""
    client = make_app(RATE_MATCHES_ADDR="2/minute").test_client()
    bad = {"data": b"[" * 10_000, "content_type": "application/json"}
    assert client.post("/v1/matches", **bad).json["code"] == "request.malformed_json"
    assert client.post("/v1/matches", **bad).status_code == 400
    assert_limited(client.post("/v1/matches", **bad))


def test_unlimited_routes_stay_open(make_app):
    """Reads are not limited: the families are writes that cost us."""
    client = make_app(RATE_MATCHES_ADDR="1/minute").test_client()
    create(client)
    for _ in range(5):
        assert client.get("/v1/matches").status_code == 200


def test_the_product_defaults_are_on_and_sane(monkeypatch):
    """Without the suite's switch the limits are on; the ceilings are the documented ones."""
    from referee.service import defaults
    from referee.service.config import Settings

    monkeypatch.delenv("REFEREE_RATE_LIMITS", raising=False)
    settings = Settings()
    assert settings.rate_limits is True
    assert settings.rate_matches == defaults.RATE["matches"][0] == "60/minute"
    assert settings.max_active_matches == 200
    assert settings.tournament_max_matches == 500 and settings.ladder_max_matches == 2000
    monkeypatch.setenv("REFEREE_RATE_LIMITS", "off")
    assert Settings().rate_limits is False


def test_the_switch_turns_them_off(make_app):
    """RATE_LIMITS off: no limiter, no ceiling."""
    app = make_app(RATE_LIMITS=False, RATE_MATCHES_ADDR="1/minute", MAX_ACTIVE_MATCHES=1)
    client = app.test_client()
    assert "referee.limiter" not in app.extensions
    for _ in range(3):
        create(client)


def test_counts_live_in_the_shared_redis(needs_real_redis):
    """On Redis, two API processes (two apps, one prefix) share one count."""
    from referee.root import create_app, stop_app
    from tests.conftest import delete_keys

    config = {"REDIS_URL": needs_real_redis, "KEY_PREFIX": unique_name("lim"),
              "QUEUE_NAME": unique_name("limq"), **TINY, "RATE_CHECKS_ADDR": "2/minute"}
    apps = [create_app(config), create_app(config)]
    try:
        body = {"players": 2, "seed": 1, "moves": []}
        assert apps[0].test_client().post("/v1/games/gops/check", json=body).status_code == 200
        assert apps[1].test_client().post("/v1/games/gops/check", json=body).status_code == 200
        assert_limited(apps[0].test_client().post("/v1/games/gops/check", json=body))
        # the counters are the deployment's: under its prefix, none under the library's own
        store = redis.Redis.from_url(needs_real_redis, decode_responses=True)
        mine = list(store.scan_iter(f"{config['KEY_PREFIX']}:rl:*", count=1000))
        assert mine and all("addr:127.0.0.1" in key for key in mine), mine
        assert not [k for k in store.scan_iter("LIMITS:*", count=1000)
                    if config["KEY_PREFIX"] in k]
    finally:
        for app in apps:
            stop_app(app)
        delete_keys(needs_real_redis, config["KEY_PREFIX"], config["QUEUE_NAME"])


def test_the_openapi_document_declares_the_429s(make_app):
    """Each limited operation documents 429 as a problem with Retry-After."""
    spec = make_app().test_client().get("/v1/openapi.json").json
    for path, method in [("/v1/matches", "post"), ("/v1/matches/{match_id}/moves", "post"),
                         ("/v1/games/{game}/check", "post"), ("/v1/bots", "post"),
                         ("/v1/tournaments", "post"), ("/v1/arena/matches", "post")]:
        answer = spec["paths"][path][method]["responses"]["429"]
        assert "Retry-After" in answer["headers"]
        assert list(answer["content"]) == ["application/problem+json"]


def test_behind_a_proxy_the_forwarded_address_counts(make_app):
    """PROXY_HOPS=1: the address is the one the proxy appended, so two clients behind it have
    their own counts; without it, the header is not trusted."""
    client = make_app(PROXY_HOPS=1, RATE_MATCHES_ADDR="1/minute").test_client()
    key = auth(os.environ["REFEREE_ORGANISER_KEY"])  # not on loopback now: a key is needed
    one, two = ({"X-Forwarded-For": f"203.0.113.{i}", **key} for i in (1, 2))
    assert client.post("/v1/matches", json=MATCH, headers=one).status_code == 201
    assert_limited(client.post("/v1/matches", json=MATCH, headers=one))
    assert client.post("/v1/matches", json=MATCH, headers=two).status_code == 201
    direct = make_app(RATE_MATCHES_ADDR="1/minute").test_client()
    assert direct.post("/v1/matches", json=MATCH, headers=one).status_code == 201
    assert_limited(direct.post("/v1/matches", json=MATCH, headers=two))


def test_the_python_client_waits_out_a_short_limit_and_raises_on_a_long_one(make_app):
    """referee_client sends a rate-limited request again after a Retry-After it is willing to
    wait (nothing was changed by the refusal); a longer one, and the quota, raise
    RateLimitError with retry_after."""
    from referee_client import Client
    from referee_client.errors import RateLimitError

    app = make_app(RATE_CHECKS_ADDR="2/second", MAX_ACTIVE_MATCHES=1)
    body = {"players": 2, "seed": 1, "moves": []}
    with serve_in_thread(app) as url:
        patient, hasty = Client(url, rate_wait=5), Client(url, rate_wait=0)
        for _ in range(5):  # 2 a second: the 3rd, 5th wait about a second
            patient.request("POST", "/games/gops/check", json=body)
        with pytest.raises(RateLimitError) as caught:
            for _ in range(3):
                hasty.request("POST", "/games/gops/check", json=body)
        assert caught.value.code == "rate.limited" and caught.value.retry_after >= 1
        patient.request("POST", "/matches", json=MATCH)
        with pytest.raises(RateLimitError) as caught:
            patient.request("POST", "/matches", json=MATCH)
        assert caught.value.code == "quota.active_matches" and caught.value.retry_after == 60


def test_a_caller_identified_by_a_plugin_is_the_key():
    """An access plug-in's request hook runs first and sets `g.caller`: the per-key limit is
    then the account's (a request with a seat token still counts per seat)."""
    from types import SimpleNamespace

    from flask import g, request

    from arena.plugin import arena_plugin
    from referee.limits.plugin import limits_plugin
    from referee.root import create_app, stop_app
    from referee.service.plugins import Plugin

    def identify():
        account = request.headers.get("X-Account")
        g.caller = SimpleNamespace(id=account) if account else None

    who = Plugin(name="who", request_hooks=lambda: [identify])
    app = create_app({"REDIS_URL": None, "KEY_PREFIX": unique_name("lim"),
                      "QUEUE_NAME": unique_name("limq"), **TINY, "RATE_CHECKS": "2/minute"},
                     plugins=[who, limits_plugin(), arena_plugin()])
    try:
        client, body = app.test_client(), {"players": 2, "seed": 1, "moves": []}
        for _ in range(2):
            assert client.post("/v1/games/gops/check", json=body,
                               headers={"X-Account": "a1"}).status_code == 200
        assert_limited(client.post("/v1/games/gops/check", json=body,
                                   headers={"X-Account": "a1"}))
        assert client.post("/v1/games/gops/check", json=body,
                           headers={"X-Account": "a2"}).status_code == 200
        # a seat token counts per seat, whoever the caller is
        assert client.post("/v1/games/gops/check", json=body,
                           headers={**auth("st_x"), "X-Account": "a1"}).status_code == 200
    finally:
        stop_app(app)


def test_a_malformed_limit_fails_start_up():
    """A typo in a rate setting stops the app from starting, naming the setting."""
    with pytest.raises(ValueError, match="REFEREE_RATE_MOVES"):
        limited_app(RATE_MOVES="sixty a minute")
