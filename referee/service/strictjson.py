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

MAX_DEPTH = 64
"""Deepest nesting of arrays and objects a bot's answer may have."""

_INT_LIMIT = 2 ** 63
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.S)
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


class BadJson(ValueError):
    """Not strict JSON; the message is ours (never the input's text)."""


def loads(data: bytes, max_depth: int = MAX_DEPTH):
    """The value of `data`, or BadJson for anything not strict JSON (see the module)."""
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
