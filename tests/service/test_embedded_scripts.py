"""The embedded store's Python twins of the hot scripts (referee/service/embeddedscripts.py)
against the Lua scripts they replace: the same command sequences on twin fakeredis servers,
one running the Lua script and one the Python version, must answer the same and leave every
key the same (type, value, expiry), and publish the same change messages."""

from __future__ import annotations

import time

import fakeredis
import pytest
import redis

from referee.service import embeddedscripts, indexes, store
from referee.service.embeddedscripts import EmbeddedScript
from referee.service.scripts import hot_script

P = "t"
KEYS = [f"{P}:m:a:live", f"{P}:m:a:ver", f"{P}:m:a:log", f"{P}:m:a:idem"]
IX = [f"{P}:ix:{{x}}:{n}" for n in ("ver", "automated", "remote-due", "matches")]


def twins():
    """Two clients on two fresh servers: (Lua side, Python side) with their scripts."""
    lua_client, py_client = (fakeredis.FakeRedis(server=fakeredis.FakeServer(),
                                                 decode_responses=True) for _ in range(2))
    lua = {name: lua_client.register_script(text)
           for name, text in (("commit", store._COMMIT), ("since", store._LIVE_SINCE),
                              ("index", indexes._INDEX))}
    python = {"commit": hot_script(py_client, store._COMMIT, embeddedscripts.commit),
              "since": hot_script(py_client, store._LIVE_SINCE, embeddedscripts.live_since),
              "index": hot_script(py_client, indexes._INDEX, embeddedscripts.index)}
    assert all(isinstance(s, EmbeddedScript) for s in python.values())
    return (lua_client, lua), (py_client, python)


def snapshot(client) -> dict:
    """Every key: its type, value and whether it expires (and roughly when)."""
    found = {}
    for key in sorted(client.keys("*")):
        kind = client.type(key)
        value = {"string": client.get, "list": lambda k: client.lrange(k, 0, -1),
                 "set": lambda k: sorted(client.smembers(k)),
                 "zset": lambda k: client.zrange(k, 0, -1, withscores=True),
                 "hash": client.hgetall}[kind](key)
        ttl = client.ttl(key)
        found[key] = (kind, value, ttl if ttl < 0 else round(ttl, -2))
    return found


def drain(sub) -> list:
    """The messages a pub/sub client has received (the subscription's confirmation, which it
    ignores, reads as None too: stop after a few None in a row)."""
    messages, quiet = [], 0
    while quiet < 3:
        message = sub.get_message(timeout=0.02)
        quiet = quiet + 1 if message is None else 0
        if message is not None:
            messages.append(message)
    return messages


def commit_args(expected, version, live="{}", idem="", entries=()):
    """ARGV of the commit script, as MatchStore.commit sends it (records as UTF-8 bytes)."""
    return [expected, version, live.encode(), f"{P}:m:a:events", idem,
            store.IDEMPOTENCY_TTL, *[e.encode() for e in entries]]


def index_args(version, automated="", due="", created=""):
    """ARGV of the index script (indexes.py), as the store sends it around a commit."""
    return ["a", version, automated, due, created]


def run_both(steps):
    """Run `steps` (script name, args) on both sides; the replies of each side, and the
    change messages a pattern subscriber of each side heard."""
    (lua_client, lua), (py_client, python) = twins()
    for client in (lua_client, py_client):
        client.set(f"{P}:m:a:ver", 0)
        client.set(f"{P}:m:a:live", '{"v":0}')
        client.set(f"{P}:m:a:live-extra", "x", ex=500)  # a neighbour with an expiry
    subs = [c.pubsub(ignore_subscribe_messages=True) for c in (lua_client, py_client)]
    for sub in subs:
        sub.psubscribe(f"{P}:m:*:events")
    replies = {"lua": [], "python": []}
    for name, args in steps:
        for side, scripts in (("lua", lua), ("python", python)):
            keys = {"commit": KEYS, "index": IX}.get(name, KEYS[1::-1])   # since: ver, live
            replies[side].append(scripts[name](keys=keys, args=args))
    heard = [[(m["type"], m["pattern"], m["channel"], m["data"]) for m in drain(sub)]
             for sub in subs]
    return replies, (snapshot(lua_client), snapshot(py_client)), heard


