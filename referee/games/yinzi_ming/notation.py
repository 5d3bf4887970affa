"""Yinzi: Ming's state described field by field, and its one-line position notation (no I/O).

A position is `yinzi-ming:` and the state's fields in `SCHEMA`'s order, written as
`referee.core.notation` says: the complete state, hidden parts included (every deck's
order, each seat's Order card deck, the seed the future die rolls come from), so a check
can go on from it exactly. The options are written as a record in the game's option order.
"""

from __future__ import annotations

from referee.core.notation import Notation
from referee.core.statecheck import boolean, enum, integer, record
from referee.core.statedoc import described
from referee.games.yinzi_ming import described as views_described
from referee.games.yinzi_ming import state
from referee.games.yinzi_ming.spec import OPTIONS

FIELDS = {
    "seed": "the match seed (an integer up to 2^63): the decks were shuffled and the die is "
            "rolled from it; hidden from every seat while the match runs",
    "options": "the match options, every one resolved",
    "occupants": "per action or field space id with peasants on it: whose and how many",
    "occupants.*.owner": "the seat whose peasants stand there",
    "occupants.*.count": "how many peasants",
    "tiles": "per field id: the crop tile lying on it",
    "covered": "per field id: the workshop tile covering it",
    "seats[].deck": "the seat's Order cards still face down, in the order they will be "
                    "revealed (hidden from everyone)",
    "market_deck": "the market tiles face down, in draw order (hidden)",
    "crop_deck": "the crop tiles face down, in draw order (hidden)",
    "workshop_deck": "the workshop tiles face down, in draw order (hidden)",
    "ship_deck": "the ships face down, in draw order (hidden)",
}
SCHEMA = described(state.SCHEMA, FIELDS, views_described.view_schema(spectator=True))
"""The state's JSON Schema, every field described (GET /v1/games/yinzi-ming/state-schema)."""


def _option(option) -> dict:
    if option.kind == "bool":
        return boolean()
    if option.kind == "choice":
        return enum(*option.choices)
    return integer(option.minimum, option.maximum)


_OPTIONS = record(**{option.name: _option(option) for option in OPTIONS})
NOTATION = Notation("yinzi-ming", {**SCHEMA, "properties": {**SCHEMA["properties"],
                                                             "options": _OPTIONS}})
"""The position notation: the options written by position in the game's option order."""
