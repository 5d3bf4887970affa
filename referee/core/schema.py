"""A small validator for the JSON Schema subset that move kinds are declared in.

Move schemas double as OpenAPI documentation, so they are written as JSON Schema; the core
checks them itself (no dependency) with the keywords below:
type, properties, required, additionalProperties (bool), enum, const, minimum, maximum,
items, minItems, maxItems, uniqueItems, minProperties, maxProperties, propertyNames.
"""

from __future__ import annotations

_TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "null": lambda v: v is None,
}


def schema_errors(value, schema: dict, path: str = "move") -> list[str]:
    """All the ways `value` breaks `schema`, each as `path: reason`; empty when it conforms."""
    errors: list[str] = []
    _check(value, schema, path, errors)
    return errors


def _check(value, schema: dict, path: str, errors: list[str]) -> None:
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
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        _check_range(value, schema, path, errors)
    if isinstance(value, list):
        _check_array(value, schema, path, errors)
    if isinstance(value, dict):
        _check_object(value, schema, path, errors)


def _check_range(value, schema: dict, path: str, errors: list[str]) -> None:
    if "minimum" in schema and value < schema["minimum"]:
        errors.append(f"{path}: {value} is below the minimum {schema['minimum']}")
    if "maximum" in schema and value > schema["maximum"]:
        errors.append(f"{path}: {value} is above the maximum {schema['maximum']}")


def _check_array(value: list, schema: dict, path: str, errors: list[str]) -> None:
    if "minItems" in schema and len(value) < schema["minItems"]:
        errors.append(f"{path}: needs at least {schema['minItems']} items")
    if "maxItems" in schema and len(value) > schema["maxItems"]:
        errors.append(f"{path}: takes at most {schema['maxItems']} items")
    if schema.get("uniqueItems") and len({_freeze(v) for v in value}) != len(value):
        errors.append(f"{path}: items must be unique")
    items = schema.get("items")
    if items is not None:
        for i, item in enumerate(value):
            _check(item, items, f"{path}[{i}]", errors)


def _check_object(value: dict, schema: dict, path: str, errors: list[str]) -> None:
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
            _check(key, names, f"{path} key {key!r}", errors)
        if key in props:
            _check(item, props[key], f"{path}.{key}", errors)
        elif extra is False:
            errors.append(f"{path}.{key}: is not a field of this move")
        elif isinstance(extra, dict):
            _check(item, extra, f"{path}.{key}", errors)
    if "minProperties" in schema and len(value) < schema["minProperties"]:
        errors.append(f"{path}: needs at least {schema['minProperties']} entries")
    if "maxProperties" in schema and len(value) > schema["maxProperties"]:
        errors.append(f"{path}: takes at most {schema['maxProperties']} entries")


def _json_type(value) -> str:
    for name, test in _TYPES.items():
        if name != "number" and test(value):
            return name
    return "number" if isinstance(value, float) else type(value).__name__


def _freeze(value):
    if isinstance(value, dict):
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value
