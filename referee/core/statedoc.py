"""Describing a game's state schema field by field, and the field table the docs print (no I/O).

A game keeps its state schema's shapes in `state.py` and the meaning of each field in a table
of paths: `"seats[].cash"` (a field of each list item), `"junks.*.layers"` (`*`: any one
field or key). `described(schema, texts)` puts each text on its field as `description`, so
the schema served by GET /v1/games/{game}/state-schema explains itself; `undescribed` lists
the fields left without one (a test keeps it empty).
"""

from __future__ import annotations

import re


def _fields(schema: dict, path: str):
    """Every (path, schema) of a property below `schema`, depth first, in declared order."""
    if not isinstance(schema, dict):
        return
    for name, sub in (schema.get("properties") or {}).items():
        here = f"{path}.{name}" if path else name
        yield here, sub
        yield from _fields(sub, here)
    if isinstance(schema.get("items"), dict):
        yield from _fields(schema["items"], path + "[]")
    if isinstance(schema.get("additionalProperties"), dict):
        yield from _fields(schema["additionalProperties"], f"{path}.*" if path else "*")
    for branch in schema.get("oneOf", ()):
        yield from _fields(branch, path)


def _pattern(key: str) -> re.Pattern:
    return re.compile(re.escape(key).replace(r"\*", r"[^.\[]+") + "$")


def described(schema: dict, texts: dict[str, str], like: dict | None = None) -> dict:
    """A copy of `schema` with each field's description from `texts` (first matching path),
    else from the field at the same path of `like` (the game's view schema, which describes
    what a seat sees of the same state); a path of `texts` that names no field raises
    ValueError (a typo must not pass silently)."""
    copy = _copy(schema)
    patterns = [(key, _pattern(key)) for key in texts]
    seen = {path: sub.get("description") for path, sub in _fields(like or {}, "")}
    used = set()
    for path, sub in _fields(copy, ""):
        for key, pattern in patterns:
            if key == path or pattern.match(path):
                sub["description"] = texts[key]
                used.add(key)
                break
        else:
            if seen.get(path):
                sub["description"] = seen[path]
    unknown = sorted(set(texts) - used)
    if unknown:
        raise ValueError(f"descriptions of fields the schema does not have: {unknown}")
    return copy


def undescribed(schema: dict) -> list[str]:
    """The paths of fields without a description."""
    return [path for path, sub in _fields(schema, "") if not sub.get("description")]


def _copy(schema):
    if isinstance(schema, dict):
        return {key: _copy(value) for key, value in schema.items()}
    if isinstance(schema, list):
        return [_copy(value) for value in schema]
    return schema


def field_table(schema: dict) -> list[tuple[int, str, str]]:
    """The top-level fields in notation order: (position from 1, name, description)."""
    return [(k, name, sub.get("description", ""))
            for k, (name, sub) in enumerate((schema.get("properties") or {}).items(), 1)]
