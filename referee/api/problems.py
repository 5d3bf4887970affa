"""RFC 9457 problem details for every error, each with our stable `code`.

Rules errors (RefereeError) carry their own code; HTTP-level errors get a code here. Nothing
becomes a bare 500 without a problem body, and the body never leaks a traceback.
"""

from __future__ import annotations

import logging

import redis
from flask import current_app, jsonify, request
from werkzeug.exceptions import HTTPException

from referee.core.errors import RefereeError

log = logging.getLogger(__name__)

PROBLEM_TYPE = "application/problem+json"

RETRY_AFTER_STORE_S = 2
"""Seconds a client is told to wait when the store is down."""

HTTP_CODES = {
    400: "request.malformed",
    401: "auth.token_missing",
    403: "auth.forbidden",
    404: "http.not_found",
    405: "http.method_not_allowed",
    406: "http.not_acceptable",
    409: "http.conflict",
    413: "request.too_large",
    414: "request.uri_too_long",
    415: "request.unsupported_media_type",
    422: "request.invalid",
    429: "rate.limited",
    431: "request.headers_too_large",
    500: "server.error",
    501: "request.unsupported_encoding",
    503: "server.unavailable",
}
"""Codes for errors raised by HTTP machinery rather than by the rules or the service."""

CATALOGUE = {
    "move.malformed": "The move is not a JSON object of a known type with well-formed fields.",
    "move.unexpected": "The move's type does not answer the pending decision.",
    "move.illegal.*": "The rules forbid this move here; the suffix names the rule.",
    "turn.not_yours": "The seat has no decision pending now.",
    "match.over": "The match has ended.",
    "match.aborted": "The match was stopped by the service.",
    "match.version_stale": "expected_version is not the match's current version.",
    "match.not_found": "No match with that id.",
    "seat.forfeited": "The seat has forfeited (resigned, timed out or failed): the referee "
                      "plays it now, and its token moves it no more.",
    "seat.timeout": "(match failure) A remote seat let its decision's time run out "
                    "(remote_move_s): it ranks last and the referee plays it at random.",
    "seat.resigned": "(match failure) The seat resigned (POST /v1/matches/{id}/resign): it "
                     "ranks last and the referee plays its remaining decisions at random.",
    "match.busy": "The move could not be committed under contention; submit it again.",
    "game.unknown": "No game of that name.",
    "options.invalid": "An option is unknown or has a value the game does not take.",
    "players.invalid": "The game cannot be played with that many seats (with these options).",
    "seats.invalid": "A seat kind is unknown.",
    "state.invalid": "A stored or submitted state failed validation (`details.path`: the JSON "
                     "path of the first bad field).",
    "chance.unsupported": "The game cannot (yet) take its chance from outside, or the chance "
                          "mode is unknown.",
    "chance.internal": "The match draws its chance from its seed: it takes no chance moves.",
    "chance.seed_unused": "A seed was given with chance external, where the chance outcomes "
                          "are moves: drop one of them.",
    "seed.commitment_mismatch": "The seed given does not match the match's commitment and "
                                "salt: it is not that match's seed (a JSON parser may have "
                                "rounded it; seeds are strings).",
    "check.move_cap": "A move after the check's move cap (max_moves): the position is over, "
                      "adjudicated by the standing, as a match at its move cap.",
    "rules.version_unreadable": "The record was made under an older rules_version whose "
                                "records these rules do not replay (GET /v1/games/{game}: "
                                "older_rules); it is refused, never read with other rules.",
    "match.rules_retired": "The match was played under a rules_version this service no longer "
                           "plays: its record and log are served, its state is not read and it "
                           "takes no moves.",
    "record.invalid": "The body is not a match record as GET /v1/matches/{id}/log or its "
                      "JSONL export give it.",
    "session.not_found": "No check session with that id (it expired, was deleted, or never "
                         "was).",
    "session.token_invalid": "The request does not carry the check session's token "
                             "(Authorization: Bearer <session token>).",
    "session.too_many": "This caller already holds as many check sessions as one caller may "
                        "(REFEREE_CHECK_SESSIONS_PER_CALLER); delete one or let it expire.",
    "auth.token_missing": "The request needs 'Authorization: Bearer <seat token>' (an account "
                          "key is not a seat token).",
    "auth.token_invalid": "The token is not a seat token of this match.",
    "request.malformed_json": "The body is not valid JSON.",
    "request.invalid": "The body or query does not match the endpoint's schema.",
    "request.too_large": "The body is larger than the service accepts.",
    "request.uri_too_long": "The request line (method and URI) is longer than the server "
                            "reads (8190 bytes behind the documented gunicorn).",
    "request.headers_too_large": "The request has more header fields (100) or a longer one "
                                 "(8190 bytes) than the server reads.",
    "request.unsupported_encoding": "The request's transfer coding is not one the server "
                                    "takes.",
    "http.not_found": "No such endpoint.",
    "http.method_not_allowed": "The endpoint does not take this method.",
    "server.error": "A fault of the service, logged on our side; not caused by the request.",
    "server.unavailable": "The service cannot answer now (its store is down); retry later.",
    "auth.forbidden": "The thing belongs to another account (a bot, a tournament, a match), or "
                      "the request is not allowed.",
    "request.malformed": "The request cannot be read.",
    "request.unsupported_media_type": "The body is not in a media type the endpoint takes.",
    "http.not_acceptable": "The endpoint cannot answer in a media type the request accepts.",
    "http.conflict": "The request conflicts with the resource's state.",
    "rate.limited": "Too many requests; see Retry-After.",
    "wait.too_many": "This caller already holds as many long polls and event streams as one "
                     "caller may (REFEREE_WAITS_PER_CALLER); see Retry-After.",
    "wait.capacity": "This server holds as many long polls and event streams as it takes "
                     "(REFEREE_MAX_WAITS); see Retry-After.",
    "auth.ticket_invalid": "The event-stream ticket is malformed, expired, or not for this "
                           "match.",
}
"""The generic codes, documented at GET /v1/problems (plug-ins add their own)."""


