"""A small validator for the JSON Schema subset that moves and game states are declared in.

Move schemas double as OpenAPI documentation, so they are written as JSON Schema; the core
checks them itself (no dependency). One checker serves moves (every error, for the client)
and stored states (the first error, with its JSON path). Supported keywords:
type, properties, required, additionalProperties (bool or schema), enum, const, minimum,
maximum, items, minItems, maxItems, uniqueItems, minProperties, maxProperties,
propertyNames, minLength, maxLength, pattern, oneOf; plus the annotations description,
title, examples, default and $comment. Any other keyword is refused by `check_schema`
when the schema is defined (a `MoveKind`, a kit game), never silently ignored.
"""

from __future__ import annotations

import re
from functools import lru_cache

from referee.core.schemafast import conforms, freeze

_TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "null": lambda v: v is None,
}
_SUBSCHEMA = ("items", "propertyNames")
_NATURAL = ("minItems", "maxItems", "minProperties", "maxProperties", "minLength", "maxLength")
_OTHER = ("type", "properties", "required", "additionalProperties", "enum", "const",
          "minimum", "maximum", "uniqueItems", "pattern", "oneOf")
_ANNOTATIONS = ("description", "title", "examples", "default", "$comment")
KEYWORDS = frozenset(_SUBSCHEMA + _NATURAL + _OTHER + _ANNOTATIONS)
"""Every keyword the checker understands (annotations included)."""


class SchemaError(ValueError):
    """A schema that uses a keyword this checker does not support, or uses one wrongly."""


class _Stop(Exception):
    """Raised by a first-error collector once it holds its error."""


class _First(list):
    """An error list that stops the walk at its first error (state validation)."""

    def append(self, item) -> None:
        super().append(item)
        raise _Stop


def schema_errors(value, schema: dict, path: str = "move", noun: str = "move") -> list[str]:
    """All the ways `value` breaks `schema`, each as `path: reason`; empty when it conforms."""
    if conforms(value, schema):  # the common case, compiled; the walk below names the errors
        return []
    errors: list[str] = []
    _check(value, schema, path, errors, noun)
    return errors


def first_error(value, schema: dict, path: str = "$", noun: str = "state") -> str | None:
    """The first way `value` breaks `schema` (as `path: reason`), or None; stops there."""
    if conforms(value, schema):
        return None
    errors = _First()
    try:
        _check(value, schema, path, errors, noun)
    except _Stop:
        return errors[0]
    return None


def check_schema(schema, where: str = "schema") -> None:
    """Raise SchemaError unless every keyword of `schema` (and its sub-schemas) is supported."""
    if not isinstance(schema, dict):
        raise SchemaError(f"{where}: a schema is an object, got {type(schema).__name__}")
    unknown = sorted(set(schema) - KEYWORDS)
    if unknown:
        raise SchemaError(f"{where}: unsupported JSON Schema keyword(s) {unknown}; "
                          f"supported: {sorted(KEYWORDS)}")
    kinds = schema.get("type")
    for kind in (kinds if isinstance(kinds, list) else [kinds] if kinds else []):
        if kind not in _TYPES:
            raise SchemaError(f"{where}: unknown type {kind!r}")
    for key in _NATURAL:
        if key in schema and not (isinstance(schema[key], int) and schema[key] >= 0):
            raise SchemaError(f"{where}: {key} must be a non-negative integer")
    if "pattern" in schema:
        try:
            _regex(schema["pattern"])
        except (re.error, TypeError) as err:
            raise SchemaError(f"{where}: bad pattern {schema['pattern']!r}: {err}") from err
    _check_children(schema, where)


def _check_children(schema: dict, where: str) -> None:
    for key in _SUBSCHEMA:
        if key in schema:
            check_schema(schema[key], f"{where}.{key}")
    for name, sub in schema.get("properties", {}).items():
        check_schema(sub, f"{where}.properties.{name}")
    if isinstance(schema.get("additionalProperties"), dict):
        check_schema(schema["additionalProperties"], f"{where}.additionalProperties")
    if "oneOf" in schema:
        if not isinstance(schema["oneOf"], list) or not schema["oneOf"]:
            raise SchemaError(f"{where}: oneOf takes a non-empty list of schemas")
        for i, sub in enumerate(schema["oneOf"]):
            check_schema(sub, f"{where}.oneOf[{i}]")


