"""An explicit registry of games: a name -> Game mapping that refuses duplicates."""

from __future__ import annotations

from referee.core.errors import UnknownGame
from referee.core.game import Game


class Registry:
    """Games by name; built from an explicit list (see `referee.games.GAMES`)."""

    def __init__(self, games=()):
        self._games: dict[str, Game] = {}
        for game in games:
            self.add(game)

    def add(self, game: Game) -> None:
        """Register `game`; a second game with the same name is an error."""
        name = game.spec.name
        if name in self._games:
            raise ValueError(f"game {name!r} is registered twice")
        self._games[name] = game

    def get(self, name) -> Game:
        """The game called `name`; raises UnknownGame listing the known ones."""
        game = self._games.get(name) if isinstance(name, str) else None
        if game is None:
            raise UnknownGame(f"no game called {name!r}; games are {sorted(self._games)}",
                              game=name if isinstance(name, str) else None)
        return game

    def names(self) -> list[str]:
        """Registered names, in registration order."""
        return list(self._games)

    def __iter__(self):
        return iter(self._games.values())

    def __contains__(self, name) -> bool:
        return name in self._games

    def __len__(self) -> int:
        return len(self._games)
