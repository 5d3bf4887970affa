"""Plain data the engine and games exchange: pending decisions and outcomes."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


@dataclass(frozen=True)
class Decision:
    """A decision one seat must take now.

    `kind` names the decision (`bid`, `action`, ...); `move_types` lists the move `type`s it
    accepts; `sealed` marks a simultaneous secret choice whose moves stay hidden from the other
    seats until the game resolves them; `prompt` is JSON-able context for the seat.
    """

    seat: int
    kind: str
    move_types: tuple[str, ...]
    sealed: bool = False
    prompt: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        """The decision as plain data."""
        return {"seat": self.seat, "kind": self.kind, "move_types": list(self.move_types),
                "sealed": self.sealed, "prompt": self.prompt}


class Termination(str, Enum):
    """How a match ended."""

    RULES = "rules"            # the game's own end condition
    FORFEIT = "forfeit"        # a seat forfeited (arena failure policy); the rest played out
    ABORTED = "aborted"        # stopped by the service (infrastructure failure); never rated
    MOVE_CAP = "move_cap"      # the match reached its move cap; adjudicated by the standing


@dataclass(frozen=True)
class Outcome:
    """The result of a finished match: a score and a rank (1 = best, ties share) per seat."""

    scores: tuple[int | float, ...]  # ints where the game counts points (all three do)
    ranks: tuple[int, ...]
    termination: Termination = Termination.RULES
    details: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        """The outcome as plain data."""
        return {"scores": list(self.scores), "ranks": list(self.ranks),
                "termination": self.termination.value, "details": self.details}

    @classmethod
    def from_dict(cls, data: dict) -> "Outcome":
        """Rebuild an outcome from `to_dict` output."""
        return cls(tuple(data["scores"]), tuple(data["ranks"]),
                   Termination(data["termination"]), dict(data.get("details", {})))


def ranks_from_keys(keys: list) -> tuple[int, ...]:
    """Competition ranks (1 = best) from sortable keys, higher is better; equal keys tie."""
    ordered = sorted(keys, reverse=True)
    return tuple(1 + ordered.index(k) for k in keys)
