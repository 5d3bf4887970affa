"""The hot answers written without marshmallow (referee/api/answers.py) are exactly what their
schemas would have dumped: the prompt and the move answer of every game, from the first move
to the result (a small move cap ends each match early)."""

from __future__ import annotations

import os

import pytest

from referee.service import fastjson
from referee.service.schemas import MoveAcceptedSchema, PromptSchema
from tests.api.helpers import auth, create, play_out, wait_until
from tests.conftest import ALL_GAMES


def _schema_dump_is_identity(schema, body: dict) -> None:
    dumped = schema.dump(body)
    assert dumped == body
    assert list(dumped) == list(body)


@pytest.mark.parametrize("game", ALL_GAMES, ids=lambda g: g.spec.name)
def test_prompt_and_move_answers_are_their_schemas_dump(embedded_app, game):
    """Every key is documented, in the documented order, with the documented types."""
    client = embedded_app.test_client()
    players = game.spec.min_players
    created = create(client, game=game.spec.name, seats=["remote"] * players, seed=3,
                     max_moves=25)
    match_id, tokens = created["id"], created["tokens"]
    prompts, moves, finished = PromptSchema(), MoveAcceptedSchema(), None
    while finished is None:
        for token in tokens.values():
            prompt = client.get(f"/v1/matches/{match_id}/prompt", headers=auth(token))
            assert prompt.mimetype == "application/json"
            _schema_dump_is_identity(prompts, prompt.json)
            if prompt.json["status"] != "active":
                finished = prompt.json
                break
            if prompt.json["must_act"]:
                answer = client.post(f"/v1/matches/{match_id}/moves", headers=auth(token),
                                     json={"move": prompt.json["legal_moves"][-1],
                                           "expected_version": prompt.json["version"]})
                assert answer.status_code == 200, answer.json
                _schema_dump_is_identity(moves, answer.json)
    assert finished["result"] is not None


def _sent(response, method: str = "GET") -> tuple:
    """What a WSGI server sends of `response` for a `method` request: status, headers, body."""
    from werkzeug.test import EnvironBuilder

    started = []
    environ = EnvironBuilder(path="/x", method=method).get_environ()
    iterable = response(environ, lambda status, headers: started.append((status, headers)))
    body = b"".join(iterable)
    getattr(iterable, "close", lambda: None)()
    return started[0][0], started[0][1], body


@pytest.mark.parametrize("method", ["GET", "POST", "HEAD"])
@pytest.mark.parametrize("status,headers", [
    (200, None), (200, {"Idempotent-Replayed": "true"}), (201, None), (204, None), (304, None),
    (302, {"Location": "/v1/ü?a=1"}), (200, {"Content-Location": "/v1/ü"})])
def test_a_json_answer_is_sent_as_werkzeug_sends_a_response(method, status, headers):
    from flask import Response

    from referee.api.answers import json_answer

    body = {"a": [1, "ü"], "b": None}
    expected = Response(fastjson.dumpb(body), status=status, headers=headers,
                        mimetype="application/json")
    assert _sent(json_answer(body, status, headers), method) == _sent(expected, method)


def test_a_changed_json_answer_is_sent_as_werkzeug_sends_it():
    """A hook deleting the length, streaming a body or asking to be told of the close."""
    from flask import Response

    from referee.api.answers import json_answer

    closed = []
    for change in (lambda r: r.headers.pop("Content-Length"),
                   lambda r: setattr(r, "response", iter([b"[1,", b"2]"])),
                   lambda r: r.call_on_close(lambda: closed.append(1))):
        ours, theirs = json_answer([1, 2]), Response(b"[1,2]", mimetype="application/json")
        change(ours)
        change(theirs)
        assert _sent(ours) == _sent(theirs)
    assert closed == [1, 1]


def test_a_plain_json_answer_goes_out_as_it_is():
    """The shortcut is taken: the body list itself, the headers as they are."""
    from werkzeug.test import EnvironBuilder

    from referee.api.answers import json_answer

    iterable, status, headers = json_answer({"v": 1}).get_wsgi_response(
        EnvironBuilder(path="/x").get_environ())
    assert (iterable, status) == ([b'{"v":1}'], "200 OK")
    assert headers == [("Content-Type", "application/json"), ("Content-Length", "7")]


@pytest.mark.parametrize("status", [200, 201, 204, 304, 404])
@pytest.mark.parametrize("data", [b'{"v":1}', b"", "é".encode() * 300])
def test_a_built_json_answer_is_what_werkzeugs_constructor_makes(status, data):
    """`JsonAnswer.built` makes the object werkzeug's constructor makes: every attribute,
    the headers in order, and what a server sends of it for GET and HEAD."""
    from referee.api.answers import JsonAnswer

    built = JsonAnswer.built(data, status)
    made = JsonAnswer(data, status=status, content_type="application/json")
    assert sorted(vars(built)) == sorted(vars(made))
    assert {k: v for k, v in vars(built).items() if k != "headers"} == \
        {k: v for k, v in vars(made).items() if k != "headers"}
    assert built.headers.to_wsgi_list() == made.headers.to_wsgi_list()
    assert (built.status, built.status_code, built.get_data()) == \
        (made.status, made.status_code, made.get_data())
    for method in ("GET", "HEAD"):
        assert _sent(built, method) == _sent(made, method)


