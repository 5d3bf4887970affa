"""One-line position notations: a game state as a short text, read back exactly (no I/O).

A game's notation (`referee/games/<game>/notation.py`) is its state schema read in order, as
FEN reads a chess position in a fixed order: the text names no field, only values, so it is a
few hundred characters where the state's JSON is thousands. `Notation(tag, schema)` derives
the writer and the reader from the schema once:

- a record (an object with fixed, required fields) is `(v1,v2,...)` in the schema's field
  order; a mapping whose keys are all fixed and required is `(v1,...)` in the keys' order,
  any other mapping `{key:value,...}` in the state's own order;
- a list is `[v1,v2,...]`; null is `~`; a boolean `1` or `0`; an integer in decimal (any
  size: a 63-bit seed is exact); a string as it is, its characters outside
  `A-Z a-z 0-9 _ . - ! * ; = + @ $ / ? & ^ | < > #` as `%XX` (UTF-8), and `""` if empty;
- a value of a list the schema fixes (an `enum`, or the keys a mapping may have) is the
  initials of its words (`extra_take_white` is `etw`, `white` is `w`) when no two values of
  that list share them, else as a string; the full name is read too;
- where the schema allows several kinds of object (`oneOf`), one letter says which: `a` the
  first non-null branch, `b` the second...;
- a value the schema leaves free (an object of any fields) is `'` and its JSON, escaped.

The text is `<tag>:<value of the state>`, so a position of another game is refused at once.
Reading checks only the syntax (the character where it breaks); what the values mean is
checked by the game's `from_dict`, whose errors name the state field (`$.seats[1].cash`).
"""

from __future__ import annotations

from referee.core.errors import InvalidState
from referee.core.notation_codec import Reader, build, compile_codec, escape, unescape

__all__ = ["GRAMMAR", "Notation", "escape", "unescape"]

GRAMMAR = ("`<tag>:` then the state's value, its fields in the state schema's order and "
           "unnamed: a record (fixed fields, or a mapping whose keys are all fixed) is "
           "`(v1,v2,...)`; any other mapping `{key:value,...}`; a list `[v1,...]`; null `~`; "
           "a boolean `1`/`0`; an integer in decimal (any size); a string as it is, characters "
           "outside A-Z a-z 0-9 _ . - ! * ; = + @ $ / ? & ^ | < > # as %XX (UTF-8), `\"\"` if "
           "empty; a value from a list the schema fixes (an enum, or a mapping's possible keys) "
           "as the initials of its words (extra_take_white: etw, white: w) when no two in "
           "that list share them, else in full (the full name is read too); where the "
           "schema has several kinds of object (oneOf) a letter first (a: "
           "the first non-null kind, b: the second...); a value the schema leaves free: `'` "
           "and its JSON, escaped alike.")
"""The notation's rules in one paragraph (served with each game's state schema)."""


class Notation:
    """A game's position notation: `encode(state data) -> text`, `decode(text) -> data`."""

    def __init__(self, tag: str, schema: dict):
        self.tag, self.schema = tag, schema
        self._write, self._read = build(schema)
        # the same notation compiled (what every encode and decode runs first); the closures
        # decide wherever the compiled code stops, so they alone say what a broken text is
        self._fast_write, self._fast_read = compile_codec(schema)

    def encode(self, data) -> str:
        """The one-line text of a state (its `to_dict` form without a chance record)."""
        try:
            return f"{self.tag}:{self._fast_write(data)}"
        except Exception:  # noqa: BLE001 - data off the schema: the closures raise their error
            pass
        out: list = [self.tag, ":"]
        self._write(data, out)
        return "".join(out)

    def decode(self, text: str):
        """The state data a text describes (syntax checked; meaning is `from_dict`'s)."""
        if not isinstance(text, str) or not text.startswith(self.tag + ":"):
            raise InvalidState(f"a {self.tag} position starts with '{self.tag}:'",
                               path="position[0]")
        try:
            return self._fast_read(text, len(self.tag) + 1)
        except Exception:  # noqa: BLE001 - not read as the closures would: they read it
            pass
        reader = Reader(text, len(self.tag) + 1)
        value = self._read(reader)
        if reader.at != len(text):
            raise reader.fail("the end of the position")
        return value
