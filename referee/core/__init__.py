"""The rules core: the game contract, the generic checks, errors and randomness. No I/O here."""

from referee.core.errors import (IllegalMove, InvalidOptions, InvalidPlayers, InvalidState,
                                 MalformedMove, MatchOver, NotYourTurn, RefereeError,
                                 StaleVersion, UnexpectedMove, UnknownGame)
from referee.core.game import Game
from referee.core.kit import DecisionKind, KitGame, Rule, rule_error
from referee.core.registry import Registry
from referee.core.rng import Rng
from referee.core.spec import GameSpec, MoveKind, OptionSpec
from referee.core.types import Decision, Outcome, Termination, ranks_from_keys

__all__ = [
    "Decision", "DecisionKind", "Game", "GameSpec", "IllegalMove", "InvalidOptions",
    "InvalidPlayers", "InvalidState", "KitGame", "MalformedMove", "MatchOver", "MoveKind", "NotYourTurn",
    "OptionSpec", "Outcome", "RefereeError", "Registry", "Rng", "Rule", "StaleVersion",
    "Termination", "UnexpectedMove", "UnknownGame", "ranks_from_keys", "rule_error",
]
