"""The arena's endpoints: arena matches, tournaments, leaderboards, the bot protocol; the bots'
own are in arena/api_bots.py (BLUEPRINTS lists them all, in the order the app registers them)."""

from __future__ import annotations

from flask import jsonify
from flask.views import MethodView
from flask_smorest import Blueprint

from arena import confidence
from arena.api_base import KEY_REFUSALS, arena, caller, service
from arena.api_bots import bots_blp
from arena.botdebug import DebugTexts
from arena.botversions import BotVersions
from arena.protocol_spec import protocol_openapi
from arena.ratings import standings
from arena.schemas import (ArenaMatchCreatedSchema, ArenaMatchCreateSchema, LeaderboardSchema,
                           MatchDebugSchema, TournamentCreateSchema, TournamentListSchema,
                           TournamentSchema)
from arena.tournaments import entrant_seat
from referee.core.chance import INTERNAL
from referee.core.errors import ChanceUnsupported, RefereeError
from referee.service.access import (ANYONE, PLAYER, check_organiser, check_owner,
                                    check_seating, need_caller, requires)
from referee.service.records import created_body
from referee.service.schemas import ProblemSchema

arena_blp = Blueprint("arena", __name__, url_prefix="/v1/arena",
                      description="Matches between bots, played by the workers.")
tours_blp = Blueprint("tournaments", __name__, url_prefix="/v1/tournaments",
                      description="Round robins (duplicate format) and ladders.")
boards_blp = Blueprint("leaderboards", __name__, url_prefix="/v1/leaderboards",
                       description="OpenSkill (Plackett-Luce) ratings per game.")
protocol_blp = Blueprint("bot_protocol", __name__, url_prefix="/v1/bot-protocol",
                         description="The protocol bots implement, as its own OpenAPI document.")


def _internal_chance(body: dict) -> None:
    """Arena matches and tournaments draw chance from their seed: bots cannot deal a table."""
    if body.pop("chance", INTERNAL) != INTERNAL:
        raise ChanceUnsupported("the arena plays internal chance only: bots cannot supply a "
                                "table's draws; referee a live table with POST /v1/matches "
                                "and chance external (an organiser's key)")


def _rated(requested: bool | None, default: bool) -> bool:
    """Rated only when an organiser runs it: by default for organisers (when `default`
    allows), refused when a player asks for it."""
    who = caller()
    if requested is None:
        return default and who is not None and who.organiser
    if requested:
        check_organiser(who, "run rated matches and events (ratings come only from them)")
    return requested


@arena_blp.route("/matches/<match_id>/debug")
class MatchDebug(MethodView):
    @requires(ANYONE)
    @arena_blp.response(200, MatchDebugSchema)
    def get(self, match_id):
        """The bots' debug texts of a match (arena/botdebug.py)

        Who may call: anyone, but each caller sees only the texts of its own bots (by the
        account key), and, once the match is over, those of bots whose owner set
        `debug_public`; while it runs nothing of another account's bot. A match with none
        (or unknown) answers an empty list.
        """
        return {"match": match_id, "debug": visible_debug(match_id)}


def visible_debug(match_id: str) -> list[dict]:
    """The debug entries of a match the calling account may read."""
    bots = arena().bots
    try:
        _, live = service().load(match_id)
    except RefereeError:
        return []
    who = caller()
    return DebugTexts(bots.redis, bots.prefix).visible(
        match_id, live.status != "active", who.id if who is not None else None,
        lambda b: bots.get(b).get("owner"))


@arena_blp.route("/matches")
class ArenaMatches(MethodView):
    @requires(PLAYER)
    @arena_blp.arguments(ArenaMatchCreateSchema)
    @arena_blp.response(201, ArenaMatchCreatedSchema)
    @arena_blp.alt_response(401, schema=ProblemSchema, description=KEY_REFUSALS)
    @arena_blp.alt_response(403, schema=ProblemSchema, description="seats.not_open; "
                            "auth.organiser_only (a player asked for a rated match)")
    @arena_blp.alt_response(422, schema=ProblemSchema, description="chance.unsupported "
                            "(the arena plays internal chance only), options.invalid, "
                            "players.invalid, seats.invalid")
    @arena_blp.alt_response(409, schema=ProblemSchema, description="bot.disabled")
    def post(self, body):
        """Queue a match between bots

        Seats are `bot:<id>`, `builtin:random`, or `remote` (a person or pull-mode client
        with the returned token). The workers play every bot seat. A `bot:<id>` seat must be
        the caller's own bot or one open to challenges (organisers may seat any). Only an
        organiser's match is rated: by default when no seat is remote and no entrant holds
        several seats (`[bot, builtin:random, builtin:random]` is played unrated; `unrated`
        says why); one in which an account fills several seats never is.
        """
        _internal_chance(body)
        check_seating(service().drivers, body["seats"], caller())
        rated = _rated(body["rated"], "remote" not in body["seats"])
        if body["rated"] is None and rated:
            rated = None  # the organiser's default: create_match applies the seating rules
        created = arena().create_match(body["game"], body["seats"], body["options"],
                                       body["seed"], body["limits"], rated=rated,
                                       labels={"owner": need_caller(caller()).id})
        labels = created.meta.labels
        return {**created_body(created, seed_chosen=body["seed"] is not None),
                "rated": labels["rated"],
                **({"unrated": labels["unrated"]} if "unrated" in labels else {})}


