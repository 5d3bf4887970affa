"""/v1/games: the games, their options and move vocabularies, and the stateless move check."""

from __future__ import annotations

from flask.views import MethodView
from flask_smorest import Blueprint

from referee.api.context import service
from referee.service.access import ANYONE, requires
from referee.service.schemas import (CheckRequestSchema, CheckResponseSchema, GameListSchema,
                                 GameSchema, ProblemSchema)
from referee.core import engine, suspend
from referee.core.chance import EXTERNAL, INTERNAL
from referee.service.described import describe
from referee.core.errors import ChanceUnsupported, NotYourTurn, RefereeError

blp = Blueprint("games", __name__, url_prefix="/v1/games",
                description="The games refereed here, and a stateless move check.")


@blp.route("")
class Games(MethodView):
    @requires(ANYONE)
    @blp.response(200, GameListSchema)
    def get(self):
        """List the games

        Each game's name, title, player counts and rules version.
        """
        return {"games": [g.spec.to_dict() for g in service().games]}


@blp.route("/<game>")
class GameDetail(MethodView):
    @requires(ANYONE)
    @blp.response(200, GameSchema)
    @blp.alt_response(404, schema=ProblemSchema, description="game.unknown")
    def get(self, game):
        """Describe a game

        Options with defaults and their sources, the move vocabulary with a JSON Schema and an
        example per move type, what the game hides from each seat, a JSON Schema of a seat's
        view and of the spectator's (every field described) with an example of each, and
        `board`: every printed table the engine uses, each value tagged FOUND, DERIVED or
        PROPOSAL with its source. Anyone may call it.
        """
        return describe(service().games.get(game))


@blp.route("/<game>/check")
class Check(MethodView):
    @requires(ANYONE)
    @blp.arguments(CheckRequestSchema)
    @blp.response(200, CheckResponseSchema)
    @blp.alt_response(404, schema=ProblemSchema, description="game.unknown")
    @blp.alt_response(422, schema=ProblemSchema,
                      description="options.invalid, players.invalid, request.invalid, "
                                  "state.invalid, chance.unsupported")
    def post(self, body, game):
        """Check moves against the rules, without a match

        Replays `moves` from the set-up given by players, options and seed. Reports the first
        move any check rejects (index, seat, code, message); otherwise the pending decisions
        with their legal moves, and the outcome once the game is over. A `candidate` move is
        checked against the position reached. A move's seat may be omitted when exactly one
        seat must act.

        For a game played elsewhere: `"chance": "external"` instead of a seed, and every
        random event (shuffle draws, dice, set-up) as a move of seat `"chance"`,
        `{"type": "chance", "outcome": ...}`, where it happened; a pending chance decision
        lists the possible outcomes with their probabilities. Or `state`: a complete position
        (the state form, checked; a bad one is refused with the JSON path of its first bad
        field), with the moves checked from there. Anyone may call it; it reveals nothing of
        any match.
        """
        return check_moves(service().games.get(game), body)


def check_moves(game, body: dict) -> dict:
    """The stateless check: replay, stop at the first rejected move, describe the position."""
    state = _starting_position(game, body)
    version, report = 0, {"legal": True, "error": None, "candidate": None}
    for index, item in enumerate(body["moves"]):
        try:
            seat = _seat_for(game, state, item["seat"])
            state, _ = engine.play(game, state, version, seat, item["move"])
            version += 1
        except RefereeError as err:
            report.update(legal=False, error=_brief(err, index, item["seat"]))
            break
    if report["legal"] and body["candidate"] is not None:
        report["candidate"] = _check_candidate(game, state, version, body["candidate"])
        report["legal"] = report["candidate"]["code"] is None
    view_seat = body.get("view_seat")
    if view_seat is not None and view_seat >= body["players"]:
        raise RefereeError(f"view_seat {view_seat} is not a seat of a {body['players']}-seat "
                           f"match (use -1 for the spectator)", code="request.invalid")
    report.update(_position(game, state, view_seat), applied=version)
    return report


def _starting_position(game, body: dict):
    """The set-up (from the seed, or waiting for chance), or the `state` given, checked."""
    external = body["chance"] == EXTERNAL
    if external and not game.external_chance:
        raise ChanceUnsupported(f"{game.spec.name} does not support external chance yet",
                                game=game.spec.name)
    if body["state"] is not None:
        data = body["state"]
        if external and not suspend.is_external(data):
            data = {**data, suspend.KEY: suspend.idle()}
        return game.from_dict(data)
    if body["chance"] == INTERNAL and body["seed"] is None:
        raise RefereeError("give the seed (internal chance), or chance external with the "
                           "chance moves in the log, or a state", code="request.invalid")
    return engine.start(game, body["players"], body["options"], body["seed"] or 0,
                        body["chance"])[1]


def _check_candidate(game, state, version, item) -> dict:
    try:
        seat = _seat_for(game, state, item["seat"])
        engine.play(game, state, version, seat, item["move"])
    except RefereeError as err:
        return _brief(err, None, item["seat"])
    return {"index": None, "seat": seat, "code": None, "message": "legal"}


def _seat_for(game, state, seat):
    if seat is not None:
        return seat
    decisions = game.pending(state)
    if len(decisions) == 1:
        return decisions[0].seat
    raise NotYourTurn(f"give the move's seat: seats {[d.seat for d in decisions]} must act")


def _brief(err: RefereeError, index, seat) -> dict:
    return {"index": index, "seat": seat, "code": err.code, "message": err.message,
            **({"details": err.details} if err.details else {})}


def _position(game, state, view_seat) -> dict:
    decisions = game.pending(state)
    outcome = game.outcome(state)
    view = None
    if view_seat is not None:
        view = game.view(state, None if view_seat < 0 else view_seat)
    return {"over": not decisions,
            "pending": [{**d.to_dict(), "legal_moves": game.legal_moves(state, d.seat)}
                        for d in decisions],
            "outcome": outcome.to_dict() if outcome else None, "view": view}
