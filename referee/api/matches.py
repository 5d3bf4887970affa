"""/v1/matches: create matches, read them, prompt a seat, take moves, export the log."""

from __future__ import annotations

from flask import Response, request
from flask.views import MethodView

from referee.api import arguments
from referee.api.answers import json_answer
from referee.api.auth import bearer_token, caller, principal
from referee.api.context import service
from referee.api.events import wait_caller, wait_slots
from referee.core.errors import RefereeError
from referee.service.access import (ANYONE, PLAYER, SEAT, SPECTATOR_OR_SEAT, check_seating,
                                    need_caller, requires)
from referee.service.schemas import (LogQuerySchema, LogSchema, MatchCreatedSchema,
                                 MatchCreateSchema, MatchListQuerySchema, MatchListSchema,
                                 MatchSchema, MoveAcceptedSchema, MoveSubmitSchema,
                                 ProblemSchema, PromptQuerySchema, PromptSchema)
from referee.service.dealer import check_creator
from referee.service.disclosure import Caller, prompt_viewer
from referee.service.records import created_body, to_jsonl

blp = arguments.HotBlueprint(
    "matches", __name__, url_prefix="/v1/matches",
    description="Matches refereed move by move; seats act with their bearer token.")

PROMPT_QUERY, MOVE_SUBMIT = PromptQuerySchema(), MoveSubmitSchema()
# The hot routes' argument schemas as instances: given a class, webargs builds a schema (deep
# copying its fields) on every request; a schema instance holds no per-load state.
blp.ARGUMENTS_PARSER.register(PROMPT_QUERY, "query", arguments.prompt_query)
blp.ARGUMENTS_PARSER.register(MOVE_SUBMIT, "json", arguments.move_submit)
# ...and read without them when plainly valid (arguments.py); the schemas still document
# them and judge every other request


def _viewer(meta) -> int | None:
    """The seat of the caller's token, or None for a spectator (no token)."""
    token = bearer_token()
    return None if token is None else service().seat_of(meta, token)


def idempotency_key() -> str | None:
    """The request's Idempotency-Key header, checked (request.invalid when unusable)."""
    # what request.headers.get("Idempotency-Key") reads, without its proxy and header lookups
    key = request._get_current_object().environ.get("HTTP_IDEMPOTENCY_KEY")
    if key is None:
        return None
    if not 1 <= len(key) <= 100 or not all(33 <= ord(c) <= 126 for c in key):
        raise RefereeError("Idempotency-Key must be 1-100 visible ASCII characters",
                           code="request.invalid")
    return key


def _seat(meta, svc) -> int:
    """The caller's seat in the match of `svc` (the MatchService); a token is required."""
    return svc.seat_of(meta, bearer_token())


@blp.route("")
class Matches(MethodView):
    @requires(PLAYER)
    @blp.arguments(MatchCreateSchema)
    @blp.response(201, MatchCreatedSchema)
    @blp.alt_response(401, schema=ProblemSchema, description="auth.key_missing, auth.key_invalid")
    @blp.alt_response(403, schema=ProblemSchema,
                      description="seats.not_open, auth.organiser_only (external chance)")
    @blp.alt_response(404, schema=ProblemSchema, description="game.unknown")
    @blp.alt_response(422, schema=ProblemSchema,
                      description="options.invalid, players.invalid, seats.invalid, "
                                  "chance.unsupported")
    def post(self, body):
        """Create a match

        One seat per entry of `seats`: `remote` (played by whoever holds that seat's token)
        or `builtin:random`. Returns the match id, the version and one secret bearer token per
        remote seat (shown only here), and the seed's commitment (sha256 of seed and salt).
        Without a seed the service draws one from a CSPRNG and keeps it (and the salt) secret
        until the match ends; a seed you choose is committed too. Needs an account key; a
        `bot:<id>` seat must be the caller's own bot or one open to challenges. These matches
        are never rated.

        `"chance": "external"` (an organiser's key): a table refereed live. The players'
        moves come from their seats as usual; every random event (set-up, draws, dice) waits
        for the creating organiser to enter what the table drew at /v1/matches/{id}/chance.
        Games that cannot yet take chance from outside refuse it (422 chance.unsupported).
        """
        svc = service()
        check_seating(svc.drivers, body["seats"], caller())
        check_creator(body["chance"], caller())
        limits = {k: body[k] for k in ("remote_move_s", "max_moves") if body[k] is not None}
        created = svc.create(body["game"], body["seats"], body["options"], body["seed"],
                             labels={"owner": need_caller(caller()).id}, limits=limits,
                             chance=body["chance"])
        return created_body(created, seed_chosen=body["seed"] is not None)

    @requires(ANYONE)
    @blp.arguments(MatchListQuerySchema, location="query")
    @blp.answers(200, MatchListSchema)
    def get(self, query):
        """List matches, newest first (spectator views)"""
        # written without marshmallow's dump, which is the identity on it (tests/api/
        # test_answers.py) and cost 15 ms of the 22 a list of 100 took
        svc = service()
        loaded = svc.load_many(svc.store.list_ids(query["offset"], query["limit"]))
        groups = svc.seeds.counts({meta.seed_group for meta, _ in loaded if meta.seed_group})
        return json_answer({"matches": [svc.summary(meta, live, None, groups)
                                        for meta, live in loaded],
                            "total": svc.store.count()})