@lru_cache(maxsize=256)
def _regex(pattern: str) -> re.Pattern:
    return re.compile(pattern)


def _check(value, schema: dict, path: str, errors: list[str], noun: str) -> None:
    expected = schema.get("type")
    if expected is not None:
        kinds = expected if isinstance(expected, list) else [expected]
        if not any(_TYPES[k](value) for k in kinds):
            errors.append(f"{path}: expected {' or '.join(kinds)}, got {_json_type(value)}")
            return
    if "const" in schema and value != schema["const"]:
        errors.append(f"{path}: must be {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{path}: {value!r} is not one of {schema['enum']!r}")
    if "oneOf" in schema:
        _check_one_of(value, schema["oneOf"], path, errors, noun)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        _check_range(value, schema, path, errors)
    elif isinstance(value, str):
        _check_string(value, schema, path, errors)
    elif isinstance(value, list):
        _check_array(value, schema, path, errors, noun)
    elif isinstance(value, dict):
        _check_object(value, schema, path, errors, noun)


def _check_one_of(value, options: list, path: str, errors: list[str], noun: str) -> None:
    matches = sum(1 for option in options if first_error(value, option, path, noun) is None)
    if matches != 1:
        errors.append(f"{path}: must match exactly one of {len(options)} alternatives, "
                      f"matches {matches}")


def _check_range(value, schema: dict, path: str, errors: list[str]) -> None:
    if "minimum" in schema and value < schema["minimum"]:
        errors.append(f"{path}: {value} is below the minimum {schema['minimum']}")
    if "maximum" in schema and value > schema["maximum"]:
        errors.append(f"{path}: {value} is above the maximum {schema['maximum']}")


def _check_string(value: str, schema: dict, path: str, errors: list[str]) -> None:
    if "minLength" in schema and len(value) < schema["minLength"]:
        errors.append(f"{path}: needs at least {schema['minLength']} characters")
    if "maxLength" in schema and len(value) > schema["maxLength"]:
        errors.append(f"{path}: takes at most {schema['maxLength']} characters")
    if "pattern" in schema and _regex(schema["pattern"]).search(value) is None:
        errors.append(f"{path}: {value!r} does not match the pattern {schema['pattern']!r}")


def _check_array(value: list, schema: dict, path: str, errors: list[str], noun: str) -> None:
    if "minItems" in schema and len(value) < schema["minItems"]:
        errors.append(f"{path}: needs at least {schema['minItems']} items")
    if "maxItems" in schema and len(value) > schema["maxItems"]:
        errors.append(f"{path}: takes at most {schema['maxItems']} items")
    if schema.get("uniqueItems") and len({freeze(v) for v in value}) != len(value):
        errors.append(f"{path}: items must be unique")
    items = schema.get("items")
    if items is not None:
        for i, item in enumerate(value):
            _check(item, items, f"{path}[{i}]", errors, noun)


def _check_object(value: dict, schema: dict, path: str, errors: list[str], noun: str) -> None:
    props = schema.get("properties", {})
    for name in schema.get("required", ()):
        if name not in value:
            errors.append(f"{path}.{name}: is required")
    extra = schema.get("additionalProperties", True)
    names = schema.get("propertyNames")
    for key, item in value.items():
        if not isinstance(key, str):
            errors.append(f"{path}: keys must be strings")
            continue
        if names is not None:
            _check(key, names, f"{path} key {key!r}", errors, noun)
        if key in props:
            _check(item, props[key], f"{path}.{key}", errors, noun)
        elif extra is False:
            errors.append(f"{path}.{key}: is not a field of this {noun}")
        elif isinstance(extra, dict):
            _check(item, extra, f"{path}.{key}", errors, noun)
    if "minProperties" in schema and len(value) < schema["minProperties"]:
        errors.append(f"{path}: needs at least {schema['minProperties']} entries")
    if "maxProperties" in schema and len(value) > schema["maxProperties"]:
        errors.append(f"{path}: takes at most {schema['maxProperties']} entries")


def _json_type(value) -> str:
    for name, test in _TYPES.items():
        if name != "number" and test(value):
            return name
    return "number" if isinstance(value, float) else type(value).__name__


