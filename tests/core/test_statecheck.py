"""State validation by declared schema (JSON paths, never a crash) and the schema keywords."""

from __future__ import annotations

import copy
import json

import pytest

from referee.core import InvalidState, MoveKind
from referee.core.playout import random_playout
from referee.core.schema import SchemaError, check_schema, first_error, schema_errors
from referee.core.statecheck import enum, list_of, mapping, nat, nullable, record, string
from tests.support.gops import GAME


def final_state(players=3, seed=2):
    """A finished test-game state as stored data."""
    return json.loads(json.dumps(GAME.to_dict(random_playout(GAME, players, None, seed)[1])))


def test_good_states_load_at_every_step():
    """Every state of a playout fits the declared schema and round-trips."""
    state = GAME.setup(3, {"cards": 4, "ties": "carry"}, 5)
    for seat, move in random_playout(GAME, 3, {"ties": "carry"}, 5)[2]:
        data = json.loads(json.dumps(GAME.to_dict(state)))
        assert GAME.from_dict(data) == state
        state = GAME.apply(state, seat, move)


BAD = [
    # name, change to a good state, the message fragment (path first)
    ("missing key", lambda d: d.pop("deck"), "$.deck: is required"),
    ("extra key", lambda d: d.update(x=1), "$.x: is not a field of this state"),
    ("wrong type deep", lambda d: d["hands"][1].append("x"), "$.hands[1][0]: expected integer"),
    ("range", lambda d: d["scores"].__setitem__(2, -3), "$.scores[2]: -3 is below the minimum 0"),
    ("enum in nested record", lambda d: d["options"].update(ties="coin"),
     "$.options.ties: 'coin' is not one of"),
    ("nullable refuses other types", lambda d: d.update(winner="0"),
     "$.winner: expected integer or null, got string"),
    ("bool is not an integer", lambda d: d.update(players=True), "$.players: expected integer"),
    ("length per player", lambda d: d["bids"].pop(), "$.bids: needs one entry per player (3)"),
    ("winner out of the table", lambda d: d.update(winner=3), "$.winner: seat 3 is not"),
]


@pytest.mark.parametrize("name, change, fragment", BAD, ids=[b[0] for b in BAD])
def test_bad_states_name_the_first_bad_field(name, change, fragment):
    """A malformed state raises InvalidState (never KeyError/TypeError) with its path."""
    data = final_state()
    change(data)
    with pytest.raises(InvalidState) as info:
        GAME.from_dict(data)
    assert info.value.message.startswith("invalid gops state: ")
    assert fragment in info.value.message
    assert info.value.details["path"] == fragment.split(":")[0]


def test_a_state_must_be_an_object():
    """Even the root is checked by type, not by a crash."""
    with pytest.raises(InvalidState, match=r"\$: expected object, got array"):
        GAME.from_dict([1])


def test_from_dict_copies():
    """The loaded state shares nothing with the document it came from."""
    data = final_state()
    state = GAME.from_dict(data)
    data["hands"][0].append(7)
    assert 7 not in state["hands"][0]


KEYWORD_CASES = [
    ("pattern matches", "ab-12", {"type": "string", "pattern": "^[a-z]+-[0-9]+$"}, []),
    ("pattern refuses", "AB", {"type": "string", "pattern": "^[a-z]+$"}, ["does not match"]),
    ("pattern searches", "xaby", {"pattern": "ab"}, []),
    ("min length", "a", {"type": "string", "minLength": 2}, ["at least 2 characters"]),
    ("max length", "abc", {"type": "string", "maxLength": 2}, ["at most 2 characters"]),
    ("oneOf one", 3, {"oneOf": [{"type": "integer"}, {"type": "string"}]}, []),
    ("oneOf none", None, {"oneOf": [{"type": "integer"}, {"type": "string"}]},
     ["matches 0"]),
    ("oneOf two", 3, {"oneOf": [{"type": "integer"}, {"minimum": 0}]}, ["matches 2"]),
    ("annotations allowed", 1, {"type": "integer", "description": "d", "title": "t"}, []),
]


@pytest.mark.parametrize("name, value, schema, expected", KEYWORD_CASES,
                         ids=[c[0] for c in KEYWORD_CASES])
def test_new_schema_keywords(name, value, schema, expected):
    """pattern, minLength, maxLength and oneOf are checked, not silently ignored."""
    check_schema(schema)
    errors = schema_errors(value, schema)
    assert len(errors) == len(expected)
    for error, fragment in zip(errors, expected):
        assert fragment in error


UNSUPPORTED = [
    {"type": "string", "format": "email"},
    {"anyOf": [{"type": "integer"}]},
    {"type": "object", "properties": {"a": {"type": "integer", "multipleOf": 2}}},
    {"type": "array", "items": {"$ref": "#/x"}},
    {"type": "decimal"},
    {"type": "string", "pattern": "("},
    {"type": "array", "minItems": -1},
    {"oneOf": []},
]


@pytest.mark.parametrize("schema", UNSUPPORTED, ids=[json.dumps(s) for s in UNSUPPORTED])
def test_unsupported_keywords_are_refused_at_definition(schema):
    """A schema the checker would misread fails when declared, naming the keyword."""
    with pytest.raises(SchemaError):
        check_schema(schema)


def test_a_move_kind_with_an_unsupported_keyword_cannot_be_declared():
    """MoveKind checks its schema when it is built, loudly."""
    with pytest.raises(SchemaError, match="format"):
        MoveKind("tag", "tag", {"name": {"type": "string", "format": "hostname"}}, ("name",))


def test_first_error_stops_at_the_first_and_agrees_with_all_errors():
    """The first-error mode reports the first of the full list, and None when valid."""
    schema = list_of(record(a=nat(), b=enum("x")), min_items=1)
    value = [{"a": 1, "b": "x"}, {"a": -1, "b": "y"}]
    errors = schema_errors(value, schema, "$", "state")
    assert len(errors) == 2 and first_error(value, schema) == errors[0]
    assert first_error([{"a": 0, "b": "x"}], schema) is None


def test_move_messages_are_unchanged():
    """Move errors keep their wording: the API's answers stay the same."""
    kind = MoveKind("bid", "bid", {"card": {"type": "integer", "minimum": 1}}, ("card",))
    assert kind.errors({"type": "bid", "card": 0, "x": 1}) == [
        "move.card: 0 is below the minimum 1", "move.x: is not a field of this move"]


def test_builders():
    """The statecheck builders write plain JSON Schema the checker accepts."""
    schema = record(goods=mapping(nat(), keys=("red", "blue"), complete=True),
                    tag=nullable(string(pattern="^t", max_length=3)), pick=nullable(enum(1, 2)))
    check_schema(schema)
    good = {"goods": {"red": 1, "blue": 0}, "tag": None, "pick": None}
    assert first_error(good, schema) is None
    bad = copy.deepcopy(good)
    bad["goods"]["green"] = 1
    assert first_error(bad, schema).startswith("$.goods key 'green'")
    assert first_error({**good, "tag": "tooo"}, schema) == "$.tag: takes at most 3 characters"