@blp.route("/<match_id>")
class MatchDetail(MethodView):
    @requires(SPECTATOR_OR_SEAT)
    @blp.response(200, MatchSchema)
    @blp.alt_response(404, schema=ProblemSchema, description="match.not_found")
    @blp.alt_response(403, schema=ProblemSchema, description="auth.token_invalid")
    def get(self, match_id):
        """Show a match

        Status, seats, version, who must act, the result; the view is the caller's own when a
        seat token is sent, the spectator's otherwise.
        """
        svc = service()
        meta, live = svc.load(match_id)
        return svc.summary(meta, live, _viewer(meta))


# The two hot routes are view functions (one method each), not MethodViews: a MethodView
# is dispatched through two more layers, asking the request proxy for the method and
# `ensure_sync` twice. Their endpoints keep the class names (matches.Prompt, matches.Moves:
# the rate limits' families name them); the OpenAPI document is the same.

@blp.route("/<match_id>/prompt", endpoint="Prompt", methods=["GET"])
@requires(SEAT)
@blp.arguments(PROMPT_QUERY, location="query")
@blp.answers(200, PromptSchema)
@blp.alt_response(401, schema=ProblemSchema, description="auth.token_missing")
@blp.alt_response(403, schema=ProblemSchema, description="auth.token_invalid")
@blp.alt_response(404, schema=ProblemSchema, description="match.not_found")
@blp.alt_response(429, schema=ProblemSchema, description="wait.too_many")
@blp.alt_response(503, schema=ProblemSchema, description="wait.capacity")
def prompt(query, match_id):
    """The seat's pending decision and legal moves

    With `wait=N`, waits up to N seconds (capped by the service) until the seat must act
    or the match changes; `must_act` says which happened. A held wait counts against the
    token's and the server's wait caps (429 wait.too_many, 503 wait.capacity).
    """
    svc = service()
    meta = svc.load_meta(match_id)
    seat = _seat(meta, svc)
    wait = min(query["wait"], svc.settings.max_wait_seconds)
    if wait <= 0:
        prompt, view_json = svc.prompt_now(meta, seat)
        return json_answer(prompt, view_json=view_json)
    loaded = svc.load(match_id)
    with wait_slots().hold(wait_caller()):
        return _prompt_answer(svc, match_id, seat, svc.prompt(match_id, seat, wait,
                                                               loaded=loaded))


def _prompt_answer(svc, match_id: str, seat: int, prompt: dict) -> Response:
    return json_answer(prompt, view_json=svc.view_json(match_id, prompt, prompt_viewer(seat)))


@blp.route("/<match_id>/moves", endpoint="Moves", methods=["POST"])
@requires(SEAT)
@blp.arguments(MOVE_SUBMIT)
@blp.answers(200, MoveAcceptedSchema)
@blp.alt_response(400, schema=ProblemSchema, description="move.malformed, "
                  "request.malformed_json, request.invalid (Idempotency-Key)")
