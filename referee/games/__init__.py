"""The registry of shipped games: adding a game is one entry in GAMES."""

from __future__ import annotations

from referee.core.registry import Registry
from referee.games import yinzi_ming

GAMES = Registry([
    # one entry per game, e.g. dschunke.GAME
    yinzi_ming.GAME,
])


def get_game(name: str):
    """The registered game called `name`; raises UnknownGame."""
    return GAMES.get(name)
