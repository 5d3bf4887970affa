"""Calling bots over HTTP: keep-alive sessions, signed requests, time and size limits.

Every failure becomes a reason code, never an exception the match would die of:
bot.timeout, bot.unreachable, bot.http_error, bot.bad_response.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

import requests
from requests.adapters import HTTPAdapter

from arena.protocol import sign

MAX_RESPONSE_BYTES = 256 * 1024
"""Bot answers larger than this are bad responses (a move is a small object)."""

CONNECT_TIMEOUT = 2.0
"""Seconds to open a connection to a bot (counted within the move's time, too)."""


class InvalidBotUrl(ValueError):
    """A bot URL we will not call."""


def check_url(url: str) -> str:
    """The URL without a trailing slash; raises InvalidBotUrl unless it is http(s) with a host."""
    if not isinstance(url, str):
        raise InvalidBotUrl("a bot URL must be a string")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise InvalidBotUrl(f"a bot URL must be http:// or https:// with a host, got {url!r}")
    return url.rstrip("/")


@dataclass
class Reply:
    """A bot's answer: the JSON body, or a failure code with details; and the latency."""

    body: object = None
    failure: dict | None = None
    latency_ms: float = 0.0


_local = threading.local()


def session() -> requests.Session:
    """This thread's keep-alive session (one connection pool per bot host)."""
    sess = getattr(_local, "session", None)
    if sess is None:
        sess = requests.Session()
        sess.mount("http://", HTTPAdapter(pool_connections=64, pool_maxsize=8, max_retries=0))
        sess.mount("https://", HTTPAdapter(pool_connections=64, pool_maxsize=8, max_retries=0))
        sess.headers.update({"User-Agent": "referee-arena/1", "Content-Type": "application/json"})
        _local.session = sess
    return sess


def call(url: str, path: str, payload: dict | None, secret: str | None, timeout_s: float) -> Reply:
    """POST `payload` (or GET when None) to the bot; never raises for the bot's faults."""
    body = json.dumps(payload, separators=(",", ":")).encode() if payload is not None else b""
    headers = sign(secret, body) if secret and payload is not None else {}
    start = time.perf_counter()
    try:
        response = _send(url + path, body, headers, payload is None, timeout_s)
        data = _read_limited(response, start + timeout_s)
    except _Failure as failure:
        return Reply(failure=failure.record, latency_ms=_ms(start))
    except requests.Timeout:
        return Reply(failure={"code": "bot.timeout", "limit_ms": round(timeout_s * 1000)},
                     latency_ms=_ms(start))
    except requests.RequestException as err:
        return Reply(failure={"code": "bot.unreachable", "error": type(err).__name__,
                              "detail": str(err)[:300]}, latency_ms=_ms(start))
    latency = _ms(start)
    if latency > timeout_s * 1000:
        return Reply(failure={"code": "bot.timeout", "limit_ms": round(timeout_s * 1000),
                              "latency_ms": round(latency, 1)}, latency_ms=latency)
    if not 200 <= response.status_code < 300:
        return Reply(failure={"code": "bot.http_error", "status": response.status_code,
                              "body": data[:300].decode("utf-8", "replace")}, latency_ms=latency)
    return _parse(data, latency)


class _Failure(Exception):
    def __init__(self, record: dict):
        super().__init__(record["code"])
        self.record = record


def _send(url, body, headers, is_get, timeout_s):
    timeout = (min(CONNECT_TIMEOUT, timeout_s), max(timeout_s, 0.001))
    if is_get:
        return session().get(url, timeout=timeout, stream=True)
    return session().post(url, data=body, headers=headers, timeout=timeout, stream=True)


def _read_limited(response, deadline: float) -> bytes:
    """The body, refusing more than MAX_RESPONSE_BYTES or reading past the deadline."""
    chunks, size = [], 0
    for chunk in response.iter_content(16384):
        size += len(chunk)
        if size > MAX_RESPONSE_BYTES:
            response.close()
            raise _Failure({"code": "bot.bad_response",
                            "detail": f"response larger than {MAX_RESPONSE_BYTES} bytes"})
        if time.perf_counter() > deadline:
            response.close()
            raise requests.Timeout("response still arriving at the deadline")
        chunks.append(chunk)
    return b"".join(chunks)


def _parse(data: bytes, latency: float) -> Reply:
    try:
        return Reply(body=json.loads(data), latency_ms=latency)
    except (ValueError, UnicodeDecodeError):
        return Reply(failure={"code": "bot.bad_response", "detail": "the body is not JSON",
                              "body": data[:300].decode("utf-8", "replace")}, latency_ms=latency)


def _ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000
