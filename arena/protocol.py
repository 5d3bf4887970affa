"""Bot protocol v1: what we send to bots, what they answer, and how requests are signed.

A bot is an HTTP server with four endpoints:
  GET  /       -> {"apiversion": "1", "name", "author", "games": [...], "version"?}
  POST /start  <- match (the id), game, rules version, your seat, players, options, seat
                  names and the time limits; any 2xx answer
  POST /move   <- match id, game, rules version, seat, version, the pending decision, your
                  view, your legal moves, the time allowed, your previous answer's latency
               -> {"move": {...}}
  POST /end    <- match id, game, rules version, your seat, the result and your final view;
                  any 2xx answer
(`match` is the id string in all three; arena/requests.py builds them, arena/protocol_spec.py
is the OpenAPI 3.1 document, clients/protocol/README.md the exact prose.)

Every POST carries three headers; a bot should refuse requests that fail them:
  X-Referee-Timestamp  unix seconds when we signed it (refuse if far from now: replays)
  X-Referee-Nonce      random, unique per request (refuse a nonce seen before: replays)
  X-Referee-Signature  "v1=" + hex HMAC-SHA256(secret, timestamp + "." + nonce + "." + body)

What we accept back (arena/botclient.py, referee/service/strictjson.py): an answer complete within the
call's deadline (connect, send and receive together), at most 256 KiB, strict JSON (no NaN or
Infinity, no duplicate keys, no lone surrogates, integers within 64 bits, nesting at most 64).
Anything else is the bot's failure, recorded with a code and none of its bytes.
"""

from __future__ import annotations

import hmac
import time

from arena.tokens import token_hex

API_VERSION = "1"
SIGNATURE_HEADER = "X-Referee-Signature"
TIMESTAMP_HEADER = "X-Referee-Timestamp"
NONCE_HEADER = "X-Referee-Nonce"
MAX_SKEW_SECONDS = 300


def signature(secret: str, timestamp: str, nonce: str, body: bytes) -> str:
    """The v1 signature of a request body."""
    message = b"%s.%s.%s" % (timestamp.encode(), nonce.encode(), body)
    return "v1=" + hmac.digest(secret.encode(), message, "sha256").hex()  # one C call


def sign(secret: str, body: bytes, now: float | None = None) -> dict:
    """The signing headers for `body`."""
    timestamp = str(int(now if now is not None else time.time()))
    nonce = token_hex(12)
    return {TIMESTAMP_HEADER: timestamp, NONCE_HEADER: nonce,
            SIGNATURE_HEADER: signature(secret, timestamp, nonce, body)}


def verify(secret: str, headers, body: bytes, now: float | None = None,
           seen_nonces: set | None = None) -> str | None:
    """None if the request is ours and fresh; otherwise why it must be refused."""
    timestamp = headers.get(TIMESTAMP_HEADER, "")
    nonce = headers.get(NONCE_HEADER, "")
    given = headers.get(SIGNATURE_HEADER, "")
    if not (timestamp.isdigit() and nonce and given):
        return "unsigned request"
    if abs((now if now is not None else time.time()) - int(timestamp)) > MAX_SKEW_SECONDS:
        return "stale timestamp"
    if not hmac.compare_digest(signature(secret, timestamp, nonce, body), given):
        return "bad signature"
    if seen_nonces is not None:
        if nonce in seen_nonces:
            return "replayed nonce"
        seen_nonces.add(nonce)
    return None
