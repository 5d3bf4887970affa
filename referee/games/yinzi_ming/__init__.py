"""Yinzi: Ming: the rulebook fragment to the letter, completed as seeds/yinzi-ming/rules.md says."""

from referee.games.yinzi_ming.game import GAME, YinziMing

__all__ = ["GAME", "YinziMing"]
