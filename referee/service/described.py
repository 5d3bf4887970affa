"""A game described completely for players and bots: spec, view schemas with example views,
and the printed material (board tables with their provenance tags).

Examples are views of one deterministic position per game (a random playout from seed 1,
stopped mid-game), computed once per process: the same example every time, and always a view
the engine really produced.
"""

from __future__ import annotations

from functools import lru_cache

from referee.core import engine
from referee.core.bots import random_move
from referee.core.game import Game

EXAMPLE_SEED = 1
EXAMPLE_MOVES = 40
"""Moves played from the set-up before the example views are taken (fewer if it ends)."""

UNDESCRIBED = {"type": "object", "description": "not yet described for this game"}


def describe(game: Game) -> dict:
    """GET /v1/games/{game}: the spec plus `views` (schema and example per viewer) and `board`."""
    seat, spectator = example_views(game)
    return {**game.spec.to_dict(), "external_chance": game.external_chance,
            "views": {"seat": {"schema": view_schema(game, False), "example": seat,
                               "example_seat": 0},
                      "spectator": {"schema": view_schema(game, True), "example": spectator}},
            "board": game.board(), "decision_kinds": game.decision_kinds()}


def view_schema(game: Game, spectator: bool) -> dict:
    """The game's JSON Schema of a seat's (or the spectator's) view; a bare object if none."""
    return game.view_schema(spectator) or UNDESCRIBED


def game_view(name: str, suffixes: list[str]) -> dict:
    """The `<name>.View` component: any of the game's view schemas (`<name>.<suffix>`; a
    seat's view may fit the spectator's too), its `game` field naming it, so a `View` is
    one of the games' views, told apart by `game` (a discriminator)."""
    return {"type": "object", "required": ["game"],
            "properties": {"game": {"type": "string", "enum": [name]}},
            "anyOf": [{"$ref": f"#/components/schemas/{name}.{s}"} for s in suffixes]}


@lru_cache(maxsize=None)
def _example_state(game: Game):
    _, state = engine.start(game, game.spec.min_players, {}, EXAMPLE_SEED)
    for index in range(EXAMPLE_MOVES):
        decisions = game.pending(state)
        if not decisions:
            break
        seat = decisions[0].seat
        move = random_move(game, state, seat, EXAMPLE_SEED, index)
        state, _ = engine.play(game, state, index, seat, move)
    return state


def example_views(game: Game) -> tuple[dict, dict]:
    """(seat 0's view, the spectator's view) of the example position."""
    state = _example_state(game)
    return game.view(state, 0), game.view(state, None)
