"""Dschunke (Michael Schacht, Queen Games 2002) on the rules core."""

from referee.games.dschunke.game import GAME

__all__ = ["GAME"]
