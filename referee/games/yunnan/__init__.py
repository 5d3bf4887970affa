"""Yunnan (Second Edition): the rules engine, with the expert rules and the Dúlì automaton."""

from referee.games.yunnan.game import GAME, Yunnan

__all__ = ["GAME", "Yunnan"]
