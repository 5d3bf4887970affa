"""Dschunke's view schemas: every view of random playouts fits them, every field is described."""

from __future__ import annotations

import random

import pytest

from referee.core.schema import check_schema, schema_errors
from tests.games.dschunke.dschunke_helpers import GAME, new

SETUPS = [(2, {"two_player_variant": True}), (2, {"two_player_variant": True,
                                                   "setup_variant": True}),
          (3, {}), (3, {"setup_variant": True}), (4, {}), (4, {"s_tie_settles": False})]


def _states(players, options, seed):
    """Every state of a playout; bids lean to one colour so payouts and S rewards happen."""
    state, rnd = new(players, seed, **options), random.Random(seed)
    yield state
    while GAME.pending(state):
        decision = rnd.choice(GAME.pending(state))
        moves = GAME.legal_moves(state, decision.seat)
        move = rnd.choice(moves)
        if decision.kind == "bid" and rnd.random() < 0.7:
            move = moves[0] if decision.prompt["goods"] != decision.prompt["open"][0] \
                else moves[-1]
        state = GAME.apply(state, decision.seat, move)
        yield state


@pytest.mark.parametrize("players, options", SETUPS, ids=lambda v: str(v))
def test_every_view_fits_its_schema(players, options):
    seat_schema, spectator_schema = GAME.view_schema(False), GAME.view_schema(True)
    kinds, checked = set(), 0
    for seed in range(2):
        for state in _states(players, options, seed):
            kinds.add(state["stage"]["kind"])
            for viewer in (None, *range(players)):
                schema = spectator_schema if viewer is None else seat_schema
                errors = schema_errors(GAME.view(state, viewer), schema, "view", "view")
                assert errors == [], (viewer, state["stage"], errors[:5])
                checked += 1
    assert {"action", "bid", "resupply", "over"} <= kinds and checked > 500


def _properties(schema, path="view"):
    """(path, schema) of every property in a schema, however deep."""
    for name, sub in schema.get("properties", {}).items():
        yield f"{path}.{name}", sub
        yield from _properties(sub, f"{path}.{name}")
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), dict):
            yield f"{path}[{key}]", schema[key]
            yield from _properties(schema[key], f"{path}[]")
    for i, sub in enumerate(schema.get("oneOf", [])):
        yield f"{path}|{i}", sub
        yield from _properties(sub, f"{path}|{i}")


@pytest.mark.parametrize("spectator", [False, True], ids=["seat", "spectator"])
def test_every_property_is_described_and_every_object_closed(spectator):
    schema = GAME.view_schema(spectator)
    check_schema(schema)
    assert schema["description"]
    for path, sub in _properties(schema):
        assert sub.get("description"), f"{path} has no description"
        if "object" in (sub.get("type") if isinstance(sub.get("type"), list)
                        else [sub.get("type")]):
            assert "additionalProperties" in sub, f"{path} is not closed"
