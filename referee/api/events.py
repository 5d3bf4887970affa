"""/v1/matches/{id}/events: a match live as Server-Sent Events, for spectators and seats."""

from __future__ import annotations

from flask import Response, current_app, request, stream_with_context
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields

from referee.api.auth import address_identity, bearer_token
from referee.api.context import service
from referee.api.peer import client_gone_check
from referee.core.errors import RefereeError
from referee.service import defaults
from referee.service.access import SEAT, SPECTATOR_OR_SEAT, requires
from referee.service.events import issue_ticket, seat_of_ticket, stream
from referee.service.matches import token_hash
from referee.service.schemas import ProblemSchema
from referee.service.waits import WaitSlots

blp = Blueprint("events", __name__, url_prefix="/v1/matches",
                description="A match live, as Server-Sent Events.")

_STREAM_DOC = {
    "200": {
        "description": "An endless `text/event-stream` until the match ends: `event: version` "
                       "(id: the version; data: the match summary as the caller may see it, "
                       "the schema of GET /v1/matches/{id}), comments as heartbeats, and a "
                       "final `event: over` (data: version, status, result). A reader that "
                       "missed more versions than the window (REFEREE_EVENT_WINDOW, 1000) "
                       "gets `event: snapshot` instead of them (id: the current version; "
                       "data: `skipped` {from, to}, `window`, and `match`, the current "
                       "summary).",
        # the schema of one event as a client parses it (what schemathesis checks each against)
        "content": {"text/event-stream": {"schema": {
            "type": "object", "description": "one server-sent event",
            "properties": {"event": {"type": "string", "enum": ["version", "snapshot", "over"]},
                           "id": {"type": "string"}, "retry": {"type": "integer"},
                           "data": {"type": "string", "description": "a JSON object"}}}}},
    },
}


class TicketSchema(Schema):
    """A seat's event-stream ticket."""

    ticket = fields.String(required=True)
    expires_in = fields.Integer(required=True, metadata={"description": "seconds"})


def wait_slots() -> WaitSlots:
    """This process's wait slots (REFEREE_MAX_WAITS, REFEREE_WAITS_PER_CALLER)."""
    slots = current_app.extensions.get("referee.wait_slots")
    if slots is None:
        settings = service().settings
        slots = current_app.extensions.setdefault(
            "referee.wait_slots", WaitSlots(settings.max_waits, settings.waits_per_caller))
    return slots


def wait_caller() -> str:
    """Who a held wait counts against: the seat token's hash, else the caller's address."""
    token = bearer_token()
    return f"token:{token_hash(token)}" if token else address_identity()


def _last_event_id() -> int | None:
    """The Last-Event-ID header as a version (request.invalid when not a version)."""
    raw = request.headers.get("Last-Event-ID")
    if raw is None or raw == "":
        return None
    if not raw.isdigit() or len(raw) > 12:
        raise RefereeError("Last-Event-ID must be a version (a non-negative integer)",
                           code="request.invalid")
    return int(raw)


def _viewer(meta) -> tuple[int | None, str]:
    """The seat whose stream this is (token or ticket; None: a spectator), and its caller."""
    svc = service()
    ticket = request.args.get("ticket")
    if ticket is not None:
        seat = seat_of_ticket(svc.store, meta.id, ticket)
        return seat, f"seat:{meta.id}:{seat}"
    token = bearer_token()
    if token is None:
        return None, wait_caller()
    return svc.seat_of(meta, token), wait_caller()


@blp.route("/<match_id>/events")
class Events(MethodView):
    @requires(SPECTATOR_OR_SEAT)
    @blp.doc(responses=_STREAM_DOC,
             parameters=[{"in": "header", "name": "Last-Event-ID", "required": False,
                          "schema": {"type": "string", "pattern": "^[0-9]{1,12}$"},
                          "description": "resume after this version"},
                         {"in": "query", "name": "ticket", "required": False,
                          "schema": {"type": "string", "maxLength": 200},
                          "description": "a seat ticket from POST …/events/ticket, for "
                                         "clients that cannot send headers"}])
    @blp.alt_response(400, schema=ProblemSchema, description="request.invalid (Last-Event-ID)")
    @blp.alt_response(403, schema=ProblemSchema,
                      description="auth.token_invalid, auth.ticket_invalid")
    @blp.alt_response(404, schema=ProblemSchema, description="match.not_found")
    @blp.alt_response(429, schema=ProblemSchema, description="wait.too_many")
    @blp.alt_response(503, schema=ProblemSchema, description="wait.capacity")
    def get(self, match_id):
        """Follow a match live (Server-Sent Events)

        Anyone may follow as a spectator (no credentials: the spectator's view). A seat's
        holder sees its own hidden information with `Authorization: Bearer <seat token>`,
        or, from a browser's EventSource, with `?ticket=` from POST …/events/ticket (never
        the seat token itself in the URL). One `version` event per committed version, each
        the summary of GET /v1/matches/{id} as the caller may see it. With `Last-Event-ID:
        <version>` the stream resumes after that version. Versions missed (committed faster
        than the stream is read, or while the client was away) are rebuilt from the log and
        sent in order, each once, as that caller may see them; when more were missed than
        the window (REFEREE_EVENT_WINDOW, 1000 versions), one `event: snapshot` with the
        current summary (and the skipped range) stands in for them. Ends with `event:
        over`; a comment every 15 s keeps an idle stream open.
        Each stream counts against the caller's and the server's wait caps, until it ends
        or, idle, within 3 s of its client closing the connection.
        """
        svc = service()
        meta, _ = svc.load(match_id)
        viewer, caller = _viewer(meta)
        after = _last_event_id()
        slots = wait_slots()
        slots.acquire(caller)
        response = Response(stream_with_context(stream(svc, meta, viewer, after,
                                                       svc.settings.heartbeat_seconds,
                                                       svc.settings.event_window,
                                                       client_gone_check(request.environ))),
                            mimetype="text/event-stream",
                            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
        # the server closes the response however the stream ends (over, the client gone,
        # even before its first byte), and that gives the slot back
        response.call_on_close(lambda: slots.release(caller))
        return response


@blp.route("/<match_id>/events/ticket")
class Ticket(MethodView):
    @requires(SEAT)
    @blp.response(201, TicketSchema)
    @blp.alt_response(401, schema=ProblemSchema, description="auth.token_missing")
    @blp.alt_response(403, schema=ProblemSchema, description="auth.token_invalid")
    @blp.alt_response(404, schema=ProblemSchema, description="match.not_found")
    def post(self, match_id):
        """A short-lived ticket for a seat's event stream

        Caller: the seat's token holder. The ticket opens GET …/events?ticket=… as that seat
        for a minute (a stream opened in time stays open); it grants nothing else, so the
        seat token itself never appears in a URL or a server log.
        """
        svc = service()
        meta, _ = svc.load(match_id)
        seat = svc.seat_of(meta, bearer_token())
        return {"ticket": issue_ticket(svc.store, meta.id, seat),
                "expires_in": defaults.TICKET_SECONDS}
