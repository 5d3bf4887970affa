"""POST /v1/bots/{id}/check: `referee botcheck` run by the service on a registered bot."""

from __future__ import annotations

from flask.views import MethodView
from flask_smorest import Blueprint

from arena.api_base import KEY_REFUSALS, arena, caller, service
from arena.botcheck import check_registered
from arena.schemas import BotCheckSchema
from referee.service.access import PLAYER, check_owner, requires
from referee.service.schemas import ProblemSchema

checks_blp = Blueprint("bot_checks", __name__, url_prefix="/v1/bots",
                       description="Protocol checks of registered bots (referee botcheck).")


@checks_blp.route("/<bot_id>/check")
class BotCheck(MethodView):
    @requires(PLAYER)
    @checks_blp.response(200, BotCheckSchema)
    @checks_blp.alt_response(401, schema=ProblemSchema, description=KEY_REFUSALS)
    @checks_blp.alt_response(403, schema=ProblemSchema, description="auth.forbidden")
    @checks_blp.alt_response(404, schema=ProblemSchema, description="bot.not_found")
    @checks_blp.alt_response(422, schema=ProblemSchema, description="bot.url_refused")
    def post(self, bot_id):
        """Check a bot against protocol v1 (its owner, or an organiser)

        Who may call: the bot's owner or an organiser (account key). The service runs
        `referee botcheck`'s checks on the bot at its pinned address, signed with its current
        secret, for the games it was registered for: `GET /`; signed /start, one /move for
        every decision kind (real positions, not any running match), /end; forged requests it
        must refuse (401/403); latency against the arena's limits; keep-alive. At most 60 s.
        The answer is one line per check (PASS/FAIL, name, expected, got) and never holds
        the secret; the result is kept and shown on the bot's page (`/bots/{id}`). It
        reveals nothing of any match.
        """
        bots = arena().bots
        check_owner(caller(), bots.get(bot_id).get("owner"), f"bot {bot_id}")
        return check_registered(bots, service().games, bot_id)
