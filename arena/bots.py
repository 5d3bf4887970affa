"""Registered bots in Redis: identity, signing secret, and health figures."""

from __future__ import annotations

import json
import secrets
import time

from arena.botclient import InvalidBotUrl, call, check_url
from arena.errors import BotNotFound, BotRejected
from arena.protocol import API_VERSION

HEALTH_TIMEOUT_S = 5.0
LATENCY_SAMPLES = 1000
FAILURE_KINDS = {"bot.timeout": "timeouts", "bot.unreachable": "crashes",
                 "bot.http_error": "crashes", "bot.bad_response": "bad_responses",
                 "bot.illegal_move": "illegal_moves", "bot.stalling": "stalls"}
"""Which health counter each failure code counts towards."""


class BotRegistry:
    """Bots under `<prefix>:bot:<id>`; stats in a hash, latencies in a capped list."""

    def __init__(self, redis, prefix: str):
        self.redis, self.prefix = redis, prefix
        self._cache: dict[str, dict] = {}  # bot records never change once registered

    def _key(self, bot_id: str, part: str = "") -> str:
        return f"{self.prefix}:bot:{bot_id}{':' + part if part else ''}"

    def register(self, name: str | None, url: str, games: list, owner: str | None,
                 known_games) -> dict:
        """Health-check `GET /` and store the bot; returns it with its secret."""
        try:
            url = check_url(url)
        except InvalidBotUrl as err:
            raise BotRejected(str(err), reason="url") from err
        info = health_check(url)
        claimed = info.get("games")
        unknown = [g for g in games if g not in known_games]
        if unknown:
            raise BotRejected(f"unknown games {unknown}; games are {list(known_games)}",
                              reason="games")
        if isinstance(claimed, list) and claimed and not set(games) <= set(claimed):
            raise BotRejected(f"the bot says it plays {claimed}, not all of {games}",
                              reason="games")
        bot = {"id": "b" + secrets.token_hex(6), "name": name or str(info.get("name") or url),
               "url": url, "games": list(games), "owner": owner or "",
               "author": str(info.get("author", "")), "info": info,
               "registered_at": time.time(),
               "secret": "bs_" + secrets.token_urlsafe(32)}  # never starts with "-"
        pipe = self.redis.pipeline()
        pipe.set(self._key(bot["id"]), json.dumps(bot))
        pipe.zadd(f"{self.prefix}:bots", {bot["id"]: bot["registered_at"]})
        pipe.execute()
        return bot

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

    def ids(self) -> list[str]:
        """Every bot id, oldest first."""
        return list(self.redis.zrange(f"{self.prefix}:bots", 0, -1))

    def public(self, bot: dict) -> dict:
        """The bot as others may see it: no secret, plus its health figures."""
        return {k: v for k, v in bot.items() if k != "secret"} | {"health": self.health(bot["id"])}

    # -- health figures -------------------------------------------------------------------

    def record_move(self, bot_id: str, latency_ms: float, failure: dict | None,
                    match_id: str, version: int) -> None:
        """Count one request to the bot: its latency and, if it failed, why."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.hincrby(self._key(bot_id, "stats"), "moves", 1)
        pipe.lpush(self._key(bot_id, "lat"), round(latency_ms, 3))
        pipe.ltrim(self._key(bot_id, "lat"), 0, LATENCY_SAMPLES - 1)
        if failure is not None:
            self._failure(pipe, bot_id, failure, match_id, version)
        pipe.execute()

    def record_failure(self, bot_id: str, failure: dict, match_id: str, version: int) -> None:
        """Count a failure found after the bot answered (an illegal move)."""
        pipe = self.redis.pipeline(transaction=False)
        self._failure(pipe, bot_id, failure, match_id, version)
        pipe.execute()

    def _failure(self, pipe, bot_id, failure, match_id, version) -> None:
        pipe.hincrby(self._key(bot_id, "stats"), FAILURE_KINDS.get(failure["code"], "other"), 1)
        pipe.set(self._key(bot_id, "last_error"), json.dumps({
            **failure, "match": match_id, "version": version, "at": time.time(),
            "log": f"/v1/matches/{match_id}/log"}))

    def record_match(self, bot_id: str) -> None:
        """Count a finished match the bot played."""
        self.redis.hincrby(self._key(bot_id, "stats"), "matches", 1)

    def health(self, bot_id: str) -> dict:
        """Matches, moves, failures by kind, latency p50/p95, and the last error."""
        stats = {k: int(v) for k, v in self.redis.hgetall(self._key(bot_id, "stats")).items()}
        samples = sorted(float(x) for x in self.redis.lrange(self._key(bot_id, "lat"), 0, -1))
        last = self.redis.get(self._key(bot_id, "last_error"))
        figures = {k: stats.get(k, 0) for k in ("matches", "moves", "timeouts", "crashes",
                                                "bad_responses", "illegal_moves", "stalls")}
        figures["latency_ms"] = {"p50": _pct(samples, 0.50), "p95": _pct(samples, 0.95),
                                 "samples": len(samples)}
        figures["last_error"] = json.loads(last) if last else None
        return figures


def health_check(url: str) -> dict:
    """`GET /` of the bot: it must answer JSON with apiversion 1; returns that JSON."""
    reply = call(url, "/", None, None, HEALTH_TIMEOUT_S)
    if reply.failure is not None:
        raise BotRejected(f"the bot's GET / failed: {reply.failure['code']}",
                          reason="health", failure=reply.failure)
    info = reply.body
    if not isinstance(info, dict) or str(info.get("apiversion")) != API_VERSION:
        raise BotRejected(f"the bot's GET / must answer JSON with \"apiversion\": "
                          f"\"{API_VERSION}\", got {str(info)[:200]}", reason="health")
    return info


def _pct(samples: list, q: float):
    if not samples:
        return None
    return round(samples[min(len(samples) - 1, int(q * len(samples)))], 2)
