"""Time limits and the failure policy of arena matches."""

from __future__ import annotations

from referee.core.errors import InvalidOptions
from referee.service.defaults import MATCH_LIMIT_BOUNDS as BOUNDS
from referee.service.defaults import MATCH_LIMITS as DEFAULTS
from referee.service.defaults import RATED_LIMIT_CEILINGS


def resolve(limits: dict | None, rated: bool = False) -> dict:
    """Defaults filled in and bounds checked (for a rated match, also its ceilings); raises
    InvalidOptions (code limits.invalid)."""
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
    if rated:
        for name, ceiling in RATED_LIMIT_CEILINGS.items():
            if resolved[name] > ceiling:
                raise InvalidOptions(f"a rated match allows {name} up to {ceiling}, got "
                                     f"{resolved[name]}; pass rated=false for longer limits",
                                     code="limits.invalid")
    return resolved
