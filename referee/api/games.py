"""/v1/games: the games, their options and move vocabularies, and the stateless move check."""

from __future__ import annotations

from flask.views import MethodView
from flask_smorest import Blueprint

from referee.api.context import service
from referee.service.access import ANYONE, requires
from referee.service.checks import check_moves
from referee.service.checkschemas import (CheckRequestSchema, CheckResponseSchema,
                                          StateSchemaDocSchema)
from referee.service.described import describe
from referee.service.positions import describe_state
from referee.service.schemas import GameListSchema, GameSchema, ProblemSchema

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


@blp.route("/<game>/state-schema")
class StateSchema(MethodView):
    @requires(ANYONE)
    @blp.response(200, StateSchemaDocSchema)
    @blp.alt_response(404, schema=ProblemSchema, description="game.unknown")
    def get(self, game):
        """A game's state schema and position notation

        The JSON Schema of a complete game state (the `state` a check takes), every field
        described, and the game's one-line position notation (the `position` a check takes
        and answers): its prefix, its rules, the state's fields in the order it writes them,
        and an example. A state or position holds the whole game, hidden parts included.
        Anyone may call it; it reveals nothing of any match.
        """
        return describe_state(service().games.get(game))


@blp.route("/<game>/check")
class Check(MethodView):
    @requires(ANYONE)
    @blp.arguments(CheckRequestSchema)
    @blp.response(200, CheckResponseSchema)
    @blp.alt_response(404, schema=ProblemSchema, description="game.unknown")
    @blp.alt_response(422, schema=ProblemSchema,
                      description="options.invalid, players.invalid, request.invalid, "
                                  "state.invalid, chance.unsupported, chance.seed_unused, "
                                  "seed.commitment_mismatch")
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
        field), with the moves checked from there. `moves` may be a match's log entries as
        `GET …/log` or the JSONL export give them (their `version`, `at`, `by` and other log
        fields are ignored). A seed is a string of digits (or a number up to 2^53); with
        `seed_commitment` (the match's commitment and salt) a seed that is not the match's is
        422 seed.commitment_mismatch. After `max_moves` moves (default the match cap) the
        position is over, adjudicated by the standing (`capped`), and a further move is
        refused with check.move_cap. Anyone may call it; it reveals nothing of any match.
        """
        return check_moves(service().games.get(game), body)
