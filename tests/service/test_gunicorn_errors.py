"""What the server refuses by itself (414, 431, 400) is a problem detail like every other error
(issue 42): a real gunicorn with the README's settings, and `referee serve`, on loopback."""

from __future__ import annotations

import json
import socket

import pytest

from referee import gunicorn_conf, gunicorn_errors
from referee.api.problems import CATALOGUE
from tests.support.http import serve_embedded, serve_gunicorn, stop_process


LIMITS = {
    # server: (longest request line, most header fields, longest header field) it reads
    "gunicorn": (gunicorn_conf.LIMIT_REQUEST_LINE, gunicorn_conf.LIMIT_REQUEST_FIELDS,
                 gunicorn_conf.LIMIT_REQUEST_FIELD_SIZE),
    "serve": (65_536, 100, 65_536),   # Python's http.server, under werkzeug's handler
}


@pytest.fixture(scope="module", params=sorted(LIMITS))
def server(request):
    """(port, limits) of one gunicorn worker (gevent, the settings module) or of `referee
    serve`, on the embedded store."""
    api, base = (serve_gunicorn(REDIS_URL="") if request.param == "gunicorn"
                 else serve_embedded())
    try:
        yield int(base.rsplit(":", 1)[1]), LIMITS[request.param]
    finally:
        output = stop_process(api)
        assert "Traceback" not in output, output


def _raw(port: int, request: bytes) -> tuple[int, dict, bytes]:
    """Send `request` as it is; (status, headers, body) of the answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
        sock.sendall(request)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), {k.lower(): v for k, v in headers.items()}, body


def _get(port: int, path: str, extra_headers: str = "") -> tuple[int, dict, dict]:
    status, headers, body = _raw(port, (f"GET {path} HTTP/1.1\r\nHost: x\r\n"
                                        f"Connection: close\r\n{extra_headers}\r\n").encode())
    return status, headers, json.loads(body)


def _is_problem(status, headers, body, code):
    assert headers["content-type"] == "application/problem+json", (status, headers, body)
    assert (status, body["code"], body["status"], body["title"]) == (
        {"request.uri_too_long": 414, "request.headers_too_large": 431,
         "request.malformed": 400}[code], code, status, code), body
    assert body["type"] == f"/v1/problems#{code}" and body["detail"]


def test_a_request_line_over_the_limit_is_414_problem(server):
    port, (line, _, _) = server
    _is_problem(*_get(port, "/v1/games?q=" + "a" * line), "request.uri_too_long")


def test_a_long_uri_under_the_limit_reaches_the_app(server):
    """8,000 bytes: over gunicorn's default limit (4094), under ours; the app answers."""
    status, headers, body = _get(server[0], "/v1/games/" + "a" * 8_000)
    assert (status, body["code"]) == (404, "game.unknown"), body
    assert headers["content-type"] == "application/problem+json"


def test_too_many_header_fields_is_431_problem(server):
    port, (_, fields, _) = server
    extra = "".join(f"X-F{i}: 1\r\n" for i in range(fields + 1))
    _is_problem(*_get(port, "/v1/health", extra), "request.headers_too_large")


def test_a_header_field_over_the_limit_is_431_problem(server):
    port, (_, _, size) = server
    field = "X-Big: " + "b" * size + "\r\n"
    _is_problem(*_get(port, "/v1/health", field), "request.headers_too_large")


def test_an_unreadable_request_line_is_400_problem(server):
    status, headers, body = _raw(server[0], b"GET / HTTP/x.y\r\n\r\n")
    _is_problem(status, headers, json.loads(body), "request.malformed")


def test_every_code_gunicorn_may_answer_is_in_the_catalogue():
    assert set(gunicorn_errors.CODES.values()) <= set(CATALOGUE)
    answer = gunicorn_errors.problem_bytes(414, "URI Too Long", "x" * 10_000)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert int(head.split(b"Content-Length: ")[1]) == len(body)
    assert len(json.loads(body)["detail"]) == gunicorn_errors.DETAIL_CHARS