SEQUENCES = {
    "moves, automated then remote then over": [
        ("index", index_args(0, "1", "", "1000.5")),
        ("index", index_args(1, "1")),
        ("commit", commit_args(0, 1, '{"v":1}', entries=['{"e":1}'])),
        ("index", index_args(2, "", repr(time.time() + 60))),
        ("commit", commit_args(1, 2, '{"v":2}', entries=['{"e":2}', '{"e":3}'])),
        ("index", index_args(2, "0", "")),
        ("index", index_args(3, "", repr(time.time() + 90))),
        ("commit", commit_args(2, 3, '{"v":3}', entries=['{"e":4}'])),
        ("index", index_args(3, "0", "")),
        ("commit", commit_args(3, 4, '{"v":4}', entries=['{"e":5}'])),
        ("index", index_args(4, "0", "-"))],
    "index: a late clear never undoes a newer add": [
        ("index", index_args(5, "1", "99")),
        ("index", index_args(4, "0", "-")),
        ("index", index_args(5, "0", "-")),
        ("index", index_args(5.5, "0", "")),
        ("index", index_args(5, "1"))],
    "a version mismatch changes nothing": [
        ("commit", commit_args(5, 6, '{"v":6}', entries=['{"e":1}'])),
        ("commit", commit_args(0, 1, '{"v":1}', entries=['{"e":1}'])),
        ("commit", commit_args(0, 1, '{"v":1b}', entries=['{"e":1b}']))],
    "an idempotency key lands once": [
        ("commit", commit_args(0, 1, '{"v":1}', idem="0:k1", entries=['{"e":1}'])),
        ("commit", commit_args(1, 2, '{"v":2}', idem="0:k1", entries=['{"e":2}'])),
        ("commit", commit_args(1, 2, '{"v":2}', idem="1:k2", entries=['{"e":2}']))],
    "a batch of moves: every version published, in order": [
        ("commit", commit_args(0, 3, '{"v":3}', entries=['{"e":1}', '{"e":2}', '{"e":3}'])),
        ("commit", commit_args(3, 4, '{"v":4}', entries=['{"e":4}'])),
        ("commit", commit_args(4, 36, '{"v":36}', entries=[f'{{"e":{i}}}'
                                                            for i in range(5, 37)])),
        ("commit", commit_args(4, 6, '{"v":6b}', entries=['{"e":5b}', '{"e":6b}']))],
    "no entries, the automated member already there": [
        ("index", index_args(1, "1")), ("commit", commit_args(0, 1, '{"v":1}')),
        ("index", index_args(2, "1")), ("commit", commit_args(1, 2, '{"v":2}'))],
    "text beyond ASCII": [
        ("commit", commit_args(0, 1, '{"who":"Dúlì"}', entries=['{"m":"Yínzi"}'])),
        ("since", [0])],
    "live_since: same version, older version, no match": [
        ("since", [0]), ("since", [""]),
        ("commit", commit_args(0, 1, '{"v":1}')),
        ("since", [0]), ("since", [1])],
}


@pytest.mark.parametrize("name", SEQUENCES)
def test_the_python_scripts_do_what_the_lua_scripts_do(name):
    """Same replies, same keys and values, the same change messages heard."""
    replies, (lua_keys, py_keys), (lua_heard, py_heard) = run_both(SEQUENCES[name])
    assert replies["python"] == replies["lua"]
    assert py_keys == lua_keys
    assert py_heard == lua_heard


