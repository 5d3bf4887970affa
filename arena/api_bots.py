"""The arena's bot endpoints (/v1/bots): register, list, read, change, delete, re-key, version,
enable and disable bots that play over HTTP (bot protocol v1). Each route says who may call it;
a bot's secret is shown only when it is made."""

from __future__ import annotations

from flask.views import MethodView
from flask_smorest import Blueprint

from arena.api_base import KEY_REFUSALS, arena, caller, service
from arena.botdebug import DebugTexts
from arena.botversions import BotVersions
from arena.schemas import (BotCreatedSchema, BotCreateSchema, BotDisableSchema,
                           BotListQuerySchema, BotListSchema, BotSchema, BotSecretSchema,
                           BotUpdateSchema, BotVersionCreateSchema, BotVersionsSchema)
from referee.service.access import (ANYONE, ORGANISER, PLAYER, check_organiser, check_owner,
                                    need_caller, requires)
from referee.service.schemas import ProblemSchema

bots_blp = Blueprint("bots", __name__, url_prefix="/v1/bots",
                     description="Bots that play over HTTP (bot protocol v1).")


@bots_blp.route("")
class Bots(MethodView):
    @requires(PLAYER)
    @bots_blp.arguments(BotCreateSchema)
    @bots_blp.response(201, BotCreatedSchema)
    @bots_blp.alt_response(401, schema=ProblemSchema, description=KEY_REFUSALS)
    @bots_blp.alt_response(409, schema=ProblemSchema, description="bot.url_taken: that URL "
                           "is registered already (no new id, no new secret)")
    @bots_blp.alt_response(422, schema=ProblemSchema, description="bot.rejected: a URL that is "
                           "not http(s), a failed health check, unknown games; "
                           "bot.url_refused: the host resolves to an internal address")
    def post(self, body):
        """Register a bot

        Its host must resolve to public addresses only (internal ones need the service's
        REFEREE_BOT_ALLOW setting; the embedded default allows loopback); that address is
        pinned for every later call. We call its `GET /` first: it must answer
        `{"apiversion": "1", …}`. Returns the bot's id and the secret our requests to it are
        signed with (shown only here). The bot belongs to the calling account; a URL is
        registered once; `open: true` lets other accounts seat it (default: only its owner).
        """
        bots = arena().bots
        owner = need_caller(caller()).id
        bot = bots.register(body["name"], body["url"], body["games"], owner,
                            service().games.names(), open_=body["open"])
        return {**bots.public(bot), "secret": bot["secret"]}

    @requires(ANYONE)
    @bots_blp.arguments(BotListQuerySchema, location="query")
    @bots_blp.response(200, BotListSchema)
    def get(self, query):
        """List bots with their health figures, a page at a time (oldest first)

        `total` counts every bot; `offset` and `limit` page through them. A bot's `info` is
        the protocol's fields of its `GET /`, cut short; nothing else it sent is listed.
        """
        bots = arena().bots
        ids = bots.ids(query["offset"], query["limit"])
        return {"bots": bots.public_many(bots.get_many(ids)), "total": bots.count(),
                "offset": query["offset"], "limit": query["limit"]}


@bots_blp.route("/<bot_id>")
class BotDetail(MethodView):
    @requires(ANYONE)
    @bots_blp.response(200, BotSchema)
    @bots_blp.alt_response(404, schema=ProblemSchema, description="bot.not_found")
    def get(self, bot_id):
        """A bot and its health

        Matches, moves, timeouts, crashes, bad responses, illegal moves, latency p50/p95 and
        the last error with a link to its match log.
        """
        bots = arena().bots
        return bots.public(bots.get(bot_id))

    @requires(PLAYER)
    @bots_blp.arguments(BotUpdateSchema)
    @bots_blp.response(200, BotSchema)
    @bots_blp.alt_response(401, schema=ProblemSchema, description=KEY_REFUSALS)
    @bots_blp.alt_response(403, schema=ProblemSchema, description="auth.forbidden")
    @bots_blp.alt_response(404, schema=ProblemSchema, description="bot.not_found")
    def patch(self, body, bot_id):
        """Change a bot's settings (its owner)

        `open`: whether other accounts may seat it in their matches and events;
        `debug_public`: whether everyone may read its debug texts once a match is over.
        """
        bots = arena().bots
        check_owner(caller(), bots.get(bot_id).get("owner"), f"bot {bot_id}",
                    organiser_may=False)
        if body.get("open") is not None:
            bots.set_open(bot_id, body["open"])
        if body.get("debug_public") is not None:
            DebugTexts(bots.redis, bots.prefix).set_public(bot_id, body["debug_public"])
        return bots.public(bots.get(bot_id))


    @requires(PLAYER)
    @bots_blp.response(204)
    @bots_blp.alt_response(401, schema=ProblemSchema, description=KEY_REFUSALS)
    @bots_blp.alt_response(403, schema=ProblemSchema, description="auth.forbidden")
    @bots_blp.alt_response(404, schema=ProblemSchema, description="bot.not_found")
    def delete(self, bot_id):
        """Delete a bot (its owner, or an organiser)

        It leaves the list, its URL may be registered again, new matches with it are refused;
        matches it played keep naming it.
        """
        bots = arena().bots
        check_owner(caller(), bots.get(bot_id).get("owner"), f"bot {bot_id}")
        bots.retire(bot_id)


