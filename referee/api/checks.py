"""/v1/verify and /v1/check-sessions: a match record verified whole, and moves checked one
at a time against a position the service keeps (O(1) per move)."""

from __future__ import annotations

from flask import request
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from referee.api.auth import account_identity, address_identity
from referee.api.context import service
from referee.service.access import ANYONE, requires
from referee.service.checksessions import CheckSessions
from referee.service.checkschemas import (ProblemBriefSchema, PositionSchema, SeatedMoveSchema,
                                          StartSchema)
from referee.service.credentials import parse_bearer
from referee.service.schemas import ProblemSchema
from referee.service.verifying import RecordSchema, verify_record

blp = Blueprint("checks", __name__, url_prefix="/v1",
                description="Checking games played elsewhere: a whole match record, or a "
                            "game move by move in a check session.")

class _Ordered(Schema):
    class Meta:
        ordered = True


_SESSION_AUTH = "session.token_invalid (Authorization: Bearer <the session's token>)"


class VerifiedSchema(_Ordered):
    legal = fields.Boolean()
    applied = fields.Integer(metadata={"description": "moves that replayed legally"})
    moves = fields.Integer(metadata={"description": "moves in the record"})
    error = fields.Nested(ProblemBriefSchema, allow_none=True,
                          metadata={"description": "the first bad move (its `index`)"})
    outcome = fields.Dict(allow_none=True, metadata={"description": "what the rules give"})
    outcome_matches = fields.Boolean(allow_none=True, metadata={
        "description": "the record's result has the replayed scores, ranks and termination "
                       "(null: no result, or aborted)"})
    commitment_matches = fields.Boolean(allow_none=True, metadata={
        "description": "the revealed seed and salt hash to the commitment (null: not "
                       "revealed, or external chance)"})
    rules_version_matches = fields.Boolean(metadata={
        "description": "the record names the rules_version this service plays (false: an older "
                       "one whose records replay unchanged, GET /v1/games/{game} older_rules)"})
    rules_version_read = fields.String(metadata={
        "description": "the rules_version the record was read as made under"})


class SessionCreateSchema(StartSchema):
    game = fields.String(required=True)


class SessionSchema(PositionSchema):
    id = fields.String()
    version = fields.Integer(metadata={"description": "moves applied so far"})


class SessionCreatedSchema(SessionSchema):
    token = fields.String(metadata={"description": "the session's bearer token: every later "
                                                   "call on it needs it"})
    game = fields.String()
    expires_in_s = fields.Integer(metadata={"description": "idle seconds before it expires"})


class SessionVerdictSchema(SessionSchema):
    legal = fields.Boolean()
    error = fields.Nested(ProblemBriefSchema, allow_none=True)


class SessionMoveSchema(SeatedMoveSchema):
    view_seat = fields.Integer(load_default=None, allow_none=True,
                               validate=validate.Range(min=-1),
                               metadata={"description": "also return this seat's view"})


class ViewQuerySchema(_Ordered):
    view_seat = fields.Integer(load_default=None, allow_none=True,
                               validate=validate.Range(min=-1))


def sessions() -> CheckSessions:
    """The check sessions of this app's store."""
    svc = service()
    return CheckSessions(svc.store.redis, svc.store.prefix)


def session_owner() -> str:
    """Whom a session counts against: the calling account, else the address."""
    return account_identity() or address_identity()


def session_token() -> str | None:
    """The session token of the request (Authorization: Bearer cs_…)."""
    return parse_bearer(request.headers.get("Authorization"))


