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
from referee.core.schemafast import checker, conforms

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
    """The writer and reader of values of `schema` (its kind as `_kind` decides it, the one
    decision the compiled codec takes too)."""
    kind, nullable, arg = _kind(schema)
    return _nullable(nullable, *_BUILDERS[kind](arg))


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


def _parse_integer(token):
    if token.isascii() and token.isdigit():   # the common case, without the regex
        return int(token)
    if not _INTEGER.fullmatch(token):
        raise ValueError(token)
    return int(token)


def _parse_number(token):
    if not _NUMBER.fullmatch(token):
        raise ValueError(token)
    return int(token) if _INTEGER.fullmatch(token) else float(token)


def _parse_boolean(token):
    if token not in ("0", "1"):
        raise ValueError(token)
    return token == "1"


def _parse_string(token):
    if token != '""' and (not token or any(c not in _SAFE and c != "%" for c in token)):
        raise ValueError(token)
    return unescape(token)


def _integer(_):
    return _scalar(str, _parse_integer, "an integer")


def _number(_):
    return _scalar(repr, _parse_number, "a number")


def _boolean(_):
    return _scalar(lambda v: "1" if v else "0", _parse_boolean, "1 or 0")


def _string(_):
    return _scalar(escape, _parse_string, "a string")


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


def _one_of(solid: list):
    """Two or more branches (null left to the wrapper): a letter, then the branch's text."""
    built = [build(b) for b in solid]
    letters = _LETTERS[:len(solid)]

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
    return write, read


def _array(items: dict):
    write_item, read_item = build(items)

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


def _fixed(arg):
    """An object with exactly these keys: its values in this order, `(v1,...)`."""
    keys, schemas = arg
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


def _keyed(arg):
    """A mapping of any of its keys: `{key:value,...}`, in its own order; keys from a fixed
    list (`propertyNames` enum) written as `initials` writes that list's values."""
    schema, codes = arg
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
            try:
                key = keys[token] if token in keys else unescape(token)
            except ValueError:   # escapes that are not UTF-8: a broken text, not a crash
                reader.at -= len(token)
                raise reader.fail("a key") from None
            reader.expect(":")
            value[key] = read_value(reader)
            if reader.peek("}"):
                reader.at += 1
                return value
            reader.expect(",")
    return write, read


def _free(_=None):
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


_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_BUILDERS = {"integer": _integer, "number": _number, "boolean": _boolean, "string": _string,
             "free": _free, "enum": _enum, "array": _array, "fixed": _fixed, "keyed": _keyed,
             "oneOf": _one_of}
"""The closures of each kind `_kind` names, from what it says the kind needs."""


# The compiled codec. The closures above are the notation's definition and its error
# reporter; a check of positions calls them for every state of every playout, and their
# call per value (and the Reader's per scalar) was most of what a round trip cost. So each
# schema is also compiled, as `schemafast` compiles its checks, into the source of one
# writer (an expression per value) and one reader (statements over the text's tokens).
# The compiled reader may only give a value where the closures give the same one: where it
# meets anything else it raises, and `Notation` asks the closures (for their message).

_SPLIT = re.compile("[,()\\[\\]{}:]|[^,()\\[\\]{}:]+").findall
"""A text's tokens: each delimiter alone, and each run between (its scalars, `~`, a oneOf
letter with what follows it); a scalar ends at the same delimiters as `_TOKEN`'s, `([{`
aside, which never follow one in a text that reads."""
_DELIMITERS = frozenset(",()[]{}:")
_SMALL = {str(n): n for n in range(-64, 1024)}
"""The integers most positions are made of, read without `int`."""
_MISSING = object()


class _Miss(Exception):
    """The compiled reader cannot read the text as the closures would: they read it."""


def _miss(token):
    raise _Miss(token)


def _read_string(token):
    if token.isascii() and token.isalnum():  # no escape, nothing to check
        return token
    return _parse_string(token)


def _read_free(token):
    if token[:1] != "'":
        raise _Miss(token)
    return orjson.loads(unescape(token[1:]))


_TABLES = {"integer": (_SMALL, _parse_integer), "number": (_SMALL, _parse_number),
           "boolean": ({"0": False, "1": True}, _miss), "string": ({'""': ""}, _read_string),
           "free": ({}, _read_free)}
"""Per scalar kind: the tokens read by a look-up, and the function reading any other."""
_SCALARS = frozenset([*_TABLES, "enum"])


def compile_codec(schema: dict):
    """`(write, read)` compiled from `schema`: `write(value) -> text`, `read(text, start)
    -> value`; either raises where the closures of `build` may differ (they decide)."""
    return _Compiler().codec(schema)


