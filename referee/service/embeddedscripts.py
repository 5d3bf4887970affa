"""The store's hot scripts in Python for the embedded store (fakeredis), run on its data.

fakeredis runs a Lua script through its Lua bridge and its command layer, some 40-250 us per
`redis.call`: the commit script took about 1 ms a move on the embedded default, ten times the
rules of a move. Here the same scripts are Python functions that work on fakeredis' in-memory
data under its server lock (what one command or script holds), with the same effects: the
same values in the same types, watchers told, emptied keys removed, the change published to
channel and pattern subscribers. tests/service/test_embedded_scripts.py runs the Lua and the
Python version on twin servers and compares every key.

This reads fakeredis internals (FakeServer.lock, .dbs, .subscribers, .psubscribers; Database
and Item; the set, sorted-set and hash models), so pyproject.toml pins the fakeredis range
these were written against, and `embedded_runner` answers None for any other version (the
Lua script runs then, slowly but right). A script falls back to Lua too when a keyspace
notification could be heard (fakeredis sends them to whoever subscribes to `__key*` or
`__subkey*` channels), which these functions do not send.
"""

from __future__ import annotations

import re
import time

import redis

SUPPORTED = ((2, 41), (2, 42))
"""fakeredis versions [from, to) whose internals these functions were written against."""

_WRONGTYPE = "WRONGTYPE Operation against a key holding the wrong kind of value"
_SPECIAL = re.compile(rb"[*?\[\\]")


def embedded_runner(client, python_script, lua_script):
    """A callable `(keys=..., args=...)` running `python_script(data, keys, args)` on the
    fakeredis server behind `client`; None when `client` is not a decoding fakeredis client
    (the twins answer text, as the store's client reads replies) of a supported version.
    `lua_script` (the same script as redis-py's Script) runs instead when a keyspace
    notification could be heard."""
    pool = getattr(client, "connection_pool", None)
    settings = getattr(pool, "connection_kwargs", {})
    server = settings.get("server")
    if server is None or not settings.get("decode_responses") or not _supported():
        return None
    return EmbeddedScript(server, settings.get("db", 0), python_script, lua_script)


def _supported() -> bool:
    try:
        import fakeredis
        version = tuple(int(p) for p in fakeredis.__version__.split(".")[:2])
    except (ImportError, ValueError, AttributeError):
        return False
    return SUPPORTED[0] <= version < SUPPORTED[1]


def _bytes(value) -> bytes:
    """An argument as Redis stores it: bytes as they are, anything else as its text."""
    return value if isinstance(value, bytes) else str(value).encode()


class EmbeddedScript:
    """One hot script over a fakeredis server: the Python version under the server lock."""

    def __init__(self, server, db: int, python_script, lua_script):
        self.server, self.db, self.python, self.lua = server, db, python_script, lua_script
        self._heard: dict[bytes, bool] = {}
        self._data = Data(server)

    def __call__(self, keys=(), args=()):
        """The script's reply, as the Lua script's through a decoding client."""
        if self._keyspace_heard():
            return self.lua(keys=keys, args=args)
        server = self.server
        with server.lock:
            now = time.time()
            for db in server.dbs.values():   # as fakeredis does before every command
                db.time = now
            data = self._data
            data.db, data.changed = server.dbs[self.db], False
            try:
                return self.python(data, keys, args)
            finally:
                data.done()

    def _keyspace_heard(self) -> bool:
        """Whether a subscriber could receive a keyspace or keyevent notification."""
        server = self.server
        if any(bytes(c).startswith(b"__") for c, s in list(server.subscribers.items()) if s):
            return True
        for pattern, socks in list(server.psubscribers.items()):
            if socks:
                heard = self._heard.get(pattern)
                if heard is None:   # the pattern's literal start decides it
                    literal = _SPECIAL.split(pattern, 1)[0]
                    heard = self._heard[pattern] = b"__".startswith(literal[:2])
                if heard:
                    return True
        return False


