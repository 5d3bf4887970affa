"""Guards every request passes before a view reads it: request bodies must be strict JSON.

A body nested 100,000 deep or holding a 5,000-digit integer made the JSON parser raise
errors nobody caught (a 500); NaN would be stored and served back as invalid JSON. The
guard reads the body once with the strict parser (referee/service/strictjson.py) and
answers 400 request.malformed_json, naming what is wrong, before any view parses it. It is
installed after the plug-ins' request hooks, so a caller is authenticated before its body is
read.
"""

from __future__ import annotations

from flask import request

from referee.api.arguments import JSON_BODY
from referee.core.errors import RefereeError
from referee.service import strictjson

MAX_BODY_DEPTH = 32
"""Deepest nesting of arrays and objects a request body may have (moves need 3 or 4)."""


def strict_json_body() -> None:
    """Refuse a JSON request body that is not strict JSON (before_request hook)."""
    req = request._get_current_object()   # one context lookup, not one per attribute
    if req.method not in ("POST", "PUT", "PATCH") or not req.is_json:
        return
    data = req.get_data(cache=True)
    if not data:
        return
    try:
        # kept for the hot routes' fast argument readers (arguments.py): parsed once
        req.environ[JSON_BODY] = strictjson.loads(data, max_depth=MAX_BODY_DEPTH)
    except strictjson.BadJson as err:
        raise RefereeError(f"the request body is not valid JSON: {err}",
                           code="request.malformed_json") from None


def init_app(app) -> None:
    """Install the guards (call after the plug-ins' request hooks)."""
    app.before_request(strict_json_body)
