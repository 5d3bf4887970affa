"""Whether a bot may play: one that forfeits N matches in a row through its own failures is
disabled until its owner re-enables it.

A match counts as failed when the bot's seat forfeited with a `bot.*` failure (timeout,
unreachable, HTTP error, bad response, illegal move, stalling); any other finished match
resets the count. While disabled, the bot is not called (its seats forfeit at once with
`bot.disabled`) and new matches with it are refused (409 `bot.disabled`).
"""

from __future__ import annotations

import json
import os
import time

from referee.core.errors import RefereeError

DISABLE_AFTER_ENV = "REFEREE_BOT_DISABLE_AFTER"
DEFAULT_DISABLE_AFTER = 5


def disable_after_setting(environ=None) -> int:
    """Failed matches in a row that disable a bot, from $REFEREE_BOT_DISABLE_AFTER (default 5;
    0 never disables)."""
    environ = os.environ if environ is None else environ
    return max(0, int(environ.get(DISABLE_AFTER_ENV, DEFAULT_DISABLE_AFTER)))


class BotDisabled(RefereeError):
    """The bot is disabled (failed too many matches in a row); its owner may re-enable it."""

    code = "bot.disabled"
    status = 409


class Standing:
    """The failed-match streak and the disabled flag of bots, under `key_of(bot_id, part)`."""

    def __init__(self, redis, key_of, disable_after: int):
        self.redis, self.key_of, self.disable_after = redis, key_of, disable_after

    def match_ended(self, bot_id: str, forfeit: dict | None) -> None:
        """Count a finished match: a forfeit through a bot.* failure extends the streak, any
        other result ends it; the streak reaching the limit disables the bot."""
        key = self.key_of(bot_id, "failed_streak")
        code = (forfeit or {}).get("code", "")
        if not (isinstance(code, str) and code.startswith("bot.")):
            self.redis.delete(key)
            return
        streak = self.redis.incr(key)
        if self.disable_after and streak >= self.disable_after:
            self.redis.set(self.key_of(bot_id, "disabled"), json.dumps({
                "reason": f"forfeited {streak} matches in a row through its own failures "
                          f"(the last: {code})", "code": code, "at": time.time()}), nx=True)

    def disabled(self, bot_id: str) -> dict | None:
        """Why the bot is disabled, or None while it may play."""
        raw = self.redis.get(self.key_of(bot_id, "disabled"))
        return json.loads(raw) if raw else None

    def check(self, bot_id: str) -> None:
        """Raise BotDisabled if the bot may not play."""
        why = self.disabled(bot_id)
        if why is not None:
            raise BotDisabled(f"bot {bot_id} is disabled: {why['reason']}; its owner can "
                              f"re-enable it with POST /v1/bots/{bot_id}/enable", bot=bot_id)

    def disable(self, bot_id: str, reason: str) -> None:
        """Disable the bot now (an organiser's decision), whatever its streak."""
        self.redis.set(self.key_of(bot_id, "disabled"), json.dumps(
            {"reason": reason, "code": "organiser", "at": time.time()}))

    def enable(self, bot_id: str) -> None:
        """Let the bot play again, with a fresh streak."""
        self.redis.delete(self.key_of(bot_id, "disabled"), self.key_of(bot_id, "failed_streak"))

    def figures(self, bot_id: str) -> dict:
        """The health fields: status (active/disabled), why, and the current streak."""
        pipe = self.redis.pipeline(transaction=False)
        self.read_figures(pipe, bot_id)
        return self.figures_from(pipe.execute())

    FIGURES_READS = 2
    """Replies `read_figures` queues."""

    def read_figures(self, pipe, bot_id: str) -> None:
        """Queue on `pipe` what `figures_from` needs (FIGURES_READS replies)."""
        pipe.get(self.key_of(bot_id, "disabled"))
        pipe.get(self.key_of(bot_id, "failed_streak"))

    @staticmethod
    def figures_from(replies: list) -> dict:
        """`figures` from the replies of `read_figures`."""
        why = json.loads(replies[0]) if replies[0] else None
        return {"status": "disabled" if why else "active", "disabled": why,
                "failed_matches_in_a_row": int(replies[1] or 0)}
