"""A game's state schema and position notation, described for tools (GET
/v1/games/{game}/state-schema): what a `state` or `position` given to a check must hold."""

from __future__ import annotations

from referee.core.game import Game
from referee.core.notation import GRAMMAR
from referee.core.statedoc import field_table
from referee.service.described import _example_state

CONTAINS = ("A state (and its position text) is the complete game: every seat's hidden "
            "part, the decks' orders and the seed included, as the referee keeps it. A "
            "check starts from it exactly; a match's state is never served while the "
            "match runs.")


def describe_state(game: Game) -> dict:
    """The state schema (every field described), the notation's field order and rules, and
    the example position (the one GET /v1/games/{game}'s example views are of)."""
    schema = game.state_schema
    notation = game.notation
    return {
        "game": game.spec.name, "rules_version": game.spec.rules_version,
        "contains": CONTAINS, "schema": schema,
        "position": None if notation is None else {
            "prefix": f"{notation.tag}:", "grammar": GRAMMAR,
            "fields": [{"index": k, "name": name, "description": text}
                       for k, name, text in field_table(schema or notation.schema)],
            "example": game.position(_example_state(game))},
    }
