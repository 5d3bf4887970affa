"""/v1/matches/{id}/chance: the chance seat of a match with external chance (a live table)."""

from __future__ import annotations

from flask.views import MethodView
from flask_smorest import Blueprint

from referee.api.auth import caller
from referee.api.context import service
from referee.api.events import wait_caller, wait_slots
from referee.api.matches import idempotency_key
from referee.core.chance import CHANCE
from referee.service.access import ORGANISER, requires
from referee.service.dealer import check_dealer
from referee.service.schemas import (ChancePromptSchema, MoveAcceptedSchema, MoveSubmitSchema,
                                     ProblemSchema, PromptQuerySchema)

blp = Blueprint("chance", __name__, url_prefix="/v1/matches",
                description="The chance seat of a match created with external chance: the "
                            "organiser at a physical table enters its draws, dice and deals.")

_DENIED = "auth.key_missing, auth.key_invalid"
_FORBIDDEN = "auth.organiser_only, auth.forbidden (another organiser's match)"


@blp.route("/<match_id>/chance")
class ChanceSeat(MethodView):
    @requires(ORGANISER)
    @blp.arguments(PromptQuerySchema, location="query")
    @blp.response(200, ChancePromptSchema)
    @blp.alt_response(401, schema=ProblemSchema, description=_DENIED)
    @blp.alt_response(403, schema=ProblemSchema, description=_FORBIDDEN)
    @blp.alt_response(404, schema=ProblemSchema, description="match.not_found")
    @blp.alt_response(409, schema=ProblemSchema, description="chance.internal")
    @blp.alt_response(429, schema=ProblemSchema, description="wait.too_many")
    @blp.alt_response(503, schema=ProblemSchema, description="wait.capacity")
    def get(self, query, match_id):
        """The chance seat's pending decision

        When a random event must happen (a card drawn, a die rolled, the set-up dealt), the
        match waits for it: `must_act` is true, the decision names the event, `legal_moves`
        are the possible outcomes as moves and `outcomes` pairs each with its probability.
        The view is the spectator's. `wait=N` long-polls as for a seat's prompt. Caller: the
        organiser who created the match (with `chance: external`).
        """
        svc = service()
        meta, _ = svc.load(match_id)
        check_dealer(meta, caller())
        wait = min(query["wait"], svc.settings.max_wait_seconds)
        if wait <= 0:
            return svc.prompt(match_id, CHANCE, 0)
        with wait_slots().hold(wait_caller()):
            return svc.prompt(match_id, CHANCE, wait)

    @requires(ORGANISER)
    @blp.arguments(MoveSubmitSchema)
    @blp.response(200, MoveAcceptedSchema)
    @blp.alt_response(400, schema=ProblemSchema, description="move.malformed, "
                      "request.malformed_json, request.invalid (Idempotency-Key)")
    @blp.alt_response(401, schema=ProblemSchema, description=_DENIED)
    @blp.alt_response(403, schema=ProblemSchema, description=_FORBIDDEN)
    @blp.alt_response(404, schema=ProblemSchema, description="match.not_found")
    @blp.alt_response(409, schema=ProblemSchema, description="chance.internal, turn.not_yours, "
                      "match.over, match.version_stale")
    @blp.alt_response(413, schema=ProblemSchema, description="request.too_large")
    @blp.alt_response(422, schema=ProblemSchema, description="move.illegal.chance.outcome")
    def post(self, body, match_id):
        """Supply a chance outcome

        `{"move": {"type": "chance", "outcome": ...}}`: what the table drew or rolled, one of
        the outcomes the chance prompt lists (else 422 move.illegal.chance.outcome); the
        match goes on (or waits for the next outcome). The log shows the outcome to everyone
        if it is public, else only to the seat that owns it (`nobody`: to no one) until the
        match is over. Idempotency-Key works as for a seat's move. Caller: the organiser who
        created the match.
        """
        svc = service()
        meta, _ = svc.load(match_id)
        check_dealer(meta, caller())
        key = idempotency_key()
        replayed = False
        if key is None:
            live = svc.submit(match_id, CHANCE, body["move"], body["expected_version"],
                              by="organiser")
        else:
            live, replayed = svc.submit(match_id, CHANCE, body["move"],
                                        body["expected_version"], by="organiser",
                                        idempotency=f"chance:{key}")
        summary = svc.summary(meta, live, None)
        headers = {"Idempotent-Replayed": "true"} if replayed else {}
        return {k: summary[k] for k in ("version", "status", "to_act", "result", "view")}, \
            200, headers
