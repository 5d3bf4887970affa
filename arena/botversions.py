"""Bot versions (issue 43): a new URL or build registered under an existing bot is version
n+1 of it.

A version is a bot record of its own (its own id, secret and pinned address: records never
change once registered, and every match names the version it seated, so a match's log says
which build played). The versions of one bot form its family, listed under
`<prefix>:bot:<first id>:versions`, oldest first; the last is the current one. A new version
keeps the bot's name, games, owner and openness; old versions stay registered and in the
history (their matches, their leaderboard rows, marked `superseded_by`).

Rating carry, chosen per version (`rating_carry`):
- `inflate` (the default): the new version starts from the previous version's mu, with
  sigma inflated to sqrt(sigma^2 + (default sigma / 2)^2), at most the default sigma: it
  ranks near where the bot was, and its first matches move it quickly.
- `fresh`: the new version starts from the default rating, as a new bot would.
The carry happens when the version's first rated result is applied (the result says what
to carry from, `carry`; arena/ratings.inflated), so folding the applied results again gives the same table.
"""

from __future__ import annotations

from arena.netguard import split_url

CARRIES = ("inflate", "fresh")


class BotVersions:
    """The versions of registered bots (over a BotRegistry)."""

    def __init__(self, bots):
        self.bots = bots

    def _list_key(self, family: str) -> str:
        return self.bots._key(family, "versions")

    def family_of(self, bot: dict) -> str:
        """The id of the bot's first version."""
        return bot.get("family") or bot["id"]

    def ids(self, bot_id: str) -> list[str]:
        """Every version's id, oldest first (a bot never versioned: itself)."""
        family = self.family_of(self.bots.get(bot_id))
        return list(self.bots.redis.lrange(self._list_key(family), 0, -1)) or [family]

    def add(self, bot_id: str, url: str | None, build: str | None, carry: str,
            known_games) -> dict:
        """Register version n+1 of the bot at `url` (default: the current version's URL,
        a new build behind it); returns the new record with its secret."""
        versions = self.ids(bot_id)
        current = self.bots.get(versions[-1])
        url = url or current["url"]
        same_url = _canonical(url) == _canonical(current["url"])
        new = self.bots.register(
            current["name"], url, current["games"], current.get("owner"), known_games,
            open_=self.bots.is_open(current["id"]), once=not same_url,
            extra={"family": self.family_of(current), "version": len(versions) + 1,
                   "previous": current["id"], "build": (build or "")[:200],
                   "rating_carry": carry})
        pipe = self.bots.redis.pipeline()
        if len(versions) == 1:
            pipe.rpush(self._list_key(versions[0]), versions[0])
        pipe.rpush(self._list_key(versions[0]), new["id"])
        if same_url:   # the URL now names the new version
            pipe.hset(f"{self.bots.prefix}:bot-urls", _canonical(url), new["id"])
        pipe.execute()
        return new

    def listing(self, bot_id: str) -> dict:
        """The family: its id, the current version's id, every version (id, version, build,
        url, rating_carry, registered_at)."""
        versions = self.bots.get_many(self.ids(bot_id))
        return {"family": versions[0]["id"], "current": versions[-1]["id"],
                "versions": [{"id": v["id"], "version": v.get("version", 1),
                              "build": v.get("build", ""), "url": v["url"],
                              "rating_carry": v.get("rating_carry"),
                              "registered_at": v.get("registered_at")} for v in versions]}

    def carry_of(self, entrants: list[str]) -> dict:
        """Entrant -> the previous version to carry a rating from (`inflate` versions)."""
        found = {}
        for entrant in entrants:
            if ":" in entrant:   # builtins and remote seats have no versions
                continue
            bot = self.bots.get(entrant)
            if bot.get("previous") and bot.get("rating_carry", "inflate") == "inflate":
                found[entrant] = bot["previous"]
        return found

    def annotate(self, rows: list[dict]) -> None:
        """Add version and superseded_by (None for the current version) to leaderboard rows."""
        for row in rows:
            if ":" in row["entrant"]:
                row["version"], row["superseded_by"] = None, None
                continue
            try:
                bot = self.bots.get(row["entrant"])
            except Exception:   # a record gone from the store: shown as is
                row["version"], row["superseded_by"] = None, None
                continue
            ids = self.ids(bot["id"])
            row["version"] = bot.get("version", 1)
            row["superseded_by"] = ids[-1] if ids[-1] != bot["id"] else None


def _canonical(url: str) -> str:
    return "%s://%s:%d%s" % split_url(url)