@blp.alt_response(401, schema=ProblemSchema, description="auth.token_missing")
@blp.alt_response(403, schema=ProblemSchema, description="auth.token_invalid")
@blp.alt_response(404, schema=ProblemSchema, description="match.not_found")
@blp.alt_response(409, schema=ProblemSchema, description="turn.not_yours, match.over, "
                  "match.version_stale")
@blp.alt_response(413, schema=ProblemSchema, description="request.too_large")
@blp.alt_response(422, schema=ProblemSchema, description="move.illegal.<rule>, "
                  "move.unexpected")
def moves(body, match_id):
    """Submit a move for your seat

    Accepted: the new version and your view. Rejected: a problem detail whose `code` says
    why (the rule, for an illegal move); the match is unchanged. Send an
    `Idempotency-Key` header (1-100 visible ASCII characters, new for each move you mean)
    to make retries safe: a key your seat already used in this match does not land the
    move again; it answers 200 with the match as it is now and `Idempotent-Replayed: true`.
    Caller: the seat's token holder.
    """
    svc = service()
    # the live record this process last saw, unread: the commit checks its version, and
    # a move it refuses is judged again on the current one
    meta, live = svc.load(match_id, cached=True)
    seat = _seat(meta, svc)
    key = idempotency_key()
    known = {"known_live": live, "maybe_behind": True, "shown_to": seat}
    if key is None:
        live, replayed = svc.submit(match_id, seat, body["move"], body["expected_version"],
                                    **known), False
    else:
        live, replayed = svc.submit_once(match_id, seat, body["move"],
                                         body["expected_version"], key, **known)
    headers = {"Idempotent-Replayed": "true"} if replayed else None
    answer = svc.accepted(meta, live, seat)
    return json_answer(answer, headers=headers, view_json=svc.view_json(match_id, answer, seat))


@blp.route("/<match_id>/resign")
class Resign(MethodView):
    @requires(SEAT)
    @blp.response(200, MoveAcceptedSchema)
    @blp.alt_response(401, schema=ProblemSchema, description="auth.token_missing")
    @blp.alt_response(403, schema=ProblemSchema, description="auth.token_invalid")
    @blp.alt_response(404, schema=ProblemSchema, description="match.not_found")
    @blp.alt_response(409, schema=ProblemSchema, description="match.over")
    def post(self, match_id):
        """Resign your seat

        Your seat ranks last (its failure code is `seat.resigned`); the referee plays its
        remaining decisions at random, so the other seats' match goes on to its end. Caller:
        the seat's token holder. Resigning again is harmless.
        """
        svc = service()
        meta, _ = svc.load(match_id)
        seat = _seat(meta, svc)
        return svc.accepted(meta, svc.resign(match_id, seat), seat)


@blp.route("/<match_id>/log")
class Log(MethodView):
    @requires(SPECTATOR_OR_SEAT)
    @blp.arguments(LogQuerySchema, location="query")
    @blp.response(200, LogSchema)
    @blp.doc(responses={"200": {"description": "OK", "content": {
        "application/json": {"schema": {"$ref": "#/components/schemas/Log"}},
        "application/jsonl": {"schema": {"type": "string",
                                         "description": "JSON Lines: match, move…, result"}}}}})
    @blp.alt_response(404, schema=ProblemSchema, description="match.not_found")
    def get(self, query, match_id):
        """The match record: set-up, every move, the result

        While the match runs, moves hidden from the caller are withheld (a seat token shows
        that seat's own moves), and failure records show only their code except to whoever
        may see that seat's details (its token holder, a bot's owner). The seed and its salt
        are withheld until this match and every match sharing its seed are over; its
        commitment is shown from the start (`seed_commitment`). While a match sharing its
        seed runs, no move is shown to others. `format=jsonl` gives JSON Lines: a `match`
        line, one `move` line per move, and a `result` line once the match is over.
        """
        svc = service()
        meta, _ = svc.load(match_id)
        viewer = _viewer(meta)
        record = svc.log(match_id, viewer, Caller(seat=viewer, principal=principal()))
        if query["format"] == "jsonl":
            return Response(to_jsonl(record), mimetype="application/jsonl")
        return record