def test_the_sequences_reach_every_branch():
    """The comparisons above are worth something only if the scripts did each thing."""
    replies, (keys, _), (heard, _) = run_both(SEQUENCES["moves, automated then remote then over"])
    assert replies["lua"] == [1] * 11
    assert keys[f"{P}:m:a:log"][1] == ['{"e":1}', '{"e":2}', '{"e":3}', '{"e":4}', '{"e":5}']
    assert IX[1] not in keys and IX[2] not in keys   # added, then gone
    assert keys[IX[3]][1] == [("a", 1000.5)] and keys[IX[0]][1] == {"a:a": "4", "d:a": "4"}
    _, (keys, _), _ = run_both(SEQUENCES["index: a late clear never undoes a newer add"])
    assert IX[1] not in keys and keys[IX[2]][1] == [("a", 99.0)]   # 4 and 5: too late
    assert keys[IX[0]][1] == {"a:a": "5.5", "d:a": "5"}   # 5.5 cleared; 5 after it: too old
    assert [m[3] for m in heard] == ["1", "2", "3", "4"]
    replies, (keys, _), (heard, _) = run_both(
        SEQUENCES["a batch of moves: every version published, in order"])
    assert replies["lua"] == [1, 1, 1, 0]
    assert keys[f"{P}:m:a:log"][1] == [f'{{"e":{i}}}' for i in range(1, 37)]
    assert [m[3] for m in heard] == [str(v) for v in range(1, 37)]
    replies, (keys, _), _ = run_both(SEQUENCES["an idempotency key lands once"])
    assert replies["lua"] == [1, -1, 1]
    assert keys[f"{P}:m:a:idem"][0] == "hash" and keys[f"{P}:m:a:idem"][2] > 0
    replies, *_ = run_both(SEQUENCES["a version mismatch changes nothing"])
    assert replies["lua"] == [0, 1, 0]
    replies, *_ = run_both(SEQUENCES["live_since: same version, older version, no match"])
    assert replies["lua"] == [["0"], ["0", '{"v":0}'], 1, ["1", '{"v":1}'], ["1"]]


def test_a_key_of_another_type_is_refused_on_both():
    """WRONGTYPE on both sides, and nothing written."""
    (lua_client, lua), (py_client, python) = twins()
    for client, scripts in ((lua_client, lua), (py_client, python)):
        client.set(f"{P}:m:a:ver", 0)
        client.set(f"{P}:m:a:idem", "not a hash")
        with pytest.raises(redis.ResponseError, match="WRONGTYPE"):
            scripts["commit"](keys=KEYS, args=commit_args(0, 1, '{"v":1}', "0:k"))
    assert snapshot(py_client)[f"{P}:m:a:ver"] == snapshot(lua_client)[f"{P}:m:a:ver"]


def test_a_watched_key_a_commit_writes_fails_the_watching_transaction():
    """A client that WATCHes the live record sees the commit, as with the Lua script."""
    _, (client, python) = twins()
    client.set(f"{P}:m:a:ver", 0)
    with client.pipeline() as pipe:
        pipe.watch(f"{P}:m:a:live")
        assert python["commit"](keys=KEYS, args=commit_args(0, 1, '{"v":1}')) == 1
        pipe.multi()
        pipe.set(f"{P}:m:a:live", "stale")
        with pytest.raises(redis.WatchError):
            pipe.execute()
    assert client.get(f"{P}:m:a:live") == '{"v":1}'


def test_only_a_decoding_fakeredis_client_gets_the_python_twin():
    """A client reading raw bytes, or a real Redis, keeps the script as it was."""
    raw = fakeredis.FakeRedis(server=fakeredis.FakeServer())
    assert not isinstance(hot_script(raw, store._COMMIT, embeddedscripts.commit), EmbeddedScript)
    decoding = fakeredis.FakeRedis(server=fakeredis.FakeServer(), decode_responses=True)
    assert not isinstance(hot_script(decoding, store._COMMIT), EmbeddedScript)


def test_a_keyspace_listener_gets_the_lua_script():
    """Whoever subscribes to keyspace notifications hears the commit's writes, as before:
    the Lua script runs while such a subscriber is there."""
    _, (client, python) = twins()
    client.set(f"{P}:m:a:ver", 0)
    sub = client.pubsub(ignore_subscribe_messages=True)
    sub.psubscribe("__keyspace@0__:*")
    assert python["commit"](keys=KEYS, args=commit_args(0, 1, '{"v":1}')) == 1
    channels = {m["channel"] for m in drain(sub)}
    assert f"__keyspace@0__:{P}:m:a:live" in channels
