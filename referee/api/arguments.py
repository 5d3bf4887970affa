"""The hot routes' blueprint: arguments read without marshmallow when plainly valid, and
responses documented without a wrapper per documented response.

flask-smorest's `blp.arguments(schema)` documents the route's input in the OpenAPI document and
has webargs load every request through the marshmallow schema (about 85 µs a request: the body
parsed a second time, the schema walked). The hot routes (a seat's prompt and its move) keep
the decorator, so the document and every refusal stay as they are, but their parser first
asks a fast reader registered for that schema: given a request it can vouch for (the body the
strict JSON guard already parsed, of the expected keys and exact types), it answers what the
schema's load would; anything else (a missing or unknown key, a string for an integer, no
JSON at all) returns None and goes through webargs and marshmallow as before, whose 422s name
what is wrong. tests/api/test_arguments.py holds each fast reader to its schema's load.
"""

from __future__ import annotations

import functools
from typing import Callable

from flask import Response
from flask_smorest import Blueprint
from webargs.flaskparser import FlaskParser, is_json_request

JSON_BODY = "referee.json_body"
"""Where the strict JSON guard leaves the request body it parsed (in the request's WSGI
environ, which is the request's own: `flask.g` may outlive a request)."""


class FastParser(FlaskParser):
    """webargs' FlaskParser, asking a registered fast reader before loading a schema."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._fast: dict[int, tuple[object, str, Callable]] = {}

    def register(self, schema, location: str, reader: Callable) -> None:
        """Read `schema`'s arguments at `location` with `reader(request)` when it answers."""
        self._fast[id(schema)] = (schema, location, reader)

    def parse(self, argmap, req=None, *, location=None, **kwargs):
        """The fast reader's answer when it has one, else webargs' parse."""
        fast = self._fast.get(id(argmap))
        if fast is not None and fast[0] is argmap and fast[1] == (location or "json"):
            # the request itself, not its proxy: a reader asks it several things
            answer = fast[2](req or self.get_default_request()._get_current_object())
            if answer is not None:
                return answer
        return super().parse(argmap, req, location=location, **kwargs)


def plain_json(environ) -> bool:
    """Whether the request's Content-Type is exactly `application/json`, what JSON clients
    send: JSON to werkzeug's `is_json` and webargs' alike, told without werkzeug parsing the
    header (about 10,000 instructions a move, callgrind); any other value is theirs to judge."""
    return environ.get("CONTENT_TYPE") == "application/json"


def move_submit(request) -> dict | None:
    """MoveSubmitSchema's load of a body `{"move": <not null>, "expected_version": int|null}`
    (expected_version optional), or None to leave any other body to the schema."""
    body = request.environ.get(JSON_BODY) if plain_json(request.environ) or \
        is_json_request(request) else None
    if type(body) is not dict or body.get("move") is None or not _MOVE_KEYS.issuperset(body):
        return None   # no move, a null one (the schema refuses it), an unknown key
    version = body.get("expected_version")
    if version is not None and type(version) is not int:
        return None   # "3", 3.0, true: the schema decides (and words the refusal)
    return {"move": body["move"], "expected_version": version}


_MOVE_KEYS = frozenset(("move", "expected_version"))
_DOC_ONLY = frozenset(("content_type", "required", "description", "example", "examples"))
"""flask-smorest `arguments` options that only document."""


def prompt_query(request) -> dict | None:
    """PromptQuerySchema's load of a request without a query string (`wait` defaults to 0)."""
    return None if request.query_string else {"wait": 0.0}


class HotBlueprint(Blueprint):
    """A flask-smorest Blueprint for hot routes: its decorators document as flask-smorest's
    do (the OpenAPI document is the same) with fewer layers at run time.

    flask-smorest wraps the view once per `alt_response` (a call through `current_app` and
    `ensure_sync` each, on every request) although those layers only carry documentation; here
    the documentation goes on the view itself. `arguments` wraps once (webargs' and
    flask-smorest's wrappers are two layers, each through `current_app`), and `answers`
    documents a response for a view that builds its own (json_answer): flask-smorest's
    `response` would wrap it to dump a dict it never gets. Its arguments parser is a
    FastParser."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.ARGUMENTS_PARSER = FastParser()

    def arguments(self, schema, *, location="json", **kwargs):
        """flask-smorest's `arguments`, its documentation kept, the parsed arguments passed
        after the view's positional ones (as webargs does) by one wrapper."""
        document = super().arguments(schema, location=location, **kwargs)
        if set(kwargs) - _DOC_ONLY:   # webargs options (unknown, as_kwargs...): theirs
            return document
        parse = self.ARGUMENTS_PARSER.parse

        def decorator(func):
            @functools.wraps(func)
            def parsed(*args, **view_args):
                return func(*args, parse(schema, location=location), **view_args)
            parsed._apidoc = document(func)._apidoc
            return parsed
        return decorator

    def answers(self, status_code, schema=None, **kwargs):
        """flask-smorest's `response` documentation (status, schema, description) for a view
        that returns a Response it built itself, unwrapped."""
        document = super().response(status_code, schema, **kwargs)

        def decorator(func):
            @functools.wraps(func)
            def checked(*args, **view_args):
                answer = func(*args, **view_args)
                if not isinstance(answer, Response):   # a dict would skip the schema's dump
                    raise TypeError(f"{func.__qualname__} must return a Response")
                return answer
            checked._apidoc = document(func)._apidoc
            return checked
        return decorator

    def alt_response(self, *args, **kwargs):
        """flask-smorest's `alt_response`, its documentation kept on the view unwrapped."""
        document = super().alt_response(*args, **kwargs)

        def decorator(func):
            func._apidoc = document(func)._apidoc   # the wrapper's doc: a copy, extended
            return func
        return decorator
