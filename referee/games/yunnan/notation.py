"""Yunnan's state described field by field, and its one-line position notation (no I/O).

A position is `yunnan:` and the state's fields in `SCHEMA`'s order, written as
`referee.core.notation` says: the complete state, the hidden order of Dúlì's draw pile and
the seed included, so a check can go on from it exactly. Unlike the views, the state names
provinces and gorges by index (provinces from 0, Yunnan, up the Tea Horse Road; gorges in
the board's order).
"""

from __future__ import annotations

from referee.core.notation import Notation
from referee.core.statedoc import described
from referee.games.yunnan import described as views_described
from referee.games.yunnan import state

_PROVINCE = "(a province index: 0 Yunnan, up the Tea Horse Road)"
FIELDS = {
    "seed": "the match seed (an integer up to 2^63): what the turn order and Dúlì's "
            "shuffles were drawn from; hidden from every seat while the match runs",
    "horse": f"one entry per seat: the province its horse has reached {_PROVINCE}",
    "bridges": "one entry per participant: the gorges bridged (gorge indexes)",
    "guards": f"one entry per seat: where its Guards marker protects this round "
              f"{_PROVINCE}, or null",
    "blocker": "the gorge (index) blocked by the Gorge Blocker this round, or null",
    "journey": "the actor's journey under way, or null",
    "journey.at": f"the province the trader is in {_PROVINCE}",
    "journey.visited": "the provinces (indexes) it entered on this journey, in order",
    "displace_at": f"the province where the actor may displace now {_PROVINCE}, or null",
    "duli_cards": "Dúlì's cards (2 players), or null",
    "duli_cards.deck": "her draw pile, face down, in the order it will be turned (hidden)",
}
SCHEMA = described(state.SCHEMA, FIELDS, views_described.view_schema(spectator=True))
"""The state's JSON Schema, every field described (GET /v1/games/yunnan/state-schema)."""

NOTATION = Notation("yunnan", SCHEMA)
"""The position notation."""
