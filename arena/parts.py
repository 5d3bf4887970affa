"""The arena plug-in's parts, without its commands: the `bot:<id>` seat driver, an `Arena`
attached to each service (finishing matches with bot seats), the /v1 bots, arena,
tournaments, leaderboards and bot-protocol endpoints, and their problem codes. Flask is
imported only when an app asks for the endpoints.

The commands (arena/plugin.py) build services of their own from these parts (the offline
arena), so the parts never import a command: no import circle through the CLI.
"""

from __future__ import annotations

import logging

from arena.bots import BotRegistry
from arena.driver import BotDriver
from arena.netguard import policy_for
from arena.service import Arena
from referee.service.plugins import Plugin

log = logging.getLogger(__name__)

PROBLEMS = {
    "limits.invalid": "A time limit or the strikes count is unknown or out of bounds.",
    "bot.rejected": "A bot registration was refused: not an http(s) URL, a failed GET / "
                    "health check, or games the bot does not play.",
    "bot.not_found": "No bot with that id.",
    "bot.url_refused": "The bot's host resolves to an address bots may not have (loopback, "
                       "private, link-local, ...), or to none.",
    "bot.disabled": "The bot failed several matches in a row (or an organiser disabled it) and "
                    "is disabled until its owner or an organiser re-enables it "
                    "(POST /v1/bots/{id}/enable).",
    "bot.url_taken": "A bot with that URL is registered already: a URL is registered once "
                     "(no new id, no new secret).",
    "tournament.invalid": "Tournament parameters that cannot be run.",
    "tournament.not_found": "No tournament with that id.",
    "tournament.too_large": "A round robin that would plan more matches than "
                            "REFEREE_TOURNAMENT_MAX_MATCHES, or a ladder whose max_matches is "
                            "over REFEREE_LADDER_MAX_MATCHES.",
    "bot.timeout": "(match failure) The bot did not answer within its move limit and bank.",
    "bot.unreachable": "(match failure) The bot's URL could not be reached.",
    "bot.http_error": "(match failure) The bot answered with an HTTP error status.",
    "bot.signature_refused": "(match failure) The bot answered 401 or 403 to our signed "
                             "request: it could not verify our signature (an old or wrong "
                             "secret; after a re-key the old secret is tried once within "
                             "its grace period). Not a crash: the bot is alive but does not "
                             "accept the secret we sign with.",
    "bot.game_not_declared": "A bot seated in a game it was not registered for (its "
                             "`games`): it is refused wherever it would be seated.",
    "bot.bad_response": "(match failure) The answer was not JSON {\"move\": ...}, or too large.",
    "bot.illegal_move": "(match failure) The bot's move was rejected; `error` holds the "
                        "rules' own code.",
    "bot.stalling": "(match failure) The bot made `max_streak` moves in a row without its "
                    "turn ending (e.g. exchanging back and forth).",
    "bot.exception": "(match failure, in-process seats of arena.local) The Python function "
                     "raised instead of returning a move.",
}
"""The arena's codes in the /v1/problems catalogue."""


def _settings_for(loopback: bool):
    """The arena's settings: where bots may be. On loopback in the embedded default and in the
    offline commands and benchmarks (`loopback`), elsewhere only at public addresses plus
    $REFEREE_BOT_ALLOW; said once a process when internal addresses are allowed (the
    benchmarks and the tests build many services in one process)."""
    def settings(base) -> dict:
        embedded = loopback or base.embedded
        policy = policy_for(embedded=embedded)
        if policy.allow:
            _warn_once("bots may be at these internal addresses (REFEREE_BOT_ALLOW%s): %s" % (
                ", plus loopback in the embedded default" if embedded else "",
                policy.describe()))
        return {"policy": policy}
    return settings


_WARNED: set = set()


def _warn_once(message: str) -> None:
    """Log `message` as a warning the first time this process says it."""
    if message not in _WARNED:
        _WARNED.add(message)
        log.warning("%s", message)


def _drivers(store, settings) -> dict:
    return {"bot": BotDriver(BotRegistry(store.redis, store.prefix, settings["policy"]))}


def _api() -> list:
    from arena.api import BLUEPRINTS  # Flask: only when an app is built
    from arena.api_check import checks_blp
    return [*BLUEPRINTS, checks_blp]


def _pages() -> list:
    from arena.web import blp  # leaderboards, tournaments, bots, the bot protocol
    return [blp]


def arena_parts(inline: bool = False, loopback: bool = False) -> Plugin:
    """The arena plug-in without its commands; `inline` finishes matches in the thread that
    ended them instead of queueing a job, `loopback` lets bots be on this machine (the offline
    commands and the benchmarks)."""
    return Plugin(name="arena", settings=_settings_for(loopback), drivers=_drivers,
                  attach=lambda service, _settings: Arena(service, inline=inline),
                  api=_api, pages=_pages, problems=PROBLEMS)
