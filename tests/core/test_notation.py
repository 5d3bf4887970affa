"""referee.core.notation: a schema's values written in one line and read back exactly."""

from __future__ import annotations

import pytest

from referee.core.errors import InvalidState
from referee.core.notation import Notation, escape, unescape
from referee.core.statecheck import (boolean, enum, integer, list_of, mapping, nullable,
                                     record, string)

SCHEMA = record(
    n=integer(), flag=boolean(), name=string(), pick=enum("a b", 3, None),
    items=list_of(nullable(integer())), counts=mapping(integer(), keys=["x", "y"],
                                                       complete=True),
    some=mapping(string()), free={"type": "object"},
    either={"oneOf": [{"type": "null"}, record(kind=enum("p"), v=integer()),
                      record(kind=enum("q"), w=string())]})
NOTATION = Notation("t", SCHEMA)
VALUE = {"n": -7374513755567299596123, "flag": True, "name": "Dúlì, (1) ~'%:\"x\"",
         "pick": "a b", "items": [1, None, 0], "counts": {"y": 2, "x": 1},
         "some": {"k:1": "", "": "v"}, "free": {"a": [1, {"b": None}]},
         "either": {"kind": "q", "w": "z"}}


def test_values_of_every_kind_read_back_exactly():
    """Big integers, strings with every delimiter, empty strings and keys, enums of mixed
    kinds, free JSON and oneOf branches."""
    text = NOTATION.encode(VALUE)
    assert "\n" not in text and text.startswith("t:(")
    assert NOTATION.decode(text) == VALUE
    assert NOTATION.encode(NOTATION.decode(text)) == text
    for either in (None, {"kind": "p", "v": 3}):
        value = {**VALUE, "either": either, "pick": None, "items": []}
        assert NOTATION.decode(NOTATION.encode(value)) == value


def test_a_fixed_record_names_no_field():
    """Records are positional: the text is the values in schema order."""
    small = Notation("s", record(a=integer(), b=list_of(boolean())))
    assert small.encode({"b": [True, False], "a": 3}) == "s:(3,[1,0])"


@pytest.mark.parametrize("text", ["", "t", "u:(1)", "t:(1", "t:(x,1,a,a,[],(1,2),{},'{},~)",
                                  "t:" + NOTATION.encode(VALUE)[2:] + ",", "t:(1_0,"])
def test_a_broken_text_is_refused_with_the_character(text):
    """Never a KeyError or IndexError: InvalidState naming `position[N]`."""
    with pytest.raises(InvalidState) as err:
        NOTATION.decode(text)
    assert err.value.details["path"].startswith("position[")


def test_escaping_round_trips():
    for text in ("", "plain_text-1.5", "a,b(c)[d]{e}:f~g'h%i\"j k", "Yínzi: Ming"):
        assert unescape(escape(text)) == text


def test_names_from_a_fixed_list_are_written_by_their_initials():
    """An enum's values and a mapping's fixed keys go in as their words' initials when no two
    share them (issue 40: Dschunke's card names were a third of a position); a list whose
    initials collide is written in full; the full names are read as well."""
    cards = Notation("c", record(stack=list_of(enum("extra_take_white", "bonus_white",
                                                    "move_strip")),
                                 ids=list_of(enum("YZ1", "YZ2")),
                                 stake=mapping(integer(), keys=["white", "brown"])))
    value = {"stack": ["move_strip", "extra_take_white", "bonus_white"], "ids": ["YZ2"],
             "stake": {"brown": 2}}
    assert cards.encode(value) == "c:([ms,etw,bw],[YZ2],{b:2})"
    assert cards.decode("c:([ms,etw,bw],[YZ2],{b:2})") == value
    assert cards.decode("c:([move_strip,etw,bonus_white],[YZ2],{brown:2})") == value
    with pytest.raises(InvalidState):
        cards.decode("c:([mx],[YZ2],{})")


def test_a_key_escaping_bytes_that_are_not_utf8_is_refused_not_a_crash():
    """`{%C0:1}`: the escape is no UTF-8; before, decode raised UnicodeDecodeError (a check of
    that text would have answered 500); now InvalidState at the key, as any broken text."""
    notation = Notation("t", {"type": "object", "additionalProperties": {"type": "integer"}})
    with pytest.raises(InvalidState, match="character 3: expected a key"):
        notation.decode("t:{%C0:1}")
    assert notation.decode("t:{a%25:1}") == {"a%": 1}
