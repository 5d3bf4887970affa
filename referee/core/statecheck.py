"""Declaring a game state's shape, and checking a stored state against it (no I/O).

A state schema is plain JSON Schema (the subset of `referee.core.schema`); the builders below
only make the common shapes short to write:

    SEAT = record(cash=nat(), hand=mapping(nat(), keys=GOODS))
    STATE = record(players=integer(2, 4), seats=list_of(SEAT), winner=nullable(nat()))

`validate(data, schema, game)` raises InvalidState naming the JSON path of the first bad
field (`invalid gops state: $.hands[1][0]: expected integer, got string`), never KeyError
or TypeError. What a schema cannot say (one entry per player, pieces conserved) a kit game
checks in `check_state`, raising `state_error(path, reason)`.
"""

from __future__ import annotations

from referee.core.errors import InvalidState
from referee.core.schema import first_error


def integer(minimum: int | None = None, maximum: int | None = None) -> dict:
    """An integer, optionally within [minimum, maximum]."""
    schema: dict = {"type": "integer"}
    if minimum is not None:
        schema["minimum"] = minimum
    if maximum is not None:
        schema["maximum"] = maximum
    return schema


def nat(maximum: int | None = None) -> dict:
    """A non-negative integer, optionally at most `maximum`."""
    return integer(0, maximum)


def boolean() -> dict:
    """true or false."""
    return {"type": "boolean"}


def string(*, pattern: str | None = None, min_length: int | None = None,
           max_length: int | None = None) -> dict:
    """A string, optionally matching `pattern` (searched, as in JSON Schema) and bounded."""
    schema: dict = {"type": "string"}
    for key, value in (("pattern", pattern), ("minLength", min_length),
                       ("maxLength", max_length)):
        if value is not None:
            schema[key] = value
    return schema


def enum(*values) -> dict:
    """Exactly one of `values`."""
    return {"enum": list(values)}


def list_of(item: dict, size: int | None = None, *, min_items: int | None = None,
            max_items: int | None = None, unique: bool = False) -> dict:
    """A list of `item`s: exactly `size` of them, or between min_items and max_items."""
    schema: dict = {"type": "array", "items": item}
    low, high = (size, size) if size is not None else (min_items, max_items)
    if low is not None:
        schema["minItems"] = low
    if high is not None:
        schema["maxItems"] = high
    if unique:
        schema["uniqueItems"] = True
    return schema


def record(**fields: dict) -> dict:
    """An object with exactly these fields, each required (a state's fixed-key dicts)."""
    return {"type": "object", "properties": fields, "required": list(fields),
            "additionalProperties": False}


def mapping(value: dict, keys=None, *, complete: bool = False) -> dict:
    """An object whose values are `value`s; keys among `keys` (all of them if `complete`)."""
    schema: dict = {"type": "object", "additionalProperties": value}
    if keys is not None:
        schema["propertyNames"] = {"enum": list(keys)}
        if complete:
            schema["required"] = list(keys)
    return schema


def nullable(schema: dict) -> dict:
    """`schema`, or null."""
    if "enum" in schema:
        return {**schema, "enum": [*schema["enum"], None]}
    kinds = schema.get("type")
    if kinds is None:
        return {"oneOf": [{"type": "null"}, schema]}
    kinds = kinds if isinstance(kinds, list) else [kinds]
    return {**schema, "type": [*kinds, "null"]}


def state_error(path: str, reason: str, **details) -> InvalidState:
    """The InvalidState for the field at JSON `path` (e.g. `$.hands[2]`); raise it."""
    return InvalidState(f"{path}: {reason}", path=path, **details)


def validate(data, schema: dict, game: str) -> None:
    """Raise InvalidState with the first bad field's JSON path unless `data` fits `schema`."""
    problem = first_error(data, schema, "$", "state")
    if problem is not None:
        path = problem.split(": ", 1)[0]
        raise InvalidState(f"invalid {game} state: {problem}", path=path)
