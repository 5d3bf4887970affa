"""The writer and reader of `referee.core.notation`, derived from a schema (no I/O).

`build(schema)` gives `(write, read)`: `write(value, out)` appends the value's text to the
list `out`; `read(reader)` reads one value from a `Reader` at its position. Scalars are read
by one regex match up to the next delimiter: reading is most of what a check of positions
costs (the conformance suite reads every state of every playout).

Why one module: the writers and the readers of each schema kind are pairs that must agree
character for character; kept side by side, each pair is read (and changed) together.
"""

from __future__ import annotations

import re
from typing import Callable

import orjson

from referee.core.errors import InvalidState
from referee.core.schemafast import conforms

_SAFE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
                  "_.-!*;=+@$/?&^|<>#")
_TOKEN = re.compile("[^,)\\]}:]*")
"""A scalar: everything up to the next delimiter that can end one."""
_UNSAFE = re.compile("[^A-Za-z0-9_.\\-!*;=+@$/?&^|<>#]")
_ESCAPE = re.compile("%([0-9A-Fa-f]{2})")
_INTEGER = re.compile("-?[0-9]+")
_NUMBER = re.compile("-?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?")

Write = Callable[[object, list], None]


class Reader:
    """The text being read and the position reached."""

    __slots__ = ("text", "at")

    def __init__(self, text: str, at: int):
        self.text, self.at = text, at

    def fail(self, expected: str):
        """The InvalidState for a syntax error here; raise it."""
        found = self.text[self.at:self.at + 12] or "the end"
        return InvalidState(f"position, character {self.at}: expected {expected}, found "
                            f"{found!r}", path=f"position[{self.at}]")

    def token(self) -> str:
        """The scalar that starts here (up to the next delimiter)."""
        found = _TOKEN.match(self.text, self.at).group()
        self.at += len(found)
        return found

    def expect(self, char: str) -> None:
        """Step over `char`, which must come next."""
        if self.text.startswith(char, self.at):
            self.at += 1
        else:
            raise self.fail(repr(char))

    def peek(self, char: str) -> bool:
        """Whether `char` comes next."""
        return self.text.startswith(char, self.at)


def escape(text: str) -> str:
    """A string as the notation writes it."""
    if not text:
        return '""'
    return _UNSAFE.sub(lambda m: "".join(f"%{b:02X}" for b in m.group().encode()), text)


def unescape(token: str) -> str:
    """A written string read back."""
    if token == '""':
        return ""
    if "%" not in token:
        return token
    raw = bytearray()
    pos = 0
    for m in _ESCAPE.finditer(token):
        raw += token[pos:m.start()].encode() + bytes([int(m.group(1), 16)])
        pos = m.end()
    return (raw + token[pos:].encode()).decode()


def build(schema: dict):
    """The writer and reader of values of `schema`."""
    if "oneOf" in schema:
        return _one_of(schema["oneOf"])
    if "const" in schema:
        return _enum([schema["const"]])
    if "enum" in schema:
        return _enum(schema["enum"])
    kinds = schema.get("type")
    kinds = kinds if isinstance(kinds, list) else [kinds] if kinds else []
    solid = [k for k in kinds if k != "null"]
    if len(solid) != 1:
        return _nullable(len(solid) < len(kinds), *_free())
    return _nullable(len(solid) < len(kinds), *_BUILDERS[solid[0]](schema))


def _nullable(nullable: bool, write: Write, read):
    """`~` for null in front of a writer and reader, when the schema allows null."""
    if not nullable:
        return write, read

    def write_(value, out):
        if value is None:
            out.append("~")
        else:
            write(value, out)

    def read_(reader):
        if reader.peek("~"):
            reader.at += 1
            return None
        return read(reader)
    return write_, read_


def _scalar(show, parse, what: str):
    def write(value, out):
        out.append(show(value))

    def read(reader):
        token = reader.token()
        try:
            return parse(token)
        except (ValueError, UnicodeDecodeError):
            reader.at -= len(token)
            raise reader.fail(what) from None
    return write, read


def _integer(schema):
    def parse(token):
        if token.isascii() and token.isdigit():   # the common case, without the regex
            return int(token)
        if not _INTEGER.fullmatch(token):
            raise ValueError(token)
        return int(token)
    return _scalar(str, parse, "an integer")


def _number(schema):
    def parse(token):
        if not _NUMBER.fullmatch(token):
            raise ValueError(token)
        return int(token) if _INTEGER.fullmatch(token) else float(token)
    return _scalar(repr, parse, "a number")


def _boolean(schema):
    def parse(token):
        if token not in ("0", "1"):
            raise ValueError(token)
        return token == "1"
    return _scalar(lambda v: "1" if v else "0", parse, "1 or 0")


def _string(schema):
    def parse(token):
        if token != '""' and (not token or any(c not in _SAFE and c != "%" for c in token)):
            raise ValueError(token)
        return unescape(token)
    return _scalar(escape, parse, "a string")


def initials(values: list) -> dict | None:
    """Each string of an enum written as the initials of its words (split at `_`, `-`, a
    space), when every value is a non-empty string and no two share initials; else None.
    Names carry most of a position's length (Dschunke's special cards, `extra_take_white`,
    were a third of it) and the schema that lists them is served beside the text."""
    if not values or not all(isinstance(v, str) and v for v in values):
        return None
    short = {value: "".join(word[0] for word in _WORDS.split(value) if word) for value in values}
    if "" in short.values() or len(set(short.values())) != len(values):
        return None
    return {value: escape(code) for value, code in short.items()}


