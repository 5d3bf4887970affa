"""strictjson's orjson fast path (referee/service/strictjson.py `_fast`) gives the strict
parser's value whenever it answers, and leaves every body it cannot vouch for to the strict
parser, which words the refusal."""

from __future__ import annotations

import json

import pytest

from referee.service import strictjson

SAME = [
    b'{"move": {"type": "bid", "amount": 3}, "expected_version": 17}',
    b'{"move": {"type": "pass"}, "expected_version": null}',
    b'[1, -0, -0.0, 1e-400, 2.5, 9223372036854775807, -9223372036854775808]',
    b'{"a": [true, false, null, "\\u0000", "\\u00e9", "\xc3\xa9"], "b": {}}',
    b'  {"a" : 1}\n',
    b'"plain"',
    b'{}',
]
"""Bodies the fast path takes: it must give exactly the strict value."""

SLOW = [
    b'{"a": 1, "a": 2}',
    b'{"a": {"b": 1, "b": 1}}',
    b'[9223372036854775808]',
    b'[-9223372036854775809]',
    b'[18446744073709551616]',
    b'[1e999]',
    b'[NaN]',
    b'[Infinity]',
    b'["\\ud800"]',
    b'["\\ud83d\\ude00"]',
    b'{"time": "12:30"}',
    b'[1.5e30]',
    b'\xef\xbb\xbf{}',
    b'\xff',
    b'[' * 40 + b']' * 40,
    b'[1,]',
    b'',
]
"""Bodies left to the strict parser (refused, or taken with a check the fast path skips)."""


def _strict(data):
    try:
        return "value", strictjson._strict(data, 32)
    except strictjson.BadJson as err:
        return "refused", str(err)


def _loads(data):
    try:
        return "value", strictjson.loads(data, 32)
    except strictjson.BadJson as err:
        return "refused", str(err)


@pytest.mark.parametrize("data", SAME, ids=repr)
def test_the_fast_path_gives_the_strict_value(data):
    fast = strictjson._fast(data, 32)
    assert fast is not strictjson._SLOW
    assert _strict(data) == ("value", fast)
    assert json.dumps(fast) == json.dumps(_strict(data)[1])   # the same types, too


@pytest.mark.parametrize("data", SLOW, ids=repr)
def test_anything_else_goes_to_the_strict_parser(data):
    assert strictjson._fast(data, 32) is strictjson._SLOW
    assert _loads(data) == _strict(data)
