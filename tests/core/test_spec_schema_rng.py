"""Specs, move schemas, the seeded RNG, forfeits and the registry."""

from __future__ import annotations

import pytest

from referee.core.errors import InvalidOptions, UnknownGame
from referee.core.registry import Registry
from referee.core.results import apply_forfeits
from referee.core.rng import Rng
from referee.core.schema import schema_errors
from referee.core.spec import MoveKind, OptionSpec
from referee.core.types import Outcome, Termination, ranks_from_keys
from tests.support.gops import GAME

SCHEMA_CASES = [
    ("integer accepted", 3, {"type": "integer"}, []),
    ("bool is not an integer", True, {"type": "integer"}, ["expected integer"]),
    ("minimum", -1, {"type": "integer", "minimum": 0}, ["below the minimum"]),
    ("maximum", 9, {"type": "integer", "maximum": 3}, ["above the maximum"]),
    ("enum", "teal", {"enum": ["red", "blue"]}, ["is not one of"]),
    ("array items", [1, "x"], {"type": "array", "items": {"type": "integer"}}, ["[1]: expected"]),
    ("unique items", [1, 1], {"type": "array", "uniqueItems": True}, ["unique"]),
    ("min items", [], {"type": "array", "minItems": 1}, ["at least 1"]),
    ("object extra", {"a": 1}, {"type": "object", "properties": {}, "additionalProperties": False},
     ["not a field"]),
    ("map values", {"rice": -1}, {"type": "object", "additionalProperties":
                                  {"type": "integer", "minimum": 0}}, ["below the minimum"]),
    ("property names", {"gold": 1}, {"type": "object", "propertyNames": {"enum": ["rice"]}},
     ["is not one of"]),
]


@pytest.mark.parametrize("name, value, schema, expected", SCHEMA_CASES,
                         ids=[c[0] for c in SCHEMA_CASES])
def test_schema_subset(name, value, schema, expected):
    """The move-schema validator reports each violation, and nothing for valid values."""
    errors = schema_errors(value, schema)
    assert len(errors) == len(expected)
    for error, fragment in zip(errors, expected):
        assert fragment in error


def test_move_kind_schema_fixes_the_type():
    """A move kind's schema requires its type and refuses extra fields."""
    kind = MoveKind("bid", "bid", {"card": {"type": "integer"}}, ("card",))
    assert kind.errors({"type": "bid", "card": 2}) == []
    assert kind.errors({"type": "pass", "card": 2})
    assert kind.errors({"type": "bid", "card": 2, "x": 1})


def test_option_spec_validates_its_default():
    """An option whose own default is invalid cannot be declared."""
    with pytest.raises(InvalidOptions):
        OptionSpec("n", "int", 10, "n", minimum=0, maximum=5)
    with pytest.raises(ValueError):
        OptionSpec("n", "float", 1.0, "n")


def test_rng_is_deterministic_per_seed_stream_counter():
    """The same (seed, stream, counter) gives the same draws; any change gives others."""
    a = Rng(5, "deck", 0).shuffled(range(30))
    assert a == Rng(5, "deck", 0).shuffled(range(30))
    assert a != Rng(5, "deck", 1).shuffled(range(30))
    assert a != Rng(6, "deck", 0).shuffled(range(30))
    assert sorted(a) == list(range(30))



def test_rng_draws_are_pinned():
    """Pinned draws: a change here would silently change every stored match and replay."""
    assert Rng(42, "pin", 0).below(100) == 44
    assert Rng(42, "pin", 0).shuffled(range(10)) == [2, 9, 6, 1, 4, 7, 3, 0, 8, 5]
    assert Rng(7, "", 3).randint(1, 6) == 1


def test_rng_below_is_uniform_enough():
    """below(n) covers [0, n) with no value starved."""
    rng = Rng(3)
    counts = [0] * 6
    for _ in range(6000):
        counts[rng.below(6)] += 1
    assert min(counts) > 850


def test_forfeits_rank_last_in_reverse_order_of_forfeiting():
    """A forfeited seat ranks below all others; the earliest forfeit ranks last."""
    outcome = Outcome((10, 30, 20, 5), ranks_from_keys([10, 30, 20, 5]))
    result = apply_forfeits(outcome, [1, 3])
    assert result.ranks == (2, 4, 1, 3)  # seat 2 (20) beats seat 0 (10); 3 then 1
    assert result.termination == Termination.FORFEIT
    assert result.scores == outcome.scores
    assert apply_forfeits(outcome, []) is outcome


def test_ranks_share_ties():
    """Equal keys share a rank; the next rank skips."""
    assert ranks_from_keys([5, 7, 5, 1]) == (2, 1, 2, 4)


def test_registry_refuses_duplicates_and_names_unknowns():
    """One name, one game; an unknown name lists the known ones."""
    registry = Registry([GAME])
    with pytest.raises(ValueError):
        registry.add(GAME)
    with pytest.raises(UnknownGame) as info:
        registry.get("chess")
    assert "gops" in info.value.message
