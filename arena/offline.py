"""Matches and tournaments without any server: the same engine, bot client, runner and log
format as the service, over a private in-process store, driven in this thread."""

from __future__ import annotations

import uuid

from arena.plugin import arena_plugin
from arena.service import Arena
from referee.root import build_service
from referee.service import runner
from referee.service.config import Settings
from referee.service.store import MatchStatus


def offline_arena() -> Arena:
    """An arena over a fresh in-process store; nothing is queued, everything runs inline."""
    settings = Settings(redis_url=None, key_prefix=f"offline-{uuid.uuid4().hex[:8]}")
    service = build_service(settings, [arena_plugin(inline=True, loopback=True)], queued=False)
    return service.extensions["arena"]


def seat_for(arena: Arena, game: str, entry: str) -> str:
    """A seat kind for a command-line entry: a bot URL (registered now) or builtin:<name>."""
    if entry.startswith("builtin:"):
        return entry
    bot = arena.bots.register(None, entry, [game], "offline", arena.service.games.names())
    return f"bot:{bot['id']}"


def run_to_end(arena: Arena, match_id: str) -> None:
    """Play every automated seat of the match until it ends."""
    service = arena.service
    while service.store.live(match_id).status == MatchStatus.ACTIVE:
        if runner.advance(service, match_id) == 0:
            meta, live = service.load(match_id)
            if service.automated_seat(meta, live) is None:
                raise RuntimeError(f"match {match_id} waits for a remote seat offline")
