"""Dschunke's state described field by field, and its one-line position notation (no I/O).

A position is `dschunke:` and the state's fields in `SCHEMA`'s order, written as
`referee.core.notation` says: the complete state, hidden parts included (goods hands, the
market deck's order, the special-card stacks, sealed bids, the face-down merchants), so a
check can go on from it exactly. The stage (what is being decided now) is one of the kinds
of `state.STAGES`, named by a letter in their order (a place_merchant, b place_strip, ...).
"""

from __future__ import annotations

from referee.core.notation import Notation
from referee.core.statedoc import described
from referee.games.dschunke import described as views_described
from referee.games.dschunke import state

_RECORD = ("a special card held: `card` its id, `stack` the stack (0-3) it was taken from, "
           "`at` the moment it was taken (the clock then), `round` the round it was taken "
           "in (0: before play)")
FIELDS = {
    "seed": "the match seed (an integer up to 2^63): what the shuffles and deals were drawn "
            "from; hidden from every seat while the match runs",
    "options": "the match options, every one resolved",
    "options.*": "the option of that name (see the game's options)",
    "start": "the start player's seat this round",
    "market.deck": "the market cards still face down, as indexes into the market table, "
                   "in the order they will be turned (hidden)",
    "market.seen": "the market cards turned so far, in order (the last is `card`)",
    "hidden_merchants": "set-up variant: which merchant each face-down merchant is, in "
                        "merchant order (hidden until revealed); null otherwise",
    "seats[].cards": "special cards in hand, face down (their kind hidden from the others)",
    "seats[].open": "special cards laid open (their effect lasts)",
    "seats[].played": "special cards used and spent",
    "seats[].*[].card": "the special card's id",
    "seats[].*[].stack": "the stack (0-3) it was taken from",
    "seats[].*[].at": "the moment it was taken (the `clock` then)",
    "seats[].*[].round": "the round it was taken in (0: before play)",
    "seats[].looks": "per stack: the moments (clock values) at which this seat looked "
                     "through it (what it saw then stays its knowledge)",
    "seats[].hand": "goods cards in hand, per goods type (hidden from the other seats)",
    "supply": "goods cards in the general supply, per goods type",
    "store": "2-player variant: the general store's goods cards per type; null otherwise",
    "stacks": "the four special-card stacks, each card's id, in stack order (hidden)",
    "clock": "special cards taken so far (each is taken at its own moment)",
    "poker": "the goods poker under way, or null",
    "poker.bids": "per seat: its sealed bid while it is laid (null: no bid, an empty hand)",
    "poker.bids[].steps": "how many goods types the seat has decided on so far",
    "poker.bids[].stake": "goods cards staked so far, per goods type (hidden until revealed)",
    "reveals": "how many goods poker reveals have happened (sealed bids before the n-th are "
               "public)",
    "stage": "what is being decided now: `kind` and that kind's fields (state.STAGES)",
}
SCHEMA = described(state.STATE, FIELDS, views_described.view_schema(spectator=True))
"""The state's JSON Schema, every field described (GET /v1/games/dschunke/state-schema)."""

_ENCODED = {**SCHEMA["properties"], "stage": {"oneOf": list(state.STAGES.values())}}
NOTATION = Notation("dschunke", {**SCHEMA, "properties": _ENCODED})
"""The position notation: the stage written by its kind's own fields."""