@tours_blp.route("")
class Tournaments(MethodView):
    @requires(PLAYER)
    @tours_blp.arguments(TournamentCreateSchema)
    @tours_blp.response(201, TournamentSchema)
    @tours_blp.alt_response(401, schema=ProblemSchema, description=KEY_REFUSALS)
    @tours_blp.alt_response(403, schema=ProblemSchema, description="seats.not_open; "
                            "auth.organiser_only (a player asked for a rated event)")
    @tours_blp.alt_response(422, schema=ProblemSchema, description="tournament.invalid, "
                            "chance.unsupported (the arena plays internal chance only)")
    def post(self, body):
        """Start a tournament

        `round_robin`: every table of `players` entrants, in every seat rotation, on the same
        `seeds_per_table` seeds. `ladder`: a matchmaker keeps `concurrency` matches running,
        seating whoever has played least, until `max_matches`. `sprt`: entrants are
        [candidate, baseline]; pairs of duplicate matches (the same deal, seat and `opponents`,
        the candidate in one and the baseline in the other) until the sequential test of
        `sprt` (elo0, elo1, alpha, beta) decides or `max_matches` are played; never rated, and
        `sprt_state` shows the test as it stands. The tournament belongs to its
        creator; entrants must be the creator's bots or open ones (organisers may enter any).
        Only an organiser's events are rated (the default for organisers).
        """
        _internal_chance(body)
        check_seating(service().drivers, [entrant_seat(e) for e in
                                          body["entrants"] + (body.get("opponents") or [])],
                      caller())
        rated = _rated(body["rated"], True)
        owner = need_caller(caller()).id
        return arena().tournaments.create({**body, "rated": rated, "owner": owner})

    @requires(ANYONE)
    @tours_blp.response(200, TournamentListSchema)
    def get(self):
        """List tournaments"""
        return {"tournaments": arena().tournaments.list()}


@tours_blp.route("/<tid>")
class TournamentDetail(MethodView):
    @requires(ANYONE)
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
    @requires(PLAYER)
    @tours_blp.response(200, TournamentSchema)
    @tours_blp.alt_response(401, schema=ProblemSchema, description=KEY_REFUSALS)
    @tours_blp.alt_response(403, schema=ProblemSchema, description="auth.forbidden")
    @tours_blp.alt_response(404, schema=ProblemSchema, description="tournament.not_found")
    def post(self, tid):
        """Stop a tournament (its creator, or an organiser): no new matches; running ones
        finish"""
        tournaments = arena().tournaments
        check_owner(caller(), tournaments.owner_of(tid), f"tournament {tid}")
        return tournaments.stop(tid)


@boards_blp.route("/<game>")
class Leaderboard(MethodView):
    @requires(ANYONE)
    @boards_blp.response(200, LeaderboardSchema)
    @boards_blp.alt_response(404, schema=ProblemSchema, description="game.unknown")
    def get(self, game):
        """A game's leaderboard

        mu, sigma and the ordinal (mu - 3 sigma) from every rated match applied in creation
        order, with matches, wins, average rank, average score and failure rate; an interval
        (mu -+ 2 sigma), `provisional` below `min_games` matches (`ranked_place` counts the
        others), and `batch_elo`/`batch_place`, a Plackett-Luce fit over all matches at once
        (arena/confidence.py). A rated match
        not over within `status.deadline_s` of its creation no longer holds back later
        results; its own is applied when it arrives, marked late.
        """
        name = service().games.get(game).spec.name
        board = arena().leaderboards
        board.catch_up(name)  # a match past its deadline is passed over on a read too
        table, status = board.snapshot(name)  # one moment: the rows and their status agree
        rows = standings(table)
        confidence.annotate(rows, board.batch(name))
        BotVersions(arena().bots).annotate(rows)
        for row in rows:
            row["name"] = arena().entrant_name(row["entrant"])
        return {"game": name, "status": status, "standings": rows,
                "min_games": confidence.MIN_GAMES}


@protocol_blp.route("/openapi.json")
class ProtocolDocument(MethodView):
    @requires(ANYONE)
    @protocol_blp.doc(responses={"200": {
        "description": "an OpenAPI 3 document",
        "content": {"application/json": {"schema": {"type": "object",
                                                    "additionalProperties": True}}}}})
    def get(self):
        """Bot protocol v1 as an OpenAPI 3 document (the endpoints a bot serves)"""
        return jsonify(protocol_openapi(service().games))


BLUEPRINTS = [bots_blp, arena_blp, tours_blp, boards_blp, protocol_blp]
