"""What the bot thought (issue 43): a short `debug` text a bot may send with each move.

A /move answer may be `{"move": {...}, "debug": "..."}`. The text is kept apart from the
match (`<prefix>:debug:<match id>`, one entry per move: version, seat, bot, text), never in
the move, the log or any view, so no other seat's bot is sent it and no public record shows
it. At most DEBUG_BYTES bytes of UTF-8 are kept; a longer text is cut there (on a character
boundary), with `truncated: true` and the length it had (`bytes`). Anything but a string is
ignored.

Who sees it: the owner of the seat's bot, while the match runs and after; once the match is
over, everyone too if the bot's owner allowed it (`debug_public`, a bot setting, default
off). Nobody else, organisers included: it is the bot author's own notebook.
"""

from __future__ import annotations

import json

from referee.service.store import match_key

DEBUG_BYTES = 1024


def debug_text(body) -> dict | None:
    """The debug entry of a /move answer (text, truncated, bytes), or None if it has none."""
    text = body.get("debug") if isinstance(body, dict) else None
    if not isinstance(text, str) or not text:
        return None
    raw = text.encode("utf-8", "replace")
    if len(raw) <= DEBUG_BYTES:
        return {"text": text, "truncated": False, "bytes": len(raw)}
    cut = raw[:DEBUG_BYTES].decode("utf-8", "ignore")   # a split character is dropped
    return {"text": cut, "truncated": True, "bytes": len(raw)}


class DebugTexts:
    """Debug texts per match, and each bot's `debug_public` setting, in Redis."""

    def __init__(self, redis, prefix: str):
        self.redis, self.prefix = redis, prefix

    def _key(self, match_id: str) -> str:
        # named as every per-match key is (the match's hash tag), beside its other parts
        return match_key(self.prefix, match_id, "debug")

    def _public_key(self, bot_id: str) -> str:
        return f"{self.prefix}:bot:{bot_id}:debug_public"

    def keep(self, match_id: str, version: int, seat: int, bot_id: str, body) -> None:
        """Keep the debug text of the answer for the move asked at `version` (if any)."""
        entry = debug_text(body)
        if entry is not None:
            self.redis.hset(self._key(match_id), str(version),
                            json.dumps({"version": version, "seat": seat, "bot": bot_id,
                                        **entry}))

    def entries(self, match_id: str) -> list[dict]:
        """Every kept entry of the match, in move order."""
        raws = self.redis.hvals(self._key(match_id))
        return sorted((json.loads(r) for r in raws), key=lambda e: e["version"])

    def set_public(self, bot_id: str, public: bool) -> None:
        """The owner's choice: may everyone read this bot's debug texts once a match is over."""
        if public:
            self.redis.set(self._public_key(bot_id), "1")
        else:
            self.redis.delete(self._public_key(bot_id))

    def is_public(self, bot_id: str) -> bool:
        """Whether the bot's owner lets everyone read its debug texts after a match."""
        return bool(self.redis.exists(self._public_key(bot_id)))

    def visible(self, match_id: str, over: bool, caller_id: str | None, owner_of) -> list:
        """The entries `caller_id` may read: its own bots' always; after the match, those of
        bots whose owner made them public. `owner_of(bot id)` names a bot's owner."""
        shown, public = [], {}
        for entry in self.entries(match_id):
            bot = entry["bot"]
            mine = caller_id is not None and owner_of(bot) == caller_id
            if not mine and over and bot not in public:
                public[bot] = self.is_public(bot)
            if mine or (over and public.get(bot)):
                shown.append(entry)
        return shown
