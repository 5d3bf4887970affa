"""A match as Server-Sent Events: one `version` event per committed version, then `over`.

Each event's data is the match summary as its viewer may see it (MatchService.summary: the
same redaction as GET /v1/matches/{id}, asked of it for every version sent, rebuilt ones
too), its `id` the version. When commits come faster than the stream reads them, and when a
stream is resumed with Last-Event-ID, the versions in between are rebuilt from the move log
(missed.py), so a reader sees every version once, in order. More missed versions than the
window (REFEREE_EVENT_WINDOW) give one `snapshot` event instead: `{"skipped": {"from", "to"},
"window", "match": <the current summary>}`, its id the current version; the stream goes on
from there. Idle streams get a comment every heartbeat.

Seat tickets let a browser's EventSource (which cannot send headers) open a seat's stream
without putting the seat token in a URL: a ticket names the match and seat, expires within
a minute, and is signed with a secret the service keeps in Redis (shared by every process).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time

from referee.core.errors import RefereeError
from referee.service import defaults
from referee.service.missed import missed_versions
from referee.service.store import Live, MatchMeta, MatchStatus

RETRY_MS = 2000
"""How long a browser waits before reconnecting a dropped stream (the `retry:` field)."""

PEER_CHECK_S = 3.0
"""How often an idle stream asks whether its client has gone (a stream learns it otherwise
only when a write fails, at the next heartbeat): a closed tab gives its wait slot back within
this, not within the heartbeat (15 s), so a burst of reconnecting clients is not refused
wait.capacity for slots held by the ones that left."""


class InvalidTicket(RefereeError):
    """The event-stream ticket is malformed, expired, or not for this match."""

    code = "auth.ticket_invalid"
    status = 403


def frame(event: str, data, event_id: int | None = None) -> str:
    """One SSE message (data as one line of compact JSON)."""
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def stream(service, meta: MatchMeta, viewer: int | None, after: int | None,
           heartbeat: float, window: int = defaults.EVENT_WINDOW, gone=None):
    """The SSE text of match `meta` for `viewer` (a seat or None), from the version after
    `after` (None: from the current one); ends after `over` (or when the match is gone, or
    when `gone()`, asked every PEER_CHECK_S while idle, says the client closed the stream).
    At most `window` missed versions are sent again; beyond it, one `snapshot`."""
    yield f"retry: {RETRY_MS}\n\n"
    shown: tuple[Live, int] | None = None     # the last version sent, and the log length then
    last_write = time.monotonic()
    with service.store.changes.watch(meta.id) as changed:
        maybe_changed = True
        while True:
            if maybe_changed:   # read the match only when it may have changed
                live, log_length = service.store.live_with_log_length(meta.id)
                if live is None:
                    return
                if after is None or live.version > after:
                    yield from _frames(service, meta, viewer, shown, after, live, log_length,
                                       window)
                    after, shown, last_write = live.version, (live, log_length), time.monotonic()
                if live.status != MatchStatus.ACTIVE:   # the result as the viewer may see it
                    result = service.summary(meta, live, viewer)["result"]
                    yield frame("over", {"version": live.version, "status": live.status,
                                         "result": result}, live.version)
                    return
            idle = heartbeat - (time.monotonic() - last_write)
            maybe_changed = service.store.changes.wait_on(
                changed, idle if gone is None else min(idle, PEER_CHECK_S))
            if not maybe_changed and gone is not None and gone():
                return
            if time.monotonic() - last_write >= heartbeat:
                yield ": keep-alive\n\n"
                last_write = time.monotonic()


def _frames(service, meta: MatchMeta, viewer: int | None, shown, after: int | None,
            live: Live, log_length: int, window: int):
    """The events from the version after `after` (None: `live` alone) up to `live`: each
    missed version, or a `snapshot` standing in for them (missed.py)."""
    rebuilt = [] if after is None else missed_versions(service, meta, shown, after, live,
                                                       log_length, window)
    if rebuilt is None:
        yield frame("snapshot", {"skipped": {"from": after + 1, "to": live.version - 1},
                                 "window": window, "match": service.summary(meta, live, viewer)},
                    live.version)
        return
    for version_live in [*rebuilt, live]:
        yield _version_frame(service, meta, version_live, viewer)


def _version_frame(service, meta: MatchMeta, live: Live, viewer: int | None) -> str:
    """The `version` event of `live` for `viewer`. Not cached across readers: what a viewer
    may see of a version can change after it was committed (a seed group's twins, a seed
    revealed), so each is asked of MatchService.summary when it is sent."""
    return frame("version", service.summary(meta, live, viewer), live.version)


# -- seat tickets -------------------------------------------------------------------------

def _secret(store) -> bytes:
    """The signing secret, created once per store (SET NX) so every process shares it."""
    cached = getattr(store, "_ticket_secret", None)
    if cached is None:
        key = f"{store.prefix}:ticket-secret"
        store.redis.set(key, secrets.token_hex(32), nx=True)
        cached = store.redis.get(key).encode()
        store._ticket_secret = cached
    return cached


def _sign(store, body: str) -> str:
    mac = hmac.new(_secret(store), body.encode(), hashlib.sha256).digest()[:18]
    return base64.urlsafe_b64encode(mac).decode()


def issue_ticket(store, match_id: str, seat: int,
                 seconds: int = defaults.TICKET_SECONDS) -> str:
    """A ticket that opens `seat`'s event stream of `match_id` for `seconds`."""
    body = f"{match_id}.{seat}.{int(time.time()) + seconds}"
    return f"{body}.{_sign(store, body)}"


def seat_of_ticket(store, match_id: str, ticket: str) -> int:
    """The seat a ticket opens the stream of; raises InvalidTicket."""
    parts = ticket.split(".")
    if len(parts) != 4 or parts[0] != match_id or not parts[1].isdigit() or \
            not parts[2].isdigit():
        raise InvalidTicket("the ticket is malformed or not for this match")
    body = ".".join(parts[:3])
    if not hmac.compare_digest(_sign(store, body), parts[3]):
        raise InvalidTicket("the ticket's signature does not match")
    if int(parts[2]) < time.time():
        raise InvalidTicket("the ticket has expired; ask for a new one")
    return int(parts[1])
