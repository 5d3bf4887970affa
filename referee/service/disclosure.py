"""What each caller may see of a match: hidden moves, failure records, the seed.

- Moves hidden from a viewer (sealed, or redacted by the game) stay hidden while the match runs.
- A failure record (a bot's illegal move with the rules' message, what a bot sent, a forfeit)
  shows only its `code` (and, by the entry, its seat) while the match runs, except to a caller
  who may see that seat's private details (`MatchService.may_see_seat`); everyone sees it all
  once the match is over.
- The seed and its salt are shown once the match and every match sharing its seed are over
  (referee/service/seeds.py); the commitment is shown from creation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.service.seeds import FORMULA


@dataclass(frozen=True)
class Caller:
    """Who reads a match: the seat whose token came with the request (or None), and whatever
    an access plug-in's request hook established (`principal`, e.g. an account)."""

    seat: int | None = None
    principal: Any = None


def public_failure(failure: dict) -> dict:
    """The part of a failure record anyone may see while the match runs: its code."""
    return {"code": failure.get("code")}


def redact_entry(game, entry: dict, viewer: int | None, may_see_failure: bool) -> dict:
    """A log entry as `viewer` may see it while the match runs."""
    if "failure" in entry and not may_see_failure:
        entry = {**entry, "failure": public_failure(entry["failure"])}
    if entry["seat"] == viewer:
        return entry
    if entry.get("sealed"):
        return {**entry, "move": None, "hidden": True}
    shown = game.redact_move(entry["move"], entry["seat"], viewer)
    return {**entry, "move": shown, "hidden": True} if shown is None else {**entry, "move": shown}


def seed_record(meta, revealed: bool) -> dict:
    """The seed's commitment, and the seed and salt once revealed."""
    return {"commitment": meta.seed_commitment or None, "formula": FORMULA,
            "group": meta.seed_group or None, "revealed": revealed,
            "seed": meta.seed if revealed else None,
            "salt": (meta.seed_salt or None) if revealed else None}
