"""The arena's endpoints: bots, arena matches, tournaments, leaderboards, the bot protocol."""

from __future__ import annotations

from flask import current_app, jsonify, request
from flask.views import MethodView
from flask_smorest import Blueprint

from arena.protocol_spec import protocol_openapi
from arena.ratings import standings
from arena.schemas import (ArenaMatchCreatedSchema, ArenaMatchCreateSchema, BotCreatedSchema,
                           BotCreateSchema, BotListQuerySchema, BotListSchema, BotSchema, LeaderboardSchema,
                           TournamentCreateSchema, TournamentListSchema, TournamentSchema)
from referee.service.records import created_body
from referee.service.schemas import ProblemSchema
from referee.service.credentials import parse_bearer

bots_blp = Blueprint("bots", __name__, url_prefix="/v1/bots",
                     description="Bots that play over HTTP (bot protocol v1).")
arena_blp = Blueprint("arena", __name__, url_prefix="/v1/arena",
                      description="Matches between bots, played by the workers.")
tours_blp = Blueprint("tournaments", __name__, url_prefix="/v1/tournaments",
                      description="Round robins (duplicate format) and ladders.")
boards_blp = Blueprint("leaderboards", __name__, url_prefix="/v1/leaderboards",
                       description="OpenSkill (Plackett-Luce) ratings per game.")
protocol_blp = Blueprint("bot_protocol", __name__, url_prefix="/v1/bot-protocol",
                         description="The protocol bots implement, as its own OpenAPI document.")


def service():
    """The MatchService this app serves (the root keeps it in `app.extensions`)."""
    return current_app.extensions["referee"]


def arena():
    """The arena attached to this app's service."""
    return service().extensions["arena"]


@bots_blp.route("")
class Bots(MethodView):
    @bots_blp.arguments(BotCreateSchema)
    @bots_blp.response(201, BotCreatedSchema)
    @bots_blp.alt_response(422, schema=ProblemSchema, description="bot.rejected: a URL that is "
                           "not http(s), a failed health check, unknown games; "
                           "bot.url_refused: the host resolves to an internal address")
    def post(self, body):
        """Register a bot

        Its host must resolve to public addresses only (internal ones need the service's
        REFEREE_BOT_ALLOW setting; the embedded default allows loopback); that address is
        pinned for every later call. We call its `GET /` first: it must answer
        `{"apiversion": "1", …}`. Returns the bot's id and the secret our requests to it are
        signed with (shown only here).
        """
        bots = arena().bots
        bot = bots.register(body["name"], body["url"], body["games"], body["owner"],
                            service().games.names())
        return {**bots.public(bot), "secret": bot["secret"]}

    @bots_blp.arguments(BotListQuerySchema, location="query")
    @bots_blp.response(200, BotListSchema)
    def get(self, query):
        """List bots with their health figures, a page at a time (oldest first)

        `total` counts every bot; `offset` and `limit` page through them. A bot's `info` is
        the protocol's fields of its `GET /`, cut short; nothing else it sent is listed.
        """
        bots = arena().bots
        ids = bots.ids(query["offset"], query["limit"])
        return {"bots": [bots.public(bots.get(i)) for i in ids], "total": bots.count(),
                "offset": query["offset"], "limit": query["limit"]}


@bots_blp.route("/<bot_id>")
class BotDetail(MethodView):
    @bots_blp.response(200, BotSchema)
    @bots_blp.alt_response(404, schema=ProblemSchema, description="bot.not_found")
    def get(self, bot_id):
        """A bot and its health

        Matches, moves, timeouts, crashes, bad responses, illegal moves, latency p50/p95 and
        the last error with a link to its match log.
        """
        bots = arena().bots
        return bots.public(bots.get(bot_id))


@bots_blp.route("/<bot_id>/enable")
class BotEnable(MethodView):
    @bots_blp.response(200, BotSchema)
    @bots_blp.alt_response(401, schema=ProblemSchema, description="auth.token_missing")
    @bots_blp.alt_response(403, schema=ProblemSchema, description="auth.token_invalid")
    @bots_blp.alt_response(404, schema=ProblemSchema, description="bot.not_found")
    def post(self, bot_id):
        """Re-enable a disabled bot

        Who may call: the bot's owner, proven (until accounts exist) by the bot's signing
        secret as `Authorization: Bearer <secret>`. A bot is disabled after failing several
        matches in a row; this clears that and its failed-match count.
        """
        bots = arena().bots
        bots.enable(bot_id, parse_bearer(request.headers.get("Authorization")))
        return bots.public(bots.get(bot_id))


