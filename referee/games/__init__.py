"""The registry of shipped games: adding a game is one entry in GAMES."""

from __future__ import annotations

from referee.core.registry import Registry
from referee.games import dschunke, yinzi_ming, yunnan

GAMES = Registry([
    dschunke.GAME,
    yunnan.GAME,
    yinzi_ming.GAME,
])