@bots_blp.route("/<bot_id>/secret")
class BotSecret(MethodView):
    @requires(PLAYER)
    @bots_blp.response(201, BotSecretSchema)
    @bots_blp.alt_response(401, schema=ProblemSchema, description=KEY_REFUSALS)
    @bots_blp.alt_response(403, schema=ProblemSchema, description="auth.forbidden")
    @bots_blp.alt_response(404, schema=ProblemSchema, description="bot.not_found")
    def post(self, bot_id):
        """Re-key a bot (its owner): a new signing secret, shown only here

        The old secret stays valid for 10 minutes (SECRET_GRACE_S): a call the bot refuses
        with 401 or 403 in that time is signed again once with the old one, so a bot that
        takes a few minutes to pick up its new secret forfeits nothing. After that, a
        refusal is the match failure `bot.signature_refused`.
        """
        bots = arena().bots
        check_owner(caller(), bots.get(bot_id).get("owner"), f"bot {bot_id}",
                    organiser_may=False)
        return {"id": bot_id, "secret": bots.rekey(bot_id)}


@bots_blp.route("/<bot_id>/versions")
class BotVersionList(MethodView):
    @requires(ANYONE)
    @bots_blp.response(200, BotVersionsSchema)
    @bots_blp.alt_response(404, schema=ProblemSchema, description="bot.not_found")
    def get(self, bot_id):
        """A bot's versions, oldest first, and which is current (anyone: ids, numbers,
        builds, URLs, registration times, as the bot records show)"""
        return BotVersions(arena().bots).listing(bot_id)

    @requires(PLAYER)
    @bots_blp.arguments(BotVersionCreateSchema)
    @bots_blp.response(201, BotCreatedSchema)
    @bots_blp.alt_response(401, schema=ProblemSchema, description=KEY_REFUSALS)
    @bots_blp.alt_response(403, schema=ProblemSchema, description="auth.forbidden")
    @bots_blp.alt_response(404, schema=ProblemSchema, description="bot.not_found")
    @bots_blp.alt_response(409, schema=ProblemSchema, description="bot.url_taken")
    @bots_blp.alt_response(422, schema=ProblemSchema, description="bot.rejected, "
                           "bot.url_refused")
    def post(self, body, bot_id):
        """Register a new version of a bot (its owner)

        Health-checked and pinned like a registration; a new id and secret (shown only here),
        the bot's name, games and openness, `version` n+1. Matches seat a version by its id,
        so they record it; the leaderboard marks older versions `superseded_by`; with
        `rating_carry: inflate` (default) the new version's first rated result starts it at
        the previous version's mu with sigma inflated, `fresh` at the default rating.
        """
        bots = arena().bots
        check_owner(caller(), bots.get(bot_id).get("owner"), f"bot {bot_id}",
                    organiser_may=False)
        bot = BotVersions(bots).add(bot_id, body["url"], body["build"], body["rating_carry"],
                                    service().games.names())
        return {**bots.public(bot), "secret": bot["secret"]}


@bots_blp.route("/<bot_id>/enable")
class BotEnable(MethodView):
    @requires(PLAYER)
    @bots_blp.response(200, BotSchema)
    @bots_blp.alt_response(401, schema=ProblemSchema, description=KEY_REFUSALS)
    @bots_blp.alt_response(403, schema=ProblemSchema, description="auth.forbidden")
    @bots_blp.alt_response(404, schema=ProblemSchema, description="bot.not_found")
    def post(self, bot_id):
        """Re-enable a disabled bot (its owner, or an organiser)

        A bot is disabled after failing several matches in a row (or by an organiser); this
        clears that and its failed-match count.
        """
        bots = arena().bots
        check_owner(caller(), bots.get(bot_id).get("owner"), f"bot {bot_id}")
        bots.enable(bot_id)
        return bots.public(bots.get(bot_id))


@bots_blp.route("/<bot_id>/disable")
class BotDisable(MethodView):
    @requires(ORGANISER)
    @bots_blp.arguments(BotDisableSchema)
    @bots_blp.response(200, BotSchema)
    @bots_blp.alt_response(401, schema=ProblemSchema, description=KEY_REFUSALS)
    @bots_blp.alt_response(403, schema=ProblemSchema, description="auth.organiser_only")
    @bots_blp.alt_response(404, schema=ProblemSchema, description="bot.not_found")
    def post(self, body, bot_id):
        """Disable a bot (organisers): it is not called and new matches with it are refused"""
        check_organiser(caller(), "disable bots")  # also when no access hook ran: fail closed
        bots = arena().bots
        bots.disable(bot_id, body["reason"])
        return bots.public(bots.get(bot_id))
