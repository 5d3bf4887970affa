"""Registered bots in Redis: identity, signing secret, pinned addresses, and health figures.

Health is public (`GET /v1/bots`): counts, latencies, and the last error as its code, match,
version and time only. Everything else about a failure (what the bot sent, the move, the
rule's message about its illegal move, which can name the bot's hidden cards, limits and
details) is its owner's only: it is kept apart, under
`<prefix>:bot:<id>:private`, and read with `BotRegistry.private`, never by `public`.
"""

from __future__ import annotations

import json
import secrets
import time

from arena import botclient
from arena.botcalls import BotCalls
from arena.bothealth import FAILURE_KINDS, PUBLIC_FAILURE_KEYS, HealthFigures, Tally
from arena.botslots import CallSlots, max_calls_setting
from arena.botstanding import Standing, disable_after_setting
from arena.errors import BotNotFound, BotRejected, BotUrlTaken
from arena.netguard import AddressPolicy, InvalidBotUrl, Target, policy_for, resolve, split_url
from arena.protocol import API_VERSION

HEALTH_TIMEOUT_S = 5.0
SECRET_GRACE_S = 600
"""After a re-key the old secret stays valid this long (10 minutes): a call the bot refuses
(401/403) is signed again once with the old secret, so a bot restarted with its new secret a
few minutes late forfeits nothing."""

__all__ = ["FAILURE_KINDS", "PUBLIC_FAILURE_KEYS", "BotRegistry", "health_check"]


