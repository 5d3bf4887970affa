"""Matches and tournaments without any server: the same engine, bot client, runner and log
format as the service, over a private in-process store, driven in this thread."""

from __future__ import annotations

import uuid

from arena.bots import BotRegistry
from arena.netguard import policy_for
from arena.driver import BotDriver
from arena.service import Arena
from referee.service import runner
from referee.service.config import Settings
from referee.service.connection import connect
from referee.service.context import registry_for
from referee.service.matches import MatchService
from referee.service.store import MatchStore


def offline_arena() -> Arena:
    """An arena over a fresh in-process store; nothing is queued, everything runs inline."""
    prefix = f"offline-{uuid.uuid4().hex[:8]}"
    store = MatchStore(connect(None), prefix)
    bots = BotRegistry(store.redis, prefix, policy_for(embedded=True))
    service = MatchService(store, registry_for(Settings(redis_url=None)),
                           drivers={"bot": BotDriver(bots)})
    return Arena(service, inline=True).install()


def seat_for(arena: Arena, game: str, entry: str) -> str:
    """A seat kind for a command-line entry: a bot URL (registered now) or builtin:<name>."""
    if entry.startswith("builtin:"):
        return entry
    bot = arena.bots.register(None, entry, [game], "offline", arena.service.games.names())
    return f"bot:{bot['id']}"


def run_to_end(arena: Arena, match_id: str) -> None:
    """Play every automated seat of the match until it ends."""
    service = arena.service
    while service.store.live(match_id).status == "active":
        if runner.advance(service, match_id) == 0:
            meta, live = service.load(match_id)
            if service.automated_seat(meta, live) is None:
                raise RuntimeError(f"match {match_id} waits for a remote seat offline")
