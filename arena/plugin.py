"""The arena as a plug-in of the referee service (see referee/service/plugins.py).

It contributes the `bot:<id>` seat driver, an `Arena` attached to each service (finishing
matches with bot seats), the /v1 bots, arena, tournaments, leaderboards and bot-protocol
endpoints, their problem codes, and the `referee play` and `referee tournament` commands.
Flask is imported only when an app asks for the endpoints.
"""

from __future__ import annotations

from arena.bots import BotRegistry
from arena.driver import BotDriver
from arena.service import Arena
from referee.service.plugins import Command, Plugin

PROBLEMS = {
    "limits.invalid": "A time limit or the strikes count is unknown or out of bounds.",
    "bot.rejected": "A bot registration was refused: not an http(s) URL, a failed GET / "
                    "health check, or games the bot does not play.",
    "bot.not_found": "No bot with that id.",
    "tournament.invalid": "Tournament parameters that cannot be run.",
    "tournament.not_found": "No tournament with that id.",
    "bot.timeout": "(match failure) The bot did not answer within its move limit and bank.",
    "bot.unreachable": "(match failure) The bot's URL could not be reached.",
    "bot.http_error": "(match failure) The bot answered with an HTTP error status.",
    "bot.bad_response": "(match failure) The answer was not JSON {\"move\": ...}, or too large.",
    "bot.illegal_move": "(match failure) The bot's move was rejected; `error` holds the "
                        "rules' own code.",
    "bot.stalling": "(match failure) The bot made `max_streak` moves in a row without its "
                    "turn ending (e.g. exchanging back and forth).",
}
"""The arena's codes in the /v1/problems catalogue."""


def _drivers(store, _settings) -> dict:
    return {"bot": BotDriver(BotRegistry(store.redis, store.prefix))}


def _api() -> list:
    from arena.api import BLUEPRINTS  # Flask: only when an app is built
    return list(BLUEPRINTS)


def _play(argv) -> None:
    from arena.cli import play
    play(argv)


def _tournament(argv) -> None:
    from arena.cli import tournament
    tournament(argv)


COMMANDS = {
    "play": Command("play one match between bots, offline (no Redis)", _play),
    "tournament": Command("run a round robin between bots, offline (no Redis)", _tournament),
}


def arena_plugin(inline: bool = False) -> Plugin:
    """The arena plug-in; `inline` finishes matches in the thread that ended them instead of
    queueing a job (the offline commands and the benchmarks)."""
    return Plugin(name="arena", drivers=_drivers,
                  attach=lambda service, _settings: Arena(service, inline=inline),
                  api=_api, problems=PROBLEMS, commands=COMMANDS)
