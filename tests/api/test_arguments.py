"""The hot routes' fast argument readers (referee/api/arguments.py) answer exactly what their
marshmallow schema's load answers, and leave everything else to the schema."""

from __future__ import annotations

import json

import pytest
from flask import Flask

from referee.api import arguments
from referee.api.arguments import JSON_BODY
from referee.service.schemas import MoveSubmitSchema, PromptQuerySchema

BODIES = [
    {"move": {"type": "pass"}},
    {"move": {"type": "bid", "amount": 3}, "expected_version": 7},
    {"move": {"type": "pass"}, "expected_version": None},
    {"expected_version": 0, "move": []},
    {"move": "pass", "expected_version": 2 ** 40},
]
"""Bodies the fast reader takes."""

DECLINED = [
    {"move": {"type": "pass"}, "expected_version": "3"},
    {"move": {"type": "pass"}, "expected_version": 3.0},
    {"move": {"type": "pass"}, "expected_version": True},
    {"move": {"type": "pass"}, "extra": 1},
    {"expected_version": 3},
    {"move": None},
    {},
    [{"move": {"type": "pass"}}],
    "move",
]
"""Bodies left to the schema (converted, or refused with its own words)."""


def _request(app, body, content_type="application/json", query=""):
    ctx = app.test_request_context(f"/x{query}", method="POST", data=json.dumps(body),
                                   content_type=content_type)
    ctx.request.environ[JSON_BODY] = body   # as the strict JSON guard leaves it
    return ctx


@pytest.mark.parametrize("body", BODIES, ids=str)
def test_a_plain_move_body_reads_as_the_schema_loads_it(body):
    with _request(Flask(__name__), body) as ctx:
        assert arguments.move_submit(ctx.request) == MoveSubmitSchema().load(body)


@pytest.mark.parametrize("body", DECLINED, ids=str)
def test_anything_else_is_left_to_the_schema(body):
    with _request(Flask(__name__), body) as ctx:
        assert arguments.move_submit(ctx.request) is None


def test_a_body_not_sent_as_json_is_left_to_the_schema():
    with _request(Flask(__name__), {"move": {"type": "pass"}}, content_type="text/plain") as ctx:
        assert arguments.move_submit(ctx.request) is None


def test_a_prompt_without_a_query_reads_as_the_schema_loads_it():
    with _request(Flask(__name__), None) as ctx:
        assert arguments.prompt_query(ctx.request) == PromptQuerySchema().load({})
    with _request(Flask(__name__), None, query="?wait=2") as ctx:
        assert arguments.prompt_query(ctx.request) is None


def test_the_routes_still_refuse_in_the_schemas_words(embedded_app):
    """A declined body goes through webargs: the same 422 as before (field named)."""
    from tests.api.helpers import auth, create

    client = embedded_app.test_client()
    created = create(client, game="gops", seats=("remote", "remote"))
    token = created["tokens"]["0"]
    url = f"/v1/matches/{created['id']}/moves"
    extra = client.post(url, json={"move": {"type": "x"}, "nope": 1}, headers=auth(token))
    assert extra.status_code == 422 and "nope" in json.dumps(extra.json)
    missing = client.post(url, json={"expected_version": 0}, headers=auth(token))
    assert missing.status_code == 422 and "move" in json.dumps(missing.json)
    wrong = client.post(url, json={"move": {"type": "x"}, "expected_version": "a"},
                        headers=auth(token))
    assert wrong.status_code == 422 and "expected_version" in json.dumps(wrong.json)
    bad_wait = client.get(f"/v1/matches/{created['id']}/prompt?wait=-1", headers=auth(token))
    assert bad_wait.status_code == 422 and "wait" in json.dumps(bad_wait.json)