@arena_blp.route("/matches")
class ArenaMatches(MethodView):
    @arena_blp.arguments(ArenaMatchCreateSchema)
    @arena_blp.response(201, ArenaMatchCreatedSchema)
    @arena_blp.alt_response(422, schema=ProblemSchema)
    @arena_blp.alt_response(409, schema=ProblemSchema, description="bot.disabled")
    def post(self, body):
        """Queue a match between bots

        Seats are `bot:<id>`, `builtin:random`, or `remote` (a person or pull-mode client
        with the returned token). The workers play every bot seat; a rated match feeds the
        game's leaderboard: by default a match is rated unless a seat is remote or one builtin
        holds several seats (`[bot, builtin:random, builtin:random]`; `unrated` says why).
        """
        created = arena().create_match(body["game"], body["seats"], body["options"],
                                       body["seed"], body["limits"], rated=body["rated"])
        labels = created.meta.labels
        return {**created_body(created, seed_chosen=body["seed"] is not None),
                "rated": labels["rated"],
                **({"unrated": labels["unrated"]} if "unrated" in labels else {})}


@tours_blp.route("")
class Tournaments(MethodView):
    @tours_blp.arguments(TournamentCreateSchema)
    @tours_blp.response(201, TournamentSchema)
    @tours_blp.alt_response(422, schema=ProblemSchema, description="tournament.invalid")
    def post(self, body):
        """Start a tournament

        `round_robin`: every table of `players` entrants, in every seat rotation, on the same
        `seeds_per_table` seeds. `ladder`: a matchmaker keeps `concurrency` matches running,
        seating whoever has played least, until `max_matches`.
        """
        return arena().tournaments.create(body)

    @tours_blp.response(200, TournamentListSchema)
    def get(self):
        """List tournaments"""
        return {"tournaments": arena().tournaments.list()}


@tours_blp.route("/<tid>")
class TournamentDetail(MethodView):
    @tours_blp.response(200, TournamentSchema)
    @tours_blp.alt_response(404, schema=ProblemSchema, description="tournament.not_found")
    def get(self, tid):
        """A tournament's progress and standings

        The tournament's own seed (if its creator gave one) is shown only once it is over;
        each match's seed commitment is on the match (`seed_commitment`).
        """
        return arena().tournaments.get(tid)


@tours_blp.route("/<tid>/stop")
class TournamentStop(MethodView):
    @tours_blp.response(200, TournamentSchema)
    @tours_blp.alt_response(404, schema=ProblemSchema, description="tournament.not_found")
    def post(self, tid):
        """Stop a tournament (no new matches; running ones finish)"""
        return arena().tournaments.stop(tid)


@boards_blp.route("/<game>")
class Leaderboard(MethodView):
    @boards_blp.response(200, LeaderboardSchema)
    @boards_blp.alt_response(404, schema=ProblemSchema, description="game.unknown")
    def get(self, game):
        """A game's leaderboard

        mu, sigma and the ordinal (mu - 3 sigma) from every rated match applied in creation
        order, with matches, wins, average rank, average score and failure rate. A rated match
        not over within `status.deadline_s` of its creation no longer holds back later
        results; its own is applied when it arrives, marked late.
        """
        name = service().games.get(game).spec.name
        board = arena().leaderboards
        board.catch_up(name)  # a match past its deadline is passed over on a read too
        rows = standings(board.table(name))
        for row in rows:
            row["name"] = arena().entrant_name(row["entrant"])
        return {"game": name, "status": board.status(name), "standings": rows}


@protocol_blp.route("/openapi.json")
class ProtocolDocument(MethodView):
    @protocol_blp.doc(responses={"200": {
        "description": "an OpenAPI 3 document",
        "content": {"application/json": {"schema": {"type": "object"}}}}})
    def get(self):
        """Bot protocol v1 as an OpenAPI 3 document (the endpoints a bot serves)"""
        return jsonify(protocol_openapi(service().games))


BLUEPRINTS = [bots_blp, arena_blp, tours_blp, boards_blp, protocol_blp]
