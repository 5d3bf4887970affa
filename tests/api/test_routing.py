"""Routing remembered per request line (referee/api/routing.py) matches exactly as werkzeug's
Map does, keeps a bounded number of adapters and forgets them when a rule is added."""

from __future__ import annotations

import pytest
from flask import Flask
from werkzeug.exceptions import MethodNotAllowed, NotFound
from werkzeug.routing import Map, RequestRedirect, Rule
from werkzeug.test import EnvironBuilder

from referee.api import RefereeFlask, routing



def _rules() -> list[Rule]:
    """Fresh rules (a rule belongs to one map)."""
    return [Rule("/v1/matches", endpoint="matches", methods=["GET", "POST"]),
            Rule("/v1/matches/<match_id>/prompt", endpoint="prompt", methods=["GET"]),
            Rule("/v1/matches/<match_id>/moves", endpoint="moves", methods=["POST"]),
            Rule("/v1/games/<int:number>/", endpoint="game")]


def _environ(path: str, method: str = "GET", host: str = "localhost", scheme: str = "http",
             **extra) -> dict:
    return EnvironBuilder(path=path, method=method, base_url=f"{scheme}://{host}/", **extra) \
        .get_environ()


def _answer(map_: Map, environ: dict):
    """What Flask's match gives for `environ`: (endpoint, arguments), or the exception."""
    adapter = map_.bind_to_environ(environ, server_name=None, subdomain="")
    try:
        rule, arguments = adapter.match(return_rule=True)
    except (NotFound, MethodNotAllowed, RequestRedirect) as err:
        return type(err).__name__, getattr(err, "new_url", None)
    return rule.endpoint, arguments


@pytest.mark.parametrize("path,method", [
    ("/v1/matches/abc/prompt", "GET"), ("/v1/matches/abc/moves", "POST"),
    ("/v1/matches/abc/moves", "GET"), ("/v1/matches", "POST"), ("/v1/matches/", "GET"),
    ("/v1/nothing", "GET"), ("/v1/games/3", "GET"), ("/v1/games/x/", "GET"),
    ("/v1/matches/a%20b/prompt", "GET"), ("/v1/matches/abc/prompt?wait=2", "GET")])
def test_matches_as_werkzeug_does_the_first_time_and_again(path, method):
    plain, remembering = Map(_rules()), routing.RoutingMap(_rules())
    path, _, query = path.partition("?")
    expected = _answer(plain, _environ(path, method, query_string=query))
    for _ in range(3):
        assert _answer(remembering, _environ(path, method, query_string=query)) == expected


def test_the_same_request_line_reuses_its_adapter_another_does_not():
    map_ = routing.RoutingMap(_rules())
    first = map_.bind_to_environ(_environ("/v1/matches/a/prompt"))
    assert map_.bind_to_environ(_environ("/v1/matches/a/prompt")) is first
    for other in (_environ("/v1/matches/b/prompt"), _environ("/v1/matches/a/prompt", "HEAD"),
                  _environ("/v1/matches/a/prompt", host="example.org"),
                  _environ("/v1/matches/a/prompt", query_string="wait=1"),
                  _environ("/v1/matches/a/prompt", scheme="https")):
        assert map_.bind_to_environ(other) is not first


def test_each_match_gets_its_own_arguments():
    map_ = routing.RoutingMap(_rules())
    adapter = map_.bind_to_environ(_environ("/v1/matches/a/prompt"))
    _, arguments = adapter.match(return_rule=True)
    arguments["match_id"] = "changed by a hook"
    assert adapter.match(return_rule=True)[1] == {"match_id": "a"}
    assert adapter.match("/v1/matches/b/prompt", return_rule=True)[1] == {"match_id": "b"}
    assert adapter.match() == ("prompt", {"match_id": "a"})   # werkzeug's other calls


def test_at_most_routed_limit_adapters_are_kept_the_oldest_going_first(monkeypatch):
    monkeypatch.setattr(routing, "ROUTED_LIMIT", 3)
    map_ = routing.RoutingMap(_rules())
    first = map_.bind_to_environ(_environ("/v1/matches/0/prompt"))
    for n in range(1, 10):
        map_.bind_to_environ(_environ(f"/v1/matches/{n}/prompt"))
        assert len(map_._adapters) <= 3
    assert map_.bind_to_environ(_environ("/v1/matches/0/prompt")) is not first
    assert _answer(map_, _environ("/v1/matches/9/prompt")) == ("prompt", {"match_id": "9"})


def test_a_rule_added_later_is_matched():
    map_ = routing.RoutingMap(_rules())
    assert _answer(map_, _environ("/v1/late")) == ("NotFound", None)
    map_.add(Rule("/v1/late", endpoint="late"))
    assert _answer(map_, _environ("/v1/late")) == ("late", {})


def _app(app_class=RefereeFlask, **config) -> Flask:
    app = app_class(__name__)
    app.config.update(config)

    @app.get("/m/<match_id>")
    def show(match_id):
        from flask import request
        return {"id": match_id, "host": request.host, "url": request.url}
    return app


def test_the_app_answers_as_flask_does_each_time():
    ours, flask = _app().test_client(), _app(Flask).test_client()
    for _ in range(2):
        for path, host in (("/m/x?a=1", "Example.org:80"), ("/m/x", "[::1]:8000"),
                           ("/m/x/y", "localhost")):
            answer = ours.get(path, headers={"Host": host})
            expected = flask.get(path, headers={"Host": host})
            assert (answer.status_code, answer.data) == (expected.status_code, expected.data)


def test_an_untrusted_host_is_still_refused():
    client = _app(TRUSTED_HOSTS=["good.example"]).test_client()
    for _ in range(2):
        assert client.get("/m/x", headers={"Host": "evil.example"}).status_code == 400
        assert client.get("/m/x", headers={"Host": "good.example"}).json["id"] == "x"