@blp.route("/verify")
class Verify(MethodView):
    @requires(ANYONE)
    @blp.arguments(RecordSchema)
    @blp.response(200, VerifiedSchema)
    @blp.alt_response(404, schema=ProblemSchema, description="game.unknown")
    @blp.alt_response(422, schema=ProblemSchema, description="request.invalid, "
                      "record.invalid (seed withheld), options.invalid, players.invalid, "
                      "rules.version_unreadable (made under rules these do not replay)")
    def post(self, record):
        """Verify a match record

        The body is a record exactly as `GET /v1/matches/{id}/log` gives it, or
        `{"jsonl": "<the JSONL export>"}`; its other fields are ignored. Its moves are
        replayed against the rules from its set-up (its seed, or its chance moves with
        external chance): `legal`, and else `error.index`, the first bad move. Its result is
        recomputed (`outcome`; the move cap and forfeits as the result states them) and
        compared (`outcome_matches`); its seed and salt are hashed and compared with its
        commitment (`commitment_matches`). A record made under an older rules_version is
        replayed only if the game's `older_rules` says it replays unchanged, else refused.
        Anyone may call it; it reads no stored match.
        """
        return verify_record(service().games, record)


@blp.route("/check-sessions")
class Sessions(MethodView):
    @requires(ANYONE)
    @blp.arguments(SessionCreateSchema)
    @blp.response(201, SessionCreatedSchema)
    @blp.alt_response(404, schema=ProblemSchema, description="game.unknown")
    @blp.alt_response(422, schema=ProblemSchema, description="options.invalid, "
                      "players.invalid, request.invalid, state.invalid, chance.unsupported, "
                      "chance.seed_unused, seed.commitment_mismatch")
    @blp.alt_response(429, schema=ProblemSchema, description="session.too_many")
    def post(self, body):
        """Open a check session

        A position kept by the service: from the set-up (players, options, and a seed or
        `"chance": "external"`) or a `state`, as `/v1/games/{game}/check` takes them. Answers
        the session's `id`, its `token` (send it as `Authorization: Bearer <token>` on every
        later call: only its creator can use the session) and the pending decisions. A session
        expires `expires_in_s` after its last use; a caller (API key, else address) holds at
        most 20 at once (429 session.too_many). Anyone who may call the check may call it; it
        reveals nothing of any match.
        """
        game = service().games.get(body["game"])
        return sessions().create(game, body, session_owner()), 201


@blp.route("/check-sessions/<session_id>")
class Session(MethodView):
    @requires(ANYONE)
    @blp.arguments(ViewQuerySchema, location="query")
    @blp.response(200, SessionSchema)
    @blp.alt_response(401, schema=ProblemSchema, description=_SESSION_AUTH)
    @blp.alt_response(404, schema=ProblemSchema, description="session.not_found")
    def get(self, query, session_id):
        """A check session's position

        The pending decisions with their legal moves, the outcome once over, and
        `view_seat`'s view if asked. Caller: the session's creator (its token).
        """
        return sessions().show(service().games, session_id, session_token(),
                               query["view_seat"])

    @requires(ANYONE)
    @blp.response(204)
    @blp.alt_response(401, schema=ProblemSchema, description=_SESSION_AUTH)
    @blp.alt_response(404, schema=ProblemSchema, description="session.not_found")
    def delete(self, session_id):
        """End a check session

        Frees its place in the caller's count at once. Caller: the session's creator.
        """
        sessions().delete(session_id, session_token())
        return "", 204


@blp.route("/check-sessions/<session_id>/moves")
class SessionMoves(MethodView):
    @requires(ANYONE)
    @blp.arguments(SessionMoveSchema)
    @blp.response(200, SessionVerdictSchema)
    @blp.alt_response(401, schema=ProblemSchema, description=_SESSION_AUTH)
    @blp.alt_response(404, schema=ProblemSchema, description="session.not_found")
    @blp.alt_response(409, schema=ProblemSchema, description="match.busy (two moves at once)")
    def post(self, body, session_id):
        """Check one move in a session

        `{"seat": …, "move": {…}}` (the seat may be omitted when one seat must act; with
        external chance, the chance outcomes are moves of seat `"chance"`). A legal move is
        applied (`legal: true`, `version` one more); an illegal one leaves the position as
        it was (`legal: false`, `error` with its code). Either way the answer has the
        pending decisions; after `max_moves` moves the position is over (`capped`) and
        further moves are check.move_cap. One move's cost does not grow with the game.
        Caller: the session's creator (its token).
        """
        return sessions().play(service().games, session_id, session_token(), body,
                               body.get("view_seat"))
