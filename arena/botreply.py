"""A bot's answer as the arena keeps it (arena/botclient.py calls): the JSON body, or a failure
record in our own words only (bot.timeout, bot.unreachable, bot.http_error,
bot.signature_refused, bot.bad_response), with the first bytes of what the bot sent kept apart
for its owner (`Reply.private`)."""

from __future__ import annotations

import http.client
import socket
import time
from dataclasses import dataclass

from referee.service import strictjson

PRIVATE_BYTES = 300
"""How much of a bot's failing answer is kept for its owner."""


@dataclass
class Reply:
    """A bot's answer: the JSON body, or a failure record; the latency; and `private`, what
    the bot sent with a failure (for its owner only, never in a public record)."""

    body: object = None
    failure: dict | None = None
    latency_ms: float = 0.0
    private: dict | None = None
    answered: bool = False  # an HTTP status line arrived (the far end speaks HTTP)


class BotFault(Exception):
    """What a bot did wrong while we read its answer: its failure record, and for its owner
    `private`."""

    def __init__(self, record: dict, private: dict | None = None):
        super().__init__(record["code"])
        self.record, self.private = record, private


def failure(sent, err: Exception) -> Reply:
    """The failure record for what went wrong with a request (the bot's, never ours)."""
    answered, latency = bool(sent.answered), ms(sent.start)
    if isinstance(err, BotFault):
        return Reply(failure=err.record, private=err.private, latency_ms=latency,
                     answered=answered)
    if isinstance(err, (TimeoutError, socket.timeout)):
        return Reply(failure={"code": "bot.timeout", "limit_ms": round(sent.timeout_s * 1000)},
                     latency_ms=latency, answered=answered)
    if isinstance(err, (OSError, http.client.HTTPException)):
        return Reply(failure={"code": "bot.unreachable"}, private={"error": type(err).__name__},
                     latency_ms=latency, answered=answered)
    # whatever else reading its answer raised: the bot's, not ours
    return Reply(failure={"code": "bot.bad_response", "detail": "the answer cannot be read"},
                 private={"error": type(err).__name__}, latency_ms=latency, answered=answered)


def parse(data: bytes, latency: float) -> Reply:
    """The bot's answer as strict JSON, or the bad response it is."""
    try:
        return Reply(body=strictjson.loads(data), latency_ms=latency, answered=True)
    except Exception as err:  # BadJson, and anything else: the bot's answer, the bot's fault
        reason = str(err) if isinstance(err, strictjson.BadJson) else "the body is not JSON"
        return Reply(failure={"code": "bot.bad_response", "detail": reason},
                     private=excerpt(data), latency_ms=latency, answered=True)


def excerpt(data: bytes) -> dict:
    """The first bytes of what a bot sent, as text, for its owner."""
    return {"body": data[:PRIVATE_BYTES].decode("utf-8", "replace")}


def ms(start: float) -> float:
    """Milliseconds since `start` (time.monotonic())."""
    return (time.monotonic() - start) * 1000