_WORDS = re.compile("[_\\- ]")


def _enum(values: list):
    codes = initials([v for v in values if v is not None]) or {}
    tokens = {}
    for value in values:
        tokens[codes.get(value) or _token(value)] = value
    if len(tokens) != len(values):
        raise ValueError(f"enum values that write alike: {values}")
    # the full names are read too: a text written by hand, or before initials
    names = {_token(v): v for v in values if _token(v) not in tokens}

    def write(value, out):
        code = codes.get(value) if isinstance(value, str) else None
        out.append(code or _token(value))

    def read(reader):
        start = reader.at
        if reader.peek("~") and None in values:
            reader.at += 1
            return None
        token = reader.token()
        if token in tokens:
            return tokens[token]
        if token in names:
            return names[token]
        reader.at = start
        raise reader.fail("one of " + ", ".join(tokens))
    return write, read


def _token(value) -> str:
    if value is None:
        return "~"
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return escape(value)
    raise ValueError(f"an enum value the notation cannot write: {value!r}")


def _one_of(branches: list):
    solid = [b for b in branches if b.get("type") != "null"]
    nullable = len(solid) < len(branches)
    if len(solid) == 1:
        return _nullable(nullable, *build(solid[0]))
    built = [build(b) for b in solid]
    letters = "abcdefghijklmnopqrstuvwxyz"[:len(solid)]

    def write(value, out):
        for letter, branch, (write_, _) in zip(letters, solid, built):
            if conforms(value, branch):
                out.append(letter)
                return write_(value, out)
        raise ValueError(f"a value no branch of the schema takes: {value!r}")

    def read(reader):
        letter = reader.text[reader.at:reader.at + 1]
        index = letters.find(letter) if letter else -1
        if index < 0:
            raise reader.fail("one of the letters " + ", ".join(letters))
        reader.at += 1
        return built[index][1](reader)
    return _nullable(nullable, write, read)


def _array(schema):
    write_item, read_item = build(schema.get("items", {}))

    def write(value, out):
        out.append("[")
        for k, item in enumerate(value):
            if k:
                out.append(",")
            write_item(item, out)
        out.append("]")

    def read(reader):
        reader.expect("[")
        items = []
        if reader.peek("]"):
            reader.at += 1
            return items
        while True:
            items.append(read_item(reader))
            if reader.peek("]"):
                reader.at += 1
                return items
            reader.expect(",")
    return write, read


def _object(schema):
    props, extra = schema.get("properties"), schema.get("additionalProperties", True)
    required = set(schema.get("required", ()))
    if props and extra is False and required == set(props):
        return _fixed(list(props), [props[k] for k in props])
    if not props and isinstance(extra, dict):
        keys = schema.get("propertyNames", {}).get("enum")
        if keys is not None and required == set(keys):
            return _fixed(list(keys), [extra] * len(keys))
        return _keyed(extra, initials(keys or []) or {})
    return _free()


def _fixed(keys: list, schemas: list):
    """An object with exactly these keys: its values in this order, `(v1,...)`."""
    built = [build(s) for s in schemas]
    pairs = list(zip(keys, built))

    def write(value, out):
        out.append("(")
        first = True
        for key, (write_, _) in pairs:
            if not first:
                out.append(",")
            first = False
            write_(value[key], out)
        out.append(")")

    def read(reader):
        reader.expect("(")
        value = {}
        for k, (key, (_, read_)) in enumerate(pairs):
            if k:
                reader.expect(",")
            value[key] = read_(reader)
        reader.expect(")")
        return value
    return write, read


def _keyed(schema: dict, codes: dict):
    """A mapping of any of its keys: `{key:value,...}`, in its own order; keys from a fixed
    list (`propertyNames` enum) written as `initials` writes that list's values."""
    write_value, read_value = build(schema)
    keys = {code: key for key, code in codes.items()}

    def write(value, out):
        out.append("{")
        for k, (key, item) in enumerate(value.items()):
            if k:
                out.append(",")
            out.append(codes.get(key) or escape(key))
            out.append(":")
            write_value(item, out)
        out.append("}")

    def read(reader):
        reader.expect("{")
        value = {}
        if reader.peek("}"):
            reader.at += 1
            return value
        while True:
            token = reader.token()
            key = keys[token] if token in keys else unescape(token)
            reader.expect(":")
            value[key] = read_value(reader)
            if reader.peek("}"):
                reader.at += 1
                return value
            reader.expect(",")
    return write, read


def _free():
    """A value the schema does not shape: `'` and its JSON, escaped."""
    def write(value, out):
        out.append("'" + escape(orjson.dumps(value).decode()))

    def read(reader):
        reader.expect("'")
        token = reader.token()
        try:
            return orjson.loads(unescape(token))
        except (orjson.JSONDecodeError, UnicodeDecodeError):
            reader.at -= len(token)
            raise reader.fail("JSON") from None
    return write, read


_BUILDERS = {"integer": _integer, "number": _number, "boolean": _boolean, "string": _string,
             "array": _array, "object": _object}
