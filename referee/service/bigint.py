"""The wire form of integers that may exceed 2^53 (seeds): a string of decimal digits.

JavaScript's JSON.parse rounds integers past 2^53 (a 63-bit seed 7374513755567299596 comes
out 7374513755567299584), so every seed the service writes is a string; it reads a string of
digits always, and a JSON number only where it is exact in every client (at most 2^53).
"""

from __future__ import annotations

import re

from marshmallow import ValidationError, fields

from referee.core.rng import MAX_SEED

SAFE_INT = 2 ** 53
"""Largest JSON number accepted for a big integer: JavaScript's exact integers end here."""

DIGITS = re.compile(r"^(0|[1-9][0-9]{0,18})$")
SEED_DOC = {"type": "string", "pattern": "^(0|[1-9][0-9]{0,18})$"}


def seed_text(seed) -> str | None:
    """A seed as the service writes it: decimal digits (None stays None)."""
    return None if seed is None else str(int(seed))


def parse_seed(value, maximum: int = MAX_SEED) -> int:
    """A seed read from JSON: digits (any size up to `maximum`), or a number up to 2^53."""
    if isinstance(value, str) and DIGITS.match(value):
        number = int(value)
    elif isinstance(value, int) and not isinstance(value, bool):
        if not 0 <= value <= SAFE_INT:
            raise ValidationError(f"a seed above 2^53 must be sent as a string of digits "
                                  f"(JSON numbers past 2^53 are rounded by JavaScript)")
        number = value
    else:
        raise ValidationError("a seed is a string of decimal digits (or a number up to 2^53)")
    if number > maximum:
        raise ValidationError(f"a seed is at most {maximum}")
    return number


class SeedField(fields.Field):
    """A seed: written as a string of digits, read from digits or a small JSON number."""

    def __init__(self, **kwargs):
        metadata = {**SEED_DOC, **kwargs.pop("metadata", {})}
        super().__init__(metadata=metadata, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        return parse_seed(value)

    def _serialize(self, value, attr, obj, **kwargs):
        return seed_text(value)
