"""Bot protocol v1 request signing, from the wire format alone (standard library only).

The service signs every POST to a bot with three headers:
  X-Referee-Timestamp  unix seconds
  X-Referee-Nonce      unique per request
  X-Referee-Signature  "v1=" + hex HMAC-SHA256(secret, timestamp + "." + nonce + "." + body)
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time

TIMESTAMP_HEADER = "X-Referee-Timestamp"
NONCE_HEADER = "X-Referee-Nonce"
SIGNATURE_HEADER = "X-Referee-Signature"
MAX_SKEW_SECONDS = 300
"""How far a request's timestamp may be from our clock (the service uses the same window)."""


def signature(secret: str, timestamp: str, nonce: str, body: bytes) -> str:
    """The v1 signature of a request body."""
    message = timestamp.encode() + b"." + nonce.encode() + b"." + body
    return "v1=" + hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def sign(secret: str, body: bytes, now: float | None = None, nonce: str | None = None) -> dict:
    """The three signing headers for `body` (what the service sends; handy in tests)."""
    timestamp = str(int(time.time() if now is None else now))
    nonce = nonce or secrets.token_hex(12)
    return {TIMESTAMP_HEADER: timestamp, NONCE_HEADER: nonce,
            SIGNATURE_HEADER: signature(secret, timestamp, nonce, body)}


class Verifier:
    """Checks signatures, the timestamp window and nonce reuse; thread-safe.

    Nonces are remembered only as long as their timestamp is inside the window: an older
    request is refused as stale anyway, so memory stays bounded by the request rate.
    """

    def __init__(self, max_skew: float = MAX_SKEW_SECONDS):
        self.max_skew = max_skew
        self._seen: dict[str, int] = {}
        self._lock = threading.Lock()
        self._next_prune = 0.0

    def check(self, secret: str, headers, body: bytes, now: float | None = None) -> str | None:
        """None if the request is signed with `secret` and fresh; otherwise why to refuse it."""
        now = time.time() if now is None else now
        timestamp = headers.get(TIMESTAMP_HEADER) or ""
        nonce = headers.get(NONCE_HEADER) or ""
        given = headers.get(SIGNATURE_HEADER) or ""
        if not (timestamp.isdigit() and nonce and given):
            return "unsigned request"
        if abs(now - int(timestamp)) > self.max_skew:
            return "stale timestamp"
        if not hmac.compare_digest(signature(secret, timestamp, nonce, body), given):
            return "bad signature"
        return self._remember(nonce, int(timestamp), now)

    def _remember(self, nonce: str, timestamp: int, now: float) -> str | None:
        # only signed, fresh requests reach here, so an impostor cannot fill the table
        with self._lock:
            if nonce in self._seen:
                return "replayed nonce"
            self._seen[nonce] = timestamp
            if now >= self._next_prune:
                cutoff = now - self.max_skew
                self._seen = {n: t for n, t in self._seen.items() if t >= cutoff}
                self._next_prune = now + self.max_skew / 10
        return None
