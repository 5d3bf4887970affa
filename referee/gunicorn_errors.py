"""gunicorn's own refusals as RFC 9457 problem details, like every answer of the app.

gunicorn answers some requests before the app sees them: a request line over
`limit_request_line` (414), more header fields than `limit_request_fields` or one over
`limit_request_field_size` (431), a request line or header it cannot parse (400), a transfer
coding it does not take (501), and an exception outside the app (500). It writes those with
`gunicorn.util.write_error` as a small HTML page. No setting makes every oversized request
reach the app (gunicorn caps a request line at 8190 bytes and a header field at 8190 whatever
it is told), so the settings module (referee/gunicorn_conf.py) replaces that writer in each
worker with `write_problem`: the same status and connection close, an
`application/problem+json` body with our stable `code`. No request was read, so the body has
no `instance`; its `detail` is gunicorn's message, cut short (it may quote the request).
"""

from __future__ import annotations

import json

CODES = {
    400: "request.malformed",
    403: "auth.forbidden",
    414: "request.uri_too_long",
    417: "request.malformed",
    431: "request.headers_too_large",
    500: "server.error",
    501: "request.unsupported_encoding",
}
"""Our code for each status gunicorn answers by itself (another status: `http.<status>`)."""

DETAIL_CHARS = 200
"""Longest detail quoted from gunicorn's message (it can hold part of the request line)."""


def problem_body(status: int, detail: str) -> bytes:
    """A problem detail for a refusal made before the app: our code for `status`, `detail`
    cut to DETAIL_CHARS."""
    code = CODES.get(status, f"http.{status}")
    return json.dumps({"type": f"/v1/problems#{code}", "title": code, "status": status,
                       "detail": detail[:DETAIL_CHARS], "code": code}).encode()


def problem_bytes(status: int, reason: str, message: str) -> bytes:
    """The whole HTTP answer gunicorn writes for `status`, as a problem detail."""
    body = problem_body(status, message or reason)
    head = (f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\n"
            f"Content-Type: application/problem+json\r\nContent-Length: {len(body)}\r\n\r\n")
    return head.encode("latin-1", "replace") + body


def write_problem(sock, status_int, reason, mesg) -> None:
    """gunicorn.util.write_error's signature, writing a problem detail instead of HTML."""
    from gunicorn import util

    util.write_nonblock(sock, problem_bytes(status_int, reason, mesg))


def install() -> None:
    """Make this process's gunicorn write its refusals as problem details (a worker calls
    `util.write_error` through the module, so replacing the attribute is enough)."""
    from gunicorn import util

    util.write_error = write_problem