class _Compiler:
    """Writes the source of one schema's writer and reader, then compiles them."""

    def __init__(self):
        self.scope: dict = {"escape": escape, "unescape": unescape, "dumps": orjson.dumps,
                            "_SPLIT": _SPLIT, "_Miss": _Miss, "_M": _MISSING,
                            "_D": _DELIMITERS}
        self.functions: list[str] = []
        self.count = 0

    def codec(self, schema: dict):
        """Compile the writer and the reader of `schema`."""
        write = self._expression(schema, "v")
        body = self._read(schema, "v", 1, False)
        source = "\n".join([*self.functions, f"def write(v):\n    return {write}",
                            "def read(text, start):",
                            "    nx = iter(_SPLIT(text, start)).__next__", *body,
                            "    try: nx()", "    except StopIteration: return v",
                            "    raise _Miss  # more after the value"])
        exec(compile(source, "<notation codec>", "exec"), self.scope)  # our own source
        return self.scope["write"], self.scope["read"]

    def name(self, prefix: str = "n") -> str:
        self.count += 1
        return f"{prefix}{self.count}"

    def constant(self, value) -> str:
        name = self.name("_c")
        self.scope[name] = value
        return name

    # -- the writer: one expression per value, `e` a name or a subscript of one

    def _expression(self, schema: dict, e: str) -> str:
        kind, nullable, arg = _kind(schema)
        if not nullable:
            return self._solid(kind, arg, e)
        n = self.name()
        return f'("~" if ({n} := {e}) is None else {self._solid(kind, arg, n)})'

    def _solid(self, kind: str, arg, e: str) -> str:
        if kind == "integer":
            return f"str({e})"
        if kind == "number":
            return f"repr({e})"
        if kind == "boolean":
            return f'("1" if {e} else "0")'
        if kind == "string":
            return f"escape({e})"
        if kind == "free":
            return f"(\"'\" + escape(dumps({e}).decode()))"
        if kind == "enum":
            return self._enum_write(arg, e)
        if kind == "array":
            y = self.name("y")
            return f'("[" + ",".join([{self._expression(arg, y)} for {y} in {e}]) + "]")'
        if kind == "fixed":
            keys, schemas = arg
            if not keys:
                return '"()"'
            parts = ", ".join(self._expression(s, f"{e}[{k!r}]") for k, s in zip(keys, schemas))
            return f'("(" + ",".join(({parts},)) + ")")'
        if kind == "keyed":
            item, codes = arg
            k, y = self.name("k"), self.name("y")
            key = f"({self.constant(codes)}.get({k}) or escape({k}))" if codes else \
                f"escape({k})"
            return (f'("{{" + ",".join([{key} + ":" + {self._expression(item, y)} '
                    f'for {k}, {y} in {e}.items()]) + "}}")')
        return f"{self._one_of_write(arg)}({e})"  # "oneOf"

    def _enum_write(self, values: list, e: str) -> str:
        codes = initials([v for v in values if v is not None]) or {}
        # as `_enum`'s writer: a string's code, else its token (the same for any other value)
        strings = self.constant({v: codes.get(v) or _token(v) for v in values
                                 if isinstance(v, str)})
        other = self.constant(lambda v: (codes.get(v) if isinstance(v, str) else None)
                              or _token(v))
        n = self.name()
        return f"(({strings}.get({n}) if type({n} := {e}) is str else None) or {other}({n}))"

    def _one_of_write(self, branches: list) -> str:
        name = self.name("_one")
        lines = [f"def {name}(v):"]
        for letter, branch in zip(_LETTERS, branches):
            test = self.constant(checker(branch))
            lines.append(f"    if {test}(v): return {letter!r} + {self._expression(branch, 'v')}")
        lines.append("    raise ValueError(v)")
        self.functions.append("\n".join(lines))
        return name

    # -- the reader: statements taking tokens from `nx`; `have`: the value's first token is
    # already in `t`

    def _read(self, schema: dict, target: str, level: int, have: bool) -> list[str]:
        pad = "    " * level
        kind, nullable, arg = _kind(schema)
        lines = [] if have else [f"{pad}t = nx()"]
        if kind in _SCALARS:
            table, parse = self._scalar_read(kind, arg, nullable)
            lines.append(f"{pad}{target} = {table}.get(t, _M)")
            lines.append(f"{pad}if {target} is _M: {target} = {parse}(t)")
            return lines
        inner = self._container_read(kind, arg, target, level + nullable)
        if not nullable:
            return lines + inner
        return lines + [f'{pad}if t == "~": {target} = None', f"{pad}else:"] + inner

    def _scalar_read(self, kind: str, arg, nullable: bool):
        """The table of the tokens read at once and the function reading any other."""
        if kind == "enum":
            codes = initials([v for v in arg if v is not None]) or {}
            tokens = {codes.get(v) or _token(v): v for v in arg}
            table = {**{_token(v): v for v in arg}, **tokens}  # full names read too
            parse = _miss
        else:
            table, parse = _TABLES[kind]
        return self.constant({**table, "~": None} if nullable else table), \
            self.constant(parse)

    def _container_read(self, kind, arg, target, level) -> list[str]:
        pad = "    " * level
        if kind == "array":
            items, x = self.name("a"), self.name("x")
            return [f'{pad}if t != "[": raise _Miss', f"{pad}{items} = []", f"{pad}t = nx()",
                    f'{pad}if t != "]":', f"{pad}    while True:",
                    *self._read(arg, x, level + 2, True),
                    f"{pad}        {items}.append({x})", f"{pad}        t = nx()",
                    f'{pad}        if t == "]": break', f'{pad}        if t != ",": raise _Miss',
                    f"{pad}        t = nx()", f"{pad}{target} = {items}"]
        if kind == "fixed":
            keys, schemas = arg
            lines, names = [f'{pad}if t != "(": raise _Miss'], []
            for i, sub in enumerate(schemas):
                if i:
                    lines.append(f'{pad}if nx() != ",": raise _Miss')
                names.append(self.name("f"))
                lines += self._read(sub, names[-1], level, False)
            fields = ", ".join(f"{k!r}: {n}" for k, n in zip(keys, names))
            return lines + [f'{pad}if nx() != ")": raise _Miss', f"{pad}{target} = {{{fields}}}"]
        if kind == "keyed":
            item, codes = arg
            value, key, x = self.name("d"), self.name("k"), self.name("x")
            keys = self.constant({code: k for k, code in codes.items()})
            return [f'{pad}if t != "{{": raise _Miss', f"{pad}{value} = {{}}", f"{pad}t = nx()",
                    f'{pad}if t != "}}":', f"{pad}    while True:",
                    # an empty key (a delimiter here) is the closures' to read
                    f"{pad}        if t in _D: raise _Miss",
                    f"{pad}        {key} = {keys}[t] if t in {keys} else unescape(t)",
                    f'{pad}        if nx() != ":": raise _Miss',
                    *self._read(item, x, level + 2, False),
                    f"{pad}        {value}[{key}] = {x}", f"{pad}        t = nx()",
                    f'{pad}        if t == "}}": break', f'{pad}        if t != ",": raise _Miss',
                    f"{pad}        t = nx()", f"{pad}{target} = {value}"]
        # oneOf: its letter, then the branch from the rest of the token or the next one
        lines = [f"{pad}letter, t = t[:1], t[1:] or nx()"]
        for i, (letter, branch) in enumerate(zip(_LETTERS, arg)):
            lines.append(f"{pad}{'elif' if i else 'if'} letter == {letter!r}:")
            lines += self._read(branch, target, level + 1, True)
        return lines + [f"{pad}else: raise _Miss"]