def problem(status: int, code: str, detail: str, **extra):
    """A problem-details response."""
    body = {"type": f"/v1/problems#{code}", "title": code, "status": status, "detail": detail,
            "code": code, "instance": request.path, **extra}
    response = jsonify(body)
    response.status_code = status
    response.mimetype = PROBLEM_TYPE
    return response


def handle_referee_error(err: RefereeError):
    """Rules and service errors: their own status and code."""
    extra = {"details": err.details} if err.details else {}
    response = problem(err.status, err.code, err.message, **extra)
    if getattr(err, "retry_after", None) is not None:
        response.headers["Retry-After"] = str(err.retry_after)
    return response


def handle_http_exception(err: HTTPException):
    """Errors from Flask, Werkzeug and webargs, mapped to our codes."""
    status = err.code or 500
    data = getattr(err, "data", None) or {}
    messages = data.get("messages")
    code = HTTP_CODES.get(status, f"http.{status}")
    detail = err.description or ""
    if status == 400 and messages and "json" in messages:
        code, detail = "request.malformed_json", "the request body is not valid JSON"
    elif messages:
        detail = "the request does not match the schema: " + _flatten(messages)
    if status == 413:
        limit = current_app.config.get("MAX_CONTENT_LENGTH")
        detail = f"the request body is larger than the limit of {limit} bytes"
    extra = {"errors": messages} if messages else {}
    response = problem(status, code, detail, **extra)
    if status == 405 and getattr(err, "valid_methods", None):
        response.headers["Allow"] = ", ".join(sorted(err.valid_methods))
    return response


def handle_store_down(err: Exception):
    """Redis not answering: 503 with Retry-After, not a 500 (nothing was changed)."""
    log.warning("store unavailable on %s %s: %s", request.method, request.path,
                type(err).__name__)
    response = problem(503, "server.unavailable", "the match store is not answering; retry "
                       "shortly")
    response.headers["Retry-After"] = str(RETRY_AFTER_STORE_S)
    return response


def handle_unexpected(err: Exception):
    """Anything else is our fault: log it, answer 500 without internals."""
    log.exception("unhandled error on %s %s", request.method, request.path)
    return problem(500, "server.error", "an internal error occurred; it has been logged")


def _flatten(messages, prefix: str = "") -> str:
    parts = []
    for key, value in (messages.items() if isinstance(messages, dict) else []):
        path = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(value, dict):
            parts.append(_flatten(value, path))
        else:
            parts.append(f"{path}: {'; '.join(map(str, value))}")
    return "; ".join(parts)


def init_app(app) -> None:
    """Register the problem handlers (after flask-smorest's, so ours win)."""
    app.register_error_handler(RefereeError, handle_referee_error)
    app.register_error_handler(redis.exceptions.ConnectionError, handle_store_down)
    app.register_error_handler(redis.exceptions.TimeoutError, handle_store_down)
    app.register_error_handler(HTTPException, handle_http_exception)
    app.register_error_handler(Exception, handle_unexpected)
