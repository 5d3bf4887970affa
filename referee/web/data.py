"""What the pages show, read from the match service: summaries, move lists in words, and the
spectator's view at any version of a finished match (rebuilt from its log by the engine)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from functools import lru_cache

from flask import current_app

from referee.core import engine
from referee.web.boards import Context

ACTIVE = "active"
SCAN = 200
"""How many of the newest matches the home page looks through."""


def service():
    """The MatchService this app serves."""
    return current_app.extensions["referee"]


@lru_cache(maxsize=None)
def renderer(game: str):
    """The client library's renderer of `game` (its moves in words)."""
    from referee_client.render import renderer_for  # the words live once, in the client kit

    return renderer_for(game, service().games.get(game).spec.to_dict())


def move_words(game: str, entry: dict) -> str:
    """A log entry's move in words; a hidden one says so."""
    if entry.get("hidden") and entry.get("move") is None:
        return "a sealed move (hidden until revealed)" if entry.get("sealed") else "a hidden move"
    try:
        return renderer(game).move(entry["move"])
    except Exception:  # a renderer that does not know a move still leaves the list readable
        return " ".join(f"{k}={v}" for k, v in entry["move"].items())


def tables(game) -> dict:
    """The game's printed tables (board()), or none if it publishes none yet."""
    board = getattr(game, "board", None)
    return board() if callable(board) else {}


def context(summary: dict, viewer) -> Context:
    """The drawing context of a match summary."""
    game = service().games.get(summary["game"])
    return Context(seats=summary["seats"], viewer=viewer, tables=tables(game))


def match_lists() -> tuple[list, list]:
    """(matches being played now, recent results) among the newest matches, as summaries."""
    svc, live_now, done = service(), [], []
    for meta, live in svc.load_many(svc.store.list_ids(0, SCAN)):   # a removed one is left out
        row = {"id": meta.id, "game": meta.game, "status": live.status, "version": live.version,
               "seats": meta.seats, "result": live.result, "created_at": meta.created_at,
               "labels": meta.labels}
        (live_now if live.status == ACTIVE else done).append(row)
    return live_now[:30], done[:30]


def log_entries(match_id: str, game: str, viewer) -> list[dict]:
    """The match's moves as the viewer may see them, each with its words."""
    record = service().log(match_id, viewer)
    return [{**e, "words": move_words(game, e)} for e in record["moves"]]


class Frames:
    """Spectator views of finished matches, version by version; finished matches never
    change, so the states replayed for the last few are kept."""

    def __init__(self, size: int = 4):
        self.size, self._states, self._lock = size, OrderedDict(), threading.Lock()

    def view(self, svc, meta, version: int, seat: int | None = None) -> dict:
        """The view after `version` moves: the spectator's, or `seat`'s own (callers ask for
        a seat's only of a match that is over: its secrets are no longer secret)."""
        states = self._replayed(svc, meta)
        game = svc.games.get(meta.game)
        return game.view(states[max(0, min(version, len(states) - 1))], seat)

    def _replayed(self, svc, meta) -> list:
        with self._lock:
            if meta.id in self._states:
                self._states.move_to_end(meta.id)
                return self._states[meta.id]
        game = svc.games.get(meta.game)
        _, state = engine.start(game, meta.players, meta.options, meta.seed, meta.chance)
        states = [state]
        for version, entry in enumerate(svc.store.log(meta.id)):
            state, _ = engine.play(game, state, version, entry["seat"], entry["move"])
            states.append(state)
        with self._lock:
            self._states[meta.id] = states
            while len(self._states) > self.size:
                self._states.popitem(last=False)
        return states


FRAMES = Frames()