class Data:
    """The commands the hot scripts use, on fakeredis database `db` (its lock held), with what
    fakeredis' own commands do: a changed key tells its watchers, an emptied one is removed,
    a write clears the expiry; `done()` then wakes blocked clients once, as each command
    would have."""

    def __init__(self, server):
        from fakeredis._core import Item
        from fakeredis._helpers import compile_pattern
        from fakeredis.model import ExpiringMembersSet, Hash, ZSet
        self.server, self.db, self.changed = server, None, False
        self._new, self._set, self._zset, self._hash = Item, ExpiringMembersSet, ZSet, Hash
        self._pattern = compile_pattern

    def _get(self, name: bytes, kind):
        """The stored Item (None if missing or expired); WRONGTYPE if it holds another type."""
        item = self.db.get(name)
        if item is not None and kind is not None and type(item.value) is not kind:
            raise redis.ResponseError(_WRONGTYPE)
        return item

    def _touched(self, name: bytes) -> None:
        if self.db.has_watch(name):
            self.db.notify_watch(name)
        self.changed = True

    def done(self) -> None:
        """Wake clients blocked on this database (BLPOP and the like) if a key changed."""
        if self.changed:
            self.db.wake_all()

    def get(self, key: str) -> str | None:
        """GET, decoded."""
        item = self._get(key.encode(), bytes)
        return None if item is None else item.value.decode()

    def set(self, key: str, value: str | bytes) -> None:
        """SET without options (any expiry goes)."""
        name = key.encode()
        item = self.db.get(name)
        if item is None:
            self.db[name] = self._new(_bytes(value))
        else:
            item.value, item.expireat = _bytes(value), None
        self._touched(name)

    def rpush(self, key: str, values: list) -> None:
        """RPUSH of each value."""
        name = key.encode()
        item = self._get(name, list)
        if item is None:
            self.db[name] = self._new([_bytes(v) for v in values])
        else:
            item.value.extend(_bytes(v) for v in values)
        self._touched(name)

    def sadd(self, key: str, member: str) -> None:
        """SADD of one member (the key counts as changed even when the member was there)."""
        name = key.encode()
        item = self._get(name, self._set)
        if item is None:
            item = self.db[name] = self._new(self._set())
        item.value.update((member.encode(),))
        self._touched(name)

    def srem(self, key: str, member: str) -> None:
        """SREM of one member."""
        self._remove(key.encode(), self._set, member.encode())

    def zadd(self, key: str, score: str, member: str) -> None:
        """ZADD of one member, no options."""
        name = key.encode()
        item = self._get(name, self._zset)
        if item is None:
            zset = self._zset()
            zset.add(member.encode(), 0.0 + float(score))
            self.db[name] = self._new(zset)
            self._touched(name)
        elif item.value.add(member.encode(), 0.0 + float(score)):
            self._touched(name)

    def zrem(self, key: str, member: str) -> None:
        """ZREM of one member."""
        self._remove(key.encode(), self._zset, member.encode())

    def _remove(self, name: bytes, kind, member: bytes) -> None:
        item = self._get(name, kind)
        if item is None or member not in item.value:
            return
        item.value.discard(member)
        if not len(item.value):
            del self.db[name]
        self._touched(name)

    def hexists(self, key: str, field: str) -> bool:
        """HEXISTS."""
        item = self._get(key.encode(), self._hash)
        return item is not None and field.encode() in item.value

    def hget(self, key: str, field: str) -> str | None:
        """HGET, decoded."""
        item = self._get(key.encode(), self._hash)
        value = None if item is None else item.value.get(field.encode())
        return None if value is None else value.decode()

    def hset(self, key: str, field: str, value: str) -> None:
        """HSET of one field (its own expiry goes, as in Redis)."""
        name = key.encode()
        item = self._get(name, self._hash)
        if item is None:
            item = self.db[name] = self._new(self._hash())
        item.value.update({field.encode(): value.encode()}, clear_expiration=True)
        self._touched(name)

    def expire(self, key: str, seconds: int) -> None:
        """EXPIRE without options, on an existing key."""
        name = key.encode()
        item = self.db.get(name)
        if item is not None:
            item.expireat = self.db.time + int(seconds)
            self.db.schedule_expiry(name, item.expireat)
            self._touched(name)

    def publish(self, channel: str, message: str) -> int:
        """PUBLISH to channel and pattern subscribers, as fakeredis' PUBLISH does."""
        name, data, server = channel.encode(), message.encode(), self.server
        receivers = 0
        for sock in server.subscribers.get(name, ()):
            sock.put_response([b"message", name, data])
            receivers += 1
        for pattern, socks in server.psubscribers.items():
            if self._pattern(pattern).match(name):
                for sock in socks:
                    sock.put_response([b"pmessage", pattern, name, data])
                    receivers += 1
        return receivers


# -- the scripts (store.py's _COMMIT and _LIVE_SINCE, line for line) -----------------------

def commit(data: Data, keys: list, args: list) -> int:
    """store.py's _COMMIT: 1 committed, 0 the version moved on, -1 the idempotency key landed."""
    live, ver, log, idem = keys
    expected, version, channel, key, ttl = (str(a) for a in (args[0], args[1], *args[3:6]))
    record = args[2]
    if data.get(ver) != expected:
        return 0
    if key != "":
        if data.hexists(idem, key):
            return -1
        data.hset(idem, key, version)
        data.expire(idem, ttl)
    data.set(live, record)
    data.set(ver, version)
    if len(args) > 6:
        data.rpush(log, args[6:])
    for passed in range(int(expected) + 1, int(version)):
        data.publish(channel, str(passed))
    data.publish(channel, version)
    return 1


def live_since(data: Data, keys: list, args: list):
    """store.py's _LIVE_SINCE: None without the match, [version] while it is at the known
    version, else [version, live record]."""
    version = data.get(keys[0])
    if version is None:
        return None
    if version == str(args[0]):
        return [version]
    return [version, data.get(keys[1])]


def index(data: Data, keys: list, args: list) -> int:
    """indexes.py's _INDEX: versioned adds and clears of one match's index entries."""
    versions, automated, remote, matches = keys
    match_id, version, is_automated, due, created = (str(a) for a in args)
    v = float(version)

    def may(field: str, adding: bool) -> bool:
        last = data.hget(versions, field + match_id)
        last = -1.0 if last is None else float(last)
        if v < last or (not adding and v == last):
            return False
        data.hset(versions, field + match_id, version)
        return True
    if is_automated == "1" and may("a:", True):
        data.sadd(automated, match_id)
    if is_automated == "0" and may("a:", False):
        data.srem(automated, match_id)
    if due == "-":
        if may("d:", False):
            data.zrem(remote, match_id)
    elif due != "" and may("d:", True):
        data.zadd(remote, due, match_id)
    if created != "":
        data.zadd(matches, created, match_id)
    return 1
