"""Compiled yes/no checks for the schema subset of `referee.core.schema`.

Most values checked are valid: a state read back, a view in the conformance suite, a bot's
move. Walking the schema dict for each of them (and building a JSON path for every field
just in case) cost the conformance suite most of its time. So each schema is compiled once,
as fastjsonschema does, into the source of one Python function that only answers "does it
conform?"; the error-reporting walk in `schema` runs only when the answer is no, so the
messages are unchanged. The compiled check may only say yes when the walk finds nothing;
a no it cannot be sure of (a subclass of a JSON type) just sends the value to the walk.
"""

from __future__ import annotations

import re
from typing import Callable

Check = Callable[[object], bool]

_IS = {  # exact types: a subclass (an IntEnum, an OrderedDict) only takes the slow walk
    "object": "type({v}) is dict",
    "array": "type({v}) is list",
    "string": "type({v}) is str",
    "boolean": "type({v}) is bool",
    "integer": "type({v}) is int",
    "number": "type({v}) in _NUMBERS",
    "null": "{v} is None",
}
_BRANCH = {"number": "(isinstance({v}, (int, float)) and not isinstance({v}, bool))",
           "string": "isinstance({v}, str)", "array": "isinstance({v}, list)",
           "object": "isinstance({v}, dict)"}
_CACHE: dict[int, tuple[dict, Check]] = {}
_CACHE_LIMIT = 4096


def conforms(value, schema: dict) -> bool:
    """Whether `value` fits `schema` (the same verdict as an empty `schema_errors`)."""
    entry = _CACHE.get(id(schema))
    if entry is None or entry[0] is not schema:
        return checker(schema)(value)
    return entry[1](value)


def checker(schema: dict) -> Check:
    """The compiled check of `schema` (compiled once per schema object, then remembered):
    for a caller that checks many values against one schema without a lookup each time."""
    entry = _CACHE.get(id(schema))
    if entry is None or entry[0] is not schema:
        if len(_CACHE) >= _CACHE_LIMIT:  # schemas built per call must not grow it forever
            _CACHE.clear()
        entry = _CACHE[id(schema)] = (schema, compile_check(schema))
    return entry[1]


def compile_check(schema: dict) -> Check:
    """One function answering whether a value fits `schema` (checked by `check_schema`)."""
    return _Writer().function(schema)


def freeze(value):
    """A hashable copy of a JSON value (for uniqueItems)."""
    if isinstance(value, dict):
        return tuple(sorted((k, freeze(v)) for k, v in value.items()))
    if isinstance(value, list):
        return tuple(freeze(v) for v in value)
    return value


