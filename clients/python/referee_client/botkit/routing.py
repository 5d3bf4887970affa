"""One bot server for several games: route each request to that game's move function."""

from __future__ import annotations

from typing import Callable, Mapping


def by_game(table: Mapping[str, Callable[[dict], dict]],
            fallback: Callable[[dict], dict] | None = None) -> Callable[[dict], dict]:
    """A move function that calls `table[request["game"]]`, else `fallback` (else raises)."""
    routes = dict(table)

    def choose(request: dict) -> dict:
        chosen = routes.get(request.get("game"), fallback)
        if chosen is None:
            raise LookupError(f"this bot has no strategy for {request.get('game')!r} "
                              f"(it plays {sorted(routes)})")
        return chosen(request)

    choose.games = sorted(routes)  # what the bot can claim in its GET / answer
    return choose
