"""Time limits and the failure policy of arena matches."""

from __future__ import annotations

from referee.core.errors import InvalidOptions

DEFAULTS = {"move_ms": 1000, "bank_ms": 10_000, "start_ms": 5000, "strikes": 0,
            "max_streak": 500}
"""Per-move limit, per-match time bank, /start limit, failures absorbed before a forfeit, and
how many moves in a row a bot may make before it counts as stalling (bot.stalling)."""

BOUNDS = {"move_ms": (10, 120_000), "bank_ms": (0, 3_600_000), "start_ms": (10, 120_000),
          "strikes": (0, 1000), "max_streak": (5, 1_000_000)}


def resolve(limits: dict | None) -> dict:
    """Defaults filled in and bounds checked; raises InvalidOptions (code limits.invalid)."""
    limits = dict(limits or {})
    unknown = sorted(set(limits) - set(DEFAULTS))
    if unknown:
        raise InvalidOptions(f"unknown limit {unknown[0]!r}; limits are {sorted(DEFAULTS)}",
                             code="limits.invalid")
    resolved = {**DEFAULTS, **limits}
    for name, (low, high) in BOUNDS.items():
        value = resolved[name]
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise InvalidOptions(f"{name} must be an integer in [{low}, {high}], got {value!r}",
                                 code="limits.invalid")
    return resolved
