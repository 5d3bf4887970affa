"""Guards every request passes before a view reads it: request bodies must be strict JSON.

A body nested 100,000 deep or holding a 5,000-digit integer made the JSON parser raise
errors nobody caught (a 500); NaN would be stored and served back as invalid JSON. The
guard reads the body once with the strict parser (referee/service/strictjson.py) and
answers 400 request.malformed_json, naming what is wrong, before any view parses it. It is
installed after the plug-ins' request hooks, so a caller is authenticated before its body is
read.
"""

from __future__ import annotations

from flask import current_app, request
from werkzeug.exceptions import ClientDisconnected

from referee.api.arguments import JSON_BODY, plain_json
from referee.api.lifecycle import FOLLOWS_FLASK, FOLLOWS_WERKZEUG
from referee.core.errors import RefereeError
from referee.service import strictjson

MAX_BODY_DEPTH = 32
"""Deepest nesting of arrays and objects a request body may have (moves need 3 or 4)."""


def strict_json_body() -> None:
    """Refuse a JSON request body that is not strict JSON (before_request hook)."""
    req = request._get_current_object()   # one context lookup, not one per attribute
    if req.method not in ("POST", "PUT", "PATCH") or not (plain_json(req.environ) or
                                                          req.is_json):
        return
    data = _body(req)
    if not data:
        return
    try:
        # kept for the hot routes' fast argument readers (arguments.py): parsed once
        req.environ[JSON_BODY] = strictjson.loads(data, max_depth=MAX_BODY_DEPTH)
    except strictjson.BadJson as err:
        raise RefereeError(f"the request body is not valid JSON: {err}",
                           code="request.malformed_json") from None


def _body(req) -> bytes:
    """`req.get_data(cache=True)`: the body, kept for later reads. A plain body (a
    Content-Length within the app's limit, no transfer encoding) is read straight from the
    server's input, as werkzeug 3.1 would read it, without building its limited stream for
    one read; anything else (a body too large: 413) goes through werkzeug."""
    environ = req.environ
    length = environ.get("CONTENT_LENGTH")
    size = int(length) if length and length.isascii() and length.isdigit() else None
    limit = _max_content_length(req)
    if (not FOLLOWS_WERKZEUG or size is None or limit is None or size > limit
            or "HTTP_TRANSFER_ENCODING" in environ
            or "_cached_data" in req.__dict__ or "stream" in req.__dict__):
        return req.get_data(cache=True)
    data = environ["wsgi.input"].read(size)
    if len(data) != size:   # the connection ended first: werkzeug's stream raises this too
        raise ClientDisconnected(f"the request body ended before its Content-Length "
                                 f"({size} bytes)")
    req._cached_data = data
    return data


def _max_content_length(req) -> int | None:
    """`req.max_content_length` as Flask 3.1 reads it (the request's own limit, else the
    app's MAX_CONTENT_LENGTH), with one look-up of the app instead of two through its proxy."""
    if not FOLLOWS_FLASK or req._max_content_length is not None:
        return req.max_content_length
    return current_app._get_current_object().config["MAX_CONTENT_LENGTH"]


def init_app(app) -> None:
    """Install the guards (call after the plug-ins' request hooks)."""
    app.before_request(strict_json_body)
