"""The compiled schema check gives the error walk's verdict on real views, states and moves.

`schema_errors`/`first_error` ask the compiled check first and walk only when it says no,
so a compiled check that said yes to a value the walk refuses would let it through
unreported. Here both judge the views, states and legal moves of real playouts, and many
mutations of them (a field dropped, added, or given a value of another type).
"""

from __future__ import annotations

import copy

import pytest

from referee.core import engine
from referee.core.bots import random_move
from referee.core.rng import Rng
from referee.core.schema import _check
from referee.core.schemafast import compile_check, conforms
from tests.conftest import ALL_GAMES

STRANGERS = [None, True, 0, -7, 2.5, "", "x", [], [1], {}, {"type": "?"}]
"""Values put in place of a field: every JSON type, in and out of typical ranges."""


def walk_verdict(value, schema) -> bool:
    """The error walk's verdict alone (no compiled shortcut)."""
    errors: list[str] = []
    _check(value, schema, "$", errors, "value")
    return not errors


def mutations(value, rng: Rng, count: int):
    """`count` copies of `value`, each changed at one random place."""
    for _ in range(count):
        out = copy.deepcopy(value)
        parent, key = _random_spot(out, rng)
        if parent is None:
            yield rng.choice(STRANGERS)
            continue
        if isinstance(parent, dict) and rng.below(4) == 0:
            del parent[key]
        elif isinstance(parent, dict) and rng.below(4) == 0:
            parent["unexpected_" + str(rng.below(9))] = rng.choice(STRANGERS)
        else:
            parent[key] = copy.deepcopy(rng.choice(STRANGERS))
        yield out


def _random_spot(value, rng: Rng):
    parent, key, node = None, None, value
    while isinstance(node, (dict, list)) and node and rng.below(5):
        keys = list(node) if isinstance(node, dict) else range(len(node))
        parent, key = node, rng.choice(list(keys))
        node = node[key]
    return parent, key


def _samples(game, players: int, seed: int, steps: int):
    _, state = engine.start(game, players, None, seed)
    for version in range(steps):
        yield state
        decisions = game.pending(state)
        if not decisions:
            return
        seat = decisions[(version * 7) % len(decisions)].seat
        move = random_move(game, state, seat, seed, version)
        state, _ = engine.play(game, state, version, seat, move)


def _agree(value, schema, where: str) -> None:
    fast, walked = conforms(value, schema), walk_verdict(value, schema)
    assert fast == walked, f"{where}: compiled check says {fast}, the walk says {walked}"


@pytest.mark.parametrize("game", ALL_GAMES, ids=lambda g: g.spec.name)
def test_compiled_checks_agree_with_the_walk_on_views_states_and_moves(game):
    rng = Rng(5, "schemafast")
    players = game.spec.min_players
    for index, state in enumerate(_samples(game, players, seed=11, steps=40)):
        if index % 8:
            continue
        schemas = [("state", getattr(game, "state_schema", None), game.to_dict(state))]
        for viewer in (None, *range(players)):
            schemas.append((f"view {viewer}", game.view_schema(viewer is None),
                            game.view(state, viewer)))
        for where, schema, value in schemas:
            if schema is None:
                continue
            _agree(value, schema, where)
            for changed in mutations(value, rng, 20):
                _agree(changed, schema, f"{where}, changed")
        for decision in game.pending(state):
            for move in game.legal_moves(state, decision.seat)[:5]:
                schema = game.spec.move_kind(move["type"]).schema()
                _agree(move, schema, "move")
                for changed in mutations(move, rng, 10):
                    _agree(changed, schema, "move, changed")


@pytest.mark.parametrize("value, schema", [
    ({"a": 1}, {"type": "object", "propertyNames": {"pattern": "^[a-z]+$"}}),
    ({"A": 1}, {"type": "object", "propertyNames": {"pattern": "^[a-z]+$"}}),
    ([1, 2, 2], {"type": "array", "uniqueItems": True}),
    ([{"x": 1}, {"x": 1}], {"type": "array", "uniqueItems": True}),
    (3, {"oneOf": [{"type": "integer"}, {"type": "number"}]}),
    (3.5, {"oneOf": [{"type": "integer"}, {"type": "number"}]}),
    (None, {"type": ["integer", "null"], "minimum": 2}),
    (1, {"type": ["integer", "null"], "minimum": 2}),
    ("ab", {"type": "string", "minLength": 3}),
    ({"k": 5}, {"type": "object", "additionalProperties": {"type": "integer", "maximum": 4}}),
    ({}, {"type": "object", "minProperties": 1}),
    (True, {"const": 1}),
    (1, {"enum": [True]}),
])
def test_compiled_checks_agree_on_each_keyword(value, schema):
    assert compile_check(schema)(value) == walk_verdict(value, schema)