def _kind(schema: dict):
    """`(kind, nullable, what the kind needs)` of a schema: what both codecs build from."""
    if "oneOf" in schema:
        solid = [b for b in schema["oneOf"] if b.get("type") != "null"]
        nullable = len(solid) < len(schema["oneOf"])
        if len(solid) == 1:  # null read and written as `~` by whichever wrapper says so
            kind, inner, arg = _kind(solid[0])
            return kind, nullable or inner, arg
        return "oneOf", nullable, solid
    if "const" in schema:
        return "enum", False, [schema["const"]]
    if "enum" in schema:
        return "enum", False, schema["enum"]
    kinds = schema.get("type")
    kinds = kinds if isinstance(kinds, list) else [kinds] if kinds else []
    solid = [k for k in kinds if k != "null"]
    nullable = len(solid) < len(kinds)
    if len(solid) != 1:
        return "free", nullable, None
    if solid[0] == "array":
        return "array", nullable, schema.get("items", {})
    if solid[0] != "object":
        return solid[0], nullable, None
    props, extra = schema.get("properties"), schema.get("additionalProperties", True)
    required = set(schema.get("required", ()))
    if props and extra is False and required == set(props):
        return "fixed", nullable, (list(props), [props[k] for k in props])
    if not props and isinstance(extra, dict):
        keys = schema.get("propertyNames", {}).get("enum")
        if keys is not None and required == set(keys):
            return "fixed", nullable, (list(keys), [extra] * len(keys))
        return "keyed", nullable, (extra, initials(keys or []) or {})
    return "free", nullable, None
