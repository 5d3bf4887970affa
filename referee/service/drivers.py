"""Seat drivers: who chooses a move for a seat that is not played over the REST API.

A seat's kind is `remote` (its token holder moves through the API), `builtin:<policy>` (the
referee's own bots) or `<prefix>:<ref>` for a driver a plug-in contributes under that prefix
(the arena contributes `bot`, for `bot:<bot id>`: registered bots that answer over HTTP).
Every driver is a `SeatDriver`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field

from referee.core.bots import BUILTIN_BOTS
from referee.service.errors import InvalidSeats

REMOTE = "remote"


@dataclass
class Choice:
    """A driver's answer: a move, or a failure (code + details) and how long it took."""

    move: dict | None = None
    failure: dict | None = None      # {"code": "bot.timeout", ...}; the runner applies the policy
    latency_ms: float | None = None
    clock_ms: float | None = None    # the seat's time bank left after this move, if kept
    extra: dict = field(default_factory=dict)


@dataclass
class Turn:
    """Everything a driver may need to choose a move for one seat."""

    meta: object      # MatchMeta
    live: object      # Live
    game: object      # Game
    state: object     # the game state
    seat: int
    decision: object  # Decision


class SeatDriver(ABC):
    """What the service asks of whoever plays a seat kind `<prefix>:<ref>`: every driver
    subclasses this (the service refuses one that does not, when it is assembled), so its
    optional hooks are declared here with what they do by default, never probed for."""

    replayable: bool = False
    """True when the driver chooses in this process from the turn alone (same turn, same
    choice, no time measured): the runner then commits its moves in batches (batch.py)."""

    @abstractmethod
    def validate(self, ref: str) -> None:
        """Raise InvalidSeats if `ref` names nobody this driver can seat."""

    @abstractmethod
    def describe(self, ref: str) -> dict:
        """Public facts about the seat's player (at least its `name`)."""

    @abstractmethod
    def choose(self, turn: Turn, ref: str) -> Choice:
        """A move (or a failure) for this turn."""

    @abstractmethod
    def rejected(self, ref: str, failure: dict, match_id: str, version: int) -> None:
        """The referee refused what the driver chose (an illegal move, stalling)."""

    def validate_game(self, ref: str, game: str) -> None:
        """Raise (a RefereeError) if `ref` may not be seated in `game` (the arena's bots are
        registered for some games only). Default: any game."""

    def flush(self) -> None:
        """The runner stops: write what the driver kept in memory while it played (the
        arena's bot health figures). Default: nothing kept."""

    def rider(self, turn: Turn, ref: str):
        """A script (scripts.Rider) to send with the commit that stores `turn.live`, when the
        runner will ask this driver for that turn next (the arena takes the bot's call slot
        so, and builds its request while the commit is in flight), or None (the default)."""
        return None

    def seating(self, ref: str) -> tuple | None:
        """(owning account id or None, open to challenges) of the seat's player, for the
        access checks; None (the default) for a driver that keeps no owners."""
        return None


class BuiltinDriver(SeatDriver):
    """The referee's own policies (`builtin:random`), seeded from the match."""

    replayable = True   # a policy is a function of (game, state, seat, seed, version)

    def validate(self, ref: str) -> None:
        """Raise InvalidSeats for an unknown builtin policy."""
        if ref not in BUILTIN_BOTS:
            raise InvalidSeats(f"no builtin bot {ref!r}; builtin bots are {sorted(BUILTIN_BOTS)}")

    def describe(self, ref: str) -> dict:
        """Public facts about the seat's player."""
        return {"name": f"builtin:{ref}"}

    def choose(self, turn: Turn, ref: str) -> Choice:
        """The policy's move for this turn."""
        policy = BUILTIN_BOTS[ref]
        return Choice(policy(turn.game, turn.state, turn.seat, turn.meta.seed, turn.live.version))

    def rejected(self, ref: str, failure: dict, match_id: str, version: int) -> None:
        """Builtin policies keep no record of their failures (they only stall, if ever)."""


def split_kind(kind: str) -> tuple[str, str]:
    """`builtin:random` -> ("builtin", "random"); `remote` -> ("remote", "")."""
    prefix, _, ref = kind.partition(":")
    return prefix, ref