def test_json_answer_builds_only_under_the_werkzeug_it_follows(monkeypatch):
    """Under another werkzeug release, or with extra headers, werkzeug's constructor runs."""
    from referee.api import answers

    calls = []
    monkeypatch.setattr(answers.JsonAnswer, "built",
                        classmethod(lambda cls, *a: calls.append(a) or cls(a[0])))
    monkeypatch.setattr(answers, "FOLLOWS_WERKZEUG", True)
    answers.json_answer({"v": 1})
    assert calls == [(b'{"v":1}', 200)]
    replayed = answers.json_answer({"v": 1}, headers={"Idempotent-Replayed": "true"})
    monkeypatch.setattr(answers, "FOLLOWS_WERKZEUG", False)
    other = answers.json_answer({"v": 1})
    assert len(calls) == 1
    assert replayed.headers.to_wsgi_list() == [
        ("Idempotent-Replayed", "true"), ("Content-Type", "application/json"),
        ("Content-Length", "7")]
    assert other.headers.to_wsgi_list() == [("Content-Type", "application/json"),
                                            ("Content-Length", "7")]


@pytest.mark.parametrize("store", ["real", "embedded"])
def test_the_match_list_is_each_match_as_its_own_page_shows_it(request, store):
    """GET /v1/matches reads its matches in a few round trips (load_many, SeedBook.counts)
    and writes without marshmallow: each entry must be exactly GET /v1/matches/{id} for a
    spectator, and the whole its schema's dump. Active, finished, sharing a seed with a match
    that still runs (view hidden, seed not revealed), and with all its twins over."""
    from referee.service.schemas import MatchListSchema

    app = request.getfixturevalue("app" if store == "real" else "embedded_app")
    client, reader, svc = app.test_client(), app.test_client(), app.extensions["referee"]
    client.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {os.environ['REFEREE_ORGANISER_KEY']}"
    solo = create(client, seed=1)
    finished = create(client, seed=2)
    play_out(client, finished["id"], finished["tokens"])
    svc.seeds.open_group("g-open", 2)
    svc.create("gops", ["remote", "remote"], None, 5, seed_group="g-open")   # runs on
    twin_done = svc.create("gops", ["builtin:random", "builtin:random"], None, 5,
                           seed_group="g-open")
    svc.seeds.open_group("g-over", 1)
    alone = svc.create("gops", ["builtin:random", "builtin:random"], None, 6,
                       seed_group="g-over")
    wait_until(lambda: all(svc.store.live(m.meta.id).status == "over"
                           for m in (twin_done, alone)))
    client.post(f"/v1/matches/{solo['id']}/moves", headers=auth(solo["tokens"]["0"]),
                json={"move": client.get(f"/v1/matches/{solo['id']}/prompt", headers=auth(
                    solo["tokens"]["0"])).json["legal_moves"][0]})
    for _ in range(2):   # cold, then from this process's caches
        listed = reader.get("/v1/matches?limit=100")
        assert listed.status_code == 200 and listed.mimetype == "application/json"
        _schema_dump_is_identity(MatchListSchema(), listed.json)
        assert listed.json["total"] == len(listed.json["matches"]) == 5
        for entry in listed.json["matches"]:
            assert entry == reader.get(f"/v1/matches/{entry['id']}").json
    if store == "real":   # a move made by another process: this one's caches are behind
        from referee.root import create_app, stop_app

        other = create_app({**request.getfixturevalue("redis_settings"), "INLINE_WORKERS": 0})
        try:
            other_client = other.test_client()
            prompt = other_client.get(f"/v1/matches/{solo['id']}/prompt",
                                      headers=auth(solo["tokens"]["1"])).json
            assert prompt["must_act"]
            other_client.post(f"/v1/matches/{solo['id']}/moves", json={
                "move": prompt["legal_moves"][0]}, headers=auth(solo["tokens"]["1"]))
        finally:
            stop_app(other)
        listed = reader.get("/v1/matches?limit=100")
        [entry] = [e for e in listed.json["matches"] if e["id"] == solo["id"]]
        assert entry["version"] == prompt["version"] + 1
        assert entry == reader.get(f"/v1/matches/{solo['id']}").json
    entries = {e["id"]: e for e in listed.json["matches"]}
    assert entries[twin_done.meta.id]["view"] is None
    assert entries[twin_done.meta.id]["seed_commitment"].get("seed") is None
    assert entries[alone.meta.id]["seed_commitment"].get("seed") == "6"
    assert entries[finished["id"]]["status"] == "over"