class _Writer:
    """Writes the source of the checking functions of one schema, then compiles it."""

    def __init__(self):
        self.constants: dict[str, object] = {"freeze": freeze, "_NUMBERS": (int, float)}
        self.functions: list[list[str]] = []

    def function(self, schema: dict) -> Check:
        """Compile `schema` to a function; its helpers (oneOf options) come along."""
        name = self._function(schema)
        source = "\n".join(line for lines in self.functions for line in lines)
        scope = dict(self.constants)
        exec(compile(source, "<schema check>", "exec"), scope)  # our own generated source
        return scope[name]

    def _function(self, schema: dict) -> str:
        name = f"_check{len(self.functions)}"
        lines = [f"def {name}(v0):"]
        self.functions.append(lines)
        lines.extend(self._node(schema, "v0", 1, 1))
        lines.append("    return True")
        return name

    def _constant(self, value) -> str:
        name = f"_c{len(self.constants)}"
        self.constants[name] = value
        return name

    def _node(self, schema: dict, v: str, depth: int, level: int) -> list[str]:
        pad, out = "    " * level, []
        expected = schema.get("type")
        kinds = expected if isinstance(expected, list) else [expected] if expected else []
        if kinds:
            test = " or ".join(_IS[k].format(v=v) for k in kinds)
            out.append(f"{pad}if not ({test}): return False")
        if "const" in schema:
            out.append(f"{pad}if {v} != {self._constant(schema['const'])}: return False")
        if "enum" in schema:
            out.append(f"{pad}if {v} not in {self._constant(schema['enum'])}: return False")
        if "oneOf" in schema:
            calls = ", ".join(f"{self._function(option)}({v})" for option in schema["oneOf"])
            out.append(f"{pad}if sum(({calls},)) != 1: return False")
        out.extend(self._branches(schema, v, depth, level, kinds))
        return out

    def _branches(self, schema, v, depth, level, kinds) -> list[str]:
        bodies = {"number": self._number(schema, v, level + 1),
                  "string": self._string(schema, v, level + 1),
                  "array": self._array(schema, v, depth, level + 1),
                  "object": self._object(schema, v, depth, level + 1)}
        single = kinds[0] if len(kinds) == 1 else None
        single = "number" if single == "integer" else single
        out, pad = [], "    " * level
        for branch, body in bodies.items():
            if not body or (single is not None and single != branch):
                continue
            if single == branch:  # the type check above already decided the branch
                out.extend(line[4:] for line in body)
            else:
                out.append(f"{pad}if {_BRANCH[branch].format(v=v)}:")
                out.extend(body)
        return out

    def _bounds(self, schema, v, level, low, high, measure) -> list[str]:
        pad, out = "    " * level, []
        if low in schema:
            out.append(f"{pad}if {measure.format(v=v)} < {schema[low]!r}: return False")
        if high in schema:
            out.append(f"{pad}if {measure.format(v=v)} > {schema[high]!r}: return False")
        return out

    def _number(self, schema, v, level) -> list[str]:
        return self._bounds(schema, v, level, "minimum", "maximum", "{v}")

    def _string(self, schema, v, level) -> list[str]:
        out = self._bounds(schema, v, level, "minLength", "maxLength", "len({v})")
        if "pattern" in schema:
            search = self._constant(re.compile(schema["pattern"]).search)
            out.append(f"{'    ' * level}if {search}({v}) is None: return False")
        return out

    def _array(self, schema, v, depth, level) -> list[str]:
        pad = "    " * level
        out = self._bounds(schema, v, level, "minItems", "maxItems", "len({v})")
        if schema.get("uniqueItems"):
            out.append(f"{pad}if len({{freeze(x) for x in {v}}}) != len({v}): return False")
        if schema.get("items") is not None:
            item = f"v{depth}"
            body = self._node(schema["items"], item, depth + 1, level + 1)
            if body:
                out.append(f"{pad}for {item} in {v}:")
                out.extend(body)
        return out

    def _object(self, schema, v, depth, level) -> list[str]:
        pad, out, item = "    " * level, [], f"v{depth}"
        for name in schema.get("required", ()):
            out.append(f"{pad}if {name!r} not in {v}: return False")
        props = schema.get("properties", {})
        known = self._constant(frozenset(props))
        extra = schema.get("additionalProperties", True)
        names = schema.get("propertyNames")
        if extra is False and names is None:  # keys among the known names are all strings
            out.append(f"{pad}if not {known}.issuperset({v}): return False")
        else:
            out.append(f"{pad}for k{depth}, {item} in {v}.items():")
            out.append(f"{pad}    if not isinstance(k{depth}, str): return False")
            if names is not None:
                out.extend(self._node(names, f"k{depth}", depth + 1, level + 1))
            if extra is False:
                out.append(f"{pad}    if k{depth} not in {known}: return False")
            elif isinstance(extra, dict):
                body = self._node(extra, item, depth + 1, level + 2)
                if body:
                    out.append(f"{pad}    if k{depth} not in {known}:")
                    out.extend(body)
        for name, sub in props.items():
            body = self._node(sub, item, depth + 1, level + 1)
            if body:
                out.append(f"{pad}if {name!r} in {v}:")
                out.append(f"{pad}    {item} = {v}[{name!r}]")
                out.extend(body)
        out.extend(self._bounds(schema, v, level, "minProperties", "maxProperties", "len({v})"))
        return out
