"""Strict JSON for what bots and API clients send: what every parser reads alike and we can
serve back.

Refused (each raises BadJson: the bot client makes it bot.bad_response, the API a 400
request.malformed_json):
- bytes that are not UTF-8, or begin with a byte-order mark;
- NaN, Infinity, -Infinity, and numbers that overflow to them (1e999): we store and serve what
  a bot sends, and those would make our own answers invalid JSON;
- integers outside the signed 64-bit range (no move needs more; huge ones cost CPU later);
- strings holding lone surrogates (\\ud800): not Unicode, unencodable as UTF-8;
- duplicate keys in one object: RFC 8259 leaves their meaning open and parsers disagree
  (first wins, last wins), so an answer with them has no single meaning;
- nesting deeper than MAX_DEPTH arrays/objects: checked before parsing, so a 60,000-deep
  answer never reaches the recursive parser.
"""

from __future__ import annotations

import json
import math
import re

import orjson

MAX_DEPTH = 64
"""Deepest nesting of arrays and objects a bot's answer may have."""

_INT_LIMIT = 2 ** 63
_SLOW = object()
_SURROGATE_BYTES = re.compile(rb"\\u[dD][89a-fA-F]")
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.S)
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


class BadJson(ValueError):
    """Not strict JSON; the message is ours (never the input's text)."""


def loads(data: bytes, max_depth: int = MAX_DEPTH):
    """The value of `data`, or BadJson for anything not strict JSON (see the module)."""
    value = _fast(data, max_depth)
    return _strict(data, max_depth) if value is _SLOW else value


def _fast(data: bytes, max_depth: int):
    """orjson's value of `data` when it is surely the strict parser's too, else _SLOW (and
    the strict parser decides, and words any refusal).

    orjson (about 8x faster) already refuses what is not UTF-8, a byte-order mark, NaN and
    Infinity, numbers that overflow, lone surrogates. It keeps the last of duplicate keys,
    reads integers up to 2**64 and turns longer ones into floats, and nests 1024 deep; so it
    is trusted only when the text nests no deeper than allowed, has no surrogate escape,
    every integer is in the signed 64-bit range, no float reaches 2**63 (it may have been a
    long integer), and the objects hold as many pairs as the text has colons (a colon in a
    string only makes the check fail: then the strict parser looks)."""
    if type(data) is not bytes or data.count(b"[") + data.count(b"{") > max_depth or \
            _SURROGATE_BYTES.search(data):
        return _SLOW
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError:
        return _SLOW
    pairs, stack = 0, [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is dict:
            pairs += len(item)
            stack.extend(item.values())
        elif kind is list:
            stack.extend(item)
        elif kind is int:
            if not -_INT_LIMIT <= item < _INT_LIMIT:
                return _SLOW
        elif kind is float and not -_INT_LIMIT < item < _INT_LIMIT:
            return _SLOW
    return value if pairs == data.count(b":") else _SLOW


def _strict(data: bytes, max_depth: int):
    """The strict parser: json with hooks refusing each thing strict JSON is not."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise BadJson("the body is not UTF-8") from None
    if text.count("[") + text.count("{") > max_depth:  # cheap: most answers are shallow
        _check_depth(text, max_depth)
    try:
        value = json.loads(text, parse_constant=_no_constant, parse_float=_finite,
                           parse_int=_bounded_int, object_pairs_hook=_unique_keys)
    except BadJson:
        raise
    except Exception:  # JSONDecodeError, RecursionError, MemoryError...: all the bot's fault
        raise BadJson("the body is not JSON") from None
    if _SURROGATE_ESCAPE.search(text):
        _check_strings(value)
    return value


def _check_depth(text: str, max_depth: int) -> None:
    depth = 0
    for match in _TOKENS.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > max_depth:
                raise BadJson(f"the body is nested deeper than {max_depth}")
        elif token in "]}":
            depth -= 1


def _no_constant(name: str):
    raise BadJson("NaN and Infinity are not JSON")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise BadJson("a number overflows to infinity")
    return value


def _bounded_int(text: str) -> int:
    if len(text) > 20:
        raise BadJson("an integer outside the 64-bit range")
    value = int(text)
    if not -_INT_LIMIT <= value < _INT_LIMIT:
        raise BadJson("an integer outside the 64-bit range")
    return value


def _unique_keys(pairs: list) -> dict:
    result = dict(pairs)
    if len(result) != len(pairs):
        raise BadJson("an object has the same key twice")
    return result


def _check_strings(value) -> None:
    """Raise BadJson if any key or string holds a lone surrogate (depth is already bounded)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise BadJson("a string holds a lone surrogate") from None
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