class BotRegistry(HealthFigures, BotCalls):
    """Bots under `<prefix>:bot:<id>`; stats in a hash, latencies in a capped list."""

    def __init__(self, redis, prefix: str, policy: AddressPolicy | None = None,
                 max_calls: int | None = None, disable_after: int | None = None):
        """`policy` says which addresses bots may have; by default only public ones plus
        $REFEREE_BOT_ALLOW (whoever builds the registry for the embedded default passes
        one that allows loopback). `max_calls` caps each bot's calls in flight (default
        $REFEREE_BOT_MAX_CALLS or 8); `disable_after` failed matches in a row disable a bot
        (default $REFEREE_BOT_DISABLE_AFTER or 5)."""
        self.redis, self.prefix = redis, prefix
        self.policy = policy if policy is not None else policy_for(embedded=False)
        self.slots = CallSlots(redis, lambda b: self._key(b, "calls"),
                               max_calls if max_calls is not None else max_calls_setting())
        self.standing = Standing(redis, self._key, disable_after if disable_after is not None
                                 else disable_after_setting())
        self._cache: dict[str, dict] = {}  # bot records never change once registered
        self._targets: dict = {}           # (url, addresses) -> (policy, checked Target)
        self._secrets: dict = {}           # bot id -> the secret its last call was signed with
        self.tally = Tally()

    def _key(self, bot_id: str, part: str = "") -> str:
        return f"{self.prefix}:bot:{bot_id}{':' + part if part else ''}"

    def register(self, name: str | None, url: str, games: list, owner: str | None,
                 known_games, open_: bool = False, once: bool = True,
                 extra: dict | None = None) -> dict:
        """Resolve and check the address, health-check `GET /`, and store the bot (belonging
        to the account `owner`) with the address pinned; returns it with its secret. A URL is
        registered once (`once=False`: the offline commands and benchmarks, which seat one
        URL as several entrants, skip that); `extra`: fields stored with it (a version's, see
        arena/botversions.py). Raises UrlRefused, BotRejected, BotUrlTaken."""
        try:
            canonical = "%s://%s:%d%s" % split_url(url)
        except InvalidBotUrl as err:
            raise BotRejected(str(err), reason="url") from err
        url = url.rstrip("/")
        if once:
            self._refuse_taken(canonical)
        target = resolve(url, self.policy)
        info = health_check(target)
        claimed = info.get("games")
        unknown = [g for g in games if g not in known_games]
        if unknown:
            raise BotRejected(f"unknown games {unknown}; games are {list(known_games)}",
                              reason="games")
        if isinstance(claimed, list) and claimed and not set(games) <= set(claimed):
            raise BotRejected(f"the bot says it plays {claimed}, not all of {games}",
                              reason="games")
        bot = {"id": "b" + secrets.token_hex(6),
               "name": name or str(info.get("name") or url)[:200],
               "url": url, **target.pin(), "games": list(games), "owner": owner or "",
               "author": str(info.get("author", ""))[:200], "info": _described(info),
               "registered_at": time.time(),
               "secret": "bs_" + secrets.token_urlsafe(32),  # never starts with "-"
               **(extra or {})}
        # claimed atomically: of two registrations of one URL racing, one gets 409
        if once and not self.redis.hsetnx(f"{self.prefix}:bot-urls", canonical, bot["id"]):
            self._refuse_taken(canonical)
        pipe = self.redis.pipeline()
        pipe.set(self._key(bot["id"]), json.dumps(bot))
        pipe.zadd(f"{self.prefix}:bots", {bot["id"]: bot["registered_at"]})
        if open_:
            pipe.set(self._key(bot["id"], "open"), "1")
        pipe.execute()
        return bot

    def _refuse_taken(self, canonical: str) -> None:
        taken = self.redis.hget(f"{self.prefix}:bot-urls", canonical)
        if taken:
            raise BotUrlTaken(f"a bot with that URL is registered already ({taken}); its owner "
                              f"can change it, nobody registers it twice", bot=str(taken))

    def secret_of(self, bot: dict) -> str | None:
        """The secret our requests to the bot are signed with: the latest re-key's, read from
        the store every time (records are cached per process, a re-key must reach every
        worker at once), else the one it was registered with."""
        return self.redis.get(self._key(bot["id"], "secret")) or bot.get("secret")

    def rekey(self, bot_id: str) -> str:
        """A new signing secret for the bot (its owner asked); the old one stays valid for
        SECRET_GRACE_S (kept under `:secret-old`, tried once when the bot refuses a call)."""
        old = self.secret_of(self.get(bot_id))
        secret = "bs_" + secrets.token_urlsafe(32)
        pipe = self.redis.pipeline()
        if old:
            pipe.set(self._key(bot_id, "secret-old"), old, ex=SECRET_GRACE_S)
        pipe.set(self._key(bot_id, "secret"), secret)
        pipe.execute()
        return secret

    def old_secret(self, bot_id: str) -> str | None:
        """The secret before the last re-key while its grace period lasts, else None."""
        return self.redis.get(self._key(bot_id, "secret-old"))

    def retire(self, bot_id: str) -> None:
        """Delete a bot for its owner: off the list, its URL free to register again, refused
        for new matches; its record stays for the logs of matches it played."""
        bot = self.get(bot_id)
        scheme, host, port, path = split_url(bot["url"])
        canonical = "%s://%s:%d%s" % (scheme, host, port, path)
        pipe = self.redis.pipeline()
        pipe.zrem(f"{self.prefix}:bots", bot_id)
        if self.redis.hget(f"{self.prefix}:bot-urls", canonical) == bot_id:
            pipe.hdel(f"{self.prefix}:bot-urls", canonical)
        pipe.execute()
        self.standing.disable(bot_id, "deleted by its owner")

    def is_open(self, bot_id: str) -> bool:
        """Whether the bot's owner lets other accounts seat it (open to challenges)."""
        return bool(self.redis.exists(self._key(bot_id, "open")))

    def set_open(self, bot_id: str, open_: bool) -> None:
        """The owner's setting: may other accounts seat this bot? (Kept apart from the record,
        which processes cache.)"""
        if open_:
            self.redis.set(self._key(bot_id, "open"), "1")
        else:
            self.redis.delete(self._key(bot_id, "open"))

    def add(self, bot: dict) -> None:
        """Store a bot record as is (used by offline runs with ad-hoc URLs)."""
        self.redis.set(self._key(bot["id"]), json.dumps(bot))
        self.redis.zadd(f"{self.prefix}:bots", {bot["id"]: bot.get("registered_at", 0)})

    def get(self, bot_id: str) -> dict:
        """The bot record (with secret); raises BotNotFound."""
        cached = self._cache.get(bot_id) if isinstance(bot_id, str) else None
        if cached is not None:
            return cached
        raw = self.redis.get(self._key(bot_id)) if isinstance(bot_id, str) else None
        if raw is None:
            raise BotNotFound(f"no bot {bot_id!r}", bot=str(bot_id))
        bot = self._cache[bot_id] = json.loads(raw)
        return bot

    def get_many(self, bot_ids: list[str]) -> list[dict]:
        """`get` of each bot (the uncached in one round trip); unknown ids are left out."""
        wanted = [b for b in bot_ids if b not in self._cache]
        for bot_id, raw in zip(wanted, self.redis.mget([self._key(b) for b in wanted])
                               if wanted else []):
            if raw is not None:
                self._cache[bot_id] = json.loads(raw)
        return [self._cache[b] for b in bot_ids if b in self._cache]

    def ids(self, offset: int = 0, limit: int | None = None) -> list[str]:
        """Bot ids, oldest first: every one, or `limit` of them after `offset`."""
        end = -1 if limit is None else offset + limit - 1
        return list(self.redis.zrange(f"{self.prefix}:bots", offset, end))

    def count(self) -> int:
        """How many bots are registered."""
        return self.redis.zcard(f"{self.prefix}:bots")

    def public(self, bot: dict) -> dict:
        """The bot as others may see it: no secret, no pinned address, its health figures."""
        return self.public_many([bot])[0]

    def public_many(self, bots: list[dict]) -> list[dict]:
        """`public` of each bot, in two round trips for all (a page of 200 took 1,400)."""
        hidden = ("secret", "addresses")
        pipe = self.redis.pipeline(transaction=False)
        for bot in bots:
            pipe.exists(self._key(bot["id"], "open"))
        opens = pipe.execute() if bots else []
        healths = self.health_many([bot["id"] for bot in bots])
        return [{k: v for k, v in bot.items() if k not in hidden} |
                {"open": bool(open_), "health": health}
                for bot, open_, health in zip(bots, opens, healths)]

    def private(self, bot_id: str) -> dict:
        """The owner's view of the last failure: everything the bot sent with it (its first
        bytes) and the full record. Only the bot's owner may be shown this."""
        raw = self.redis.get(self._key(bot_id, "private"))
        return {"last_error": json.loads(raw) if raw else None}

    # -- calling ---------------------------------------------------------------------------


def health_check(target: Target) -> dict:
    """`GET /` of the bot: it must answer JSON with apiversion 1; returns that JSON.

    The refusal carries only a code, never what the far end sent; and anything short of an
    HTTP answer (refused, reset, silent, not HTTP) is `bot.unreachable`, so a closed port and
    an open one that is not a bot look alike to whoever registers.
    """
    reply = botclient.call(target, "/", None, None, HEALTH_TIMEOUT_S)
    failure = reply.failure
    if failure is not None:
        if not reply.answered or failure["code"] in ("bot.timeout", "bot.unreachable"):
            failure = {"code": "bot.unreachable"}
        failure = {k: failure[k] for k in ("code", "status", "detail") if k in failure}
        raise BotRejected(f"the bot's GET / failed: {failure['code']}", reason="health",
                          failure=failure)
    info = reply.body
    if not isinstance(info, dict) or str(info.get("apiversion")) != API_VERSION:
        raise BotRejected(f"the bot's GET / must answer a JSON object with \"apiversion\": "
                          f"\"{API_VERSION}\"", reason="health")
    return info


def _described(info: dict) -> dict:
    """What we keep (and list publicly) of a bot's `GET /`: the protocol's fields, short."""
    kept = {k: info[k] for k in ("apiversion", "name", "author", "version") if k in info}
    kept = {k: v if isinstance(v, (int, float, bool)) or v is None else str(v)[:200]
            for k, v in kept.items()}
    games = info.get("games")
    if isinstance(games, list):
        kept["games"] = [str(g)[:100] for g in games[:50]]
    return kept
