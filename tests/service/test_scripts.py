"""The store's hot scripts over plain sockets (referee/service/scripts.py), on the real Redis:
replies as redis-py gives them, errors with redis-py's classes, a script the server does not
know yet, a pooled connection the server closed, the database of the URL."""

from __future__ import annotations

import uuid

import pytest
import redis

from referee.service.connection import connect
from referee.service.scripts import SocketScript, hot_script

ECHO = "return {KEYS[1], ARGV[1], tonumber(ARGV[2]), false, {ARGV[1]}}  -- %s"


@pytest.fixture
def client(needs_real_redis):
    """redis-py's client for the real Redis, as the service makes it."""
    return connect(needs_real_redis)


def test_a_plain_tcp_server_gets_sockets_and_the_embedded_store_redis_py(client):
    """Only a plain TCP Redis is spoken to directly; anything else stays with redis-py."""
    assert isinstance(hot_script(client, "return 1"), SocketScript)
    assert not isinstance(hot_script(connect(None), "return 1"), SocketScript)


def test_replies_read_as_redis_py_reads_them(client):
    """Strings, integers, nil and nested arrays, decoded as text; a script the server has not
    seen is loaded on first use (NOSCRIPT)."""
    text = ECHO % uuid.uuid4().hex
    mine, theirs = hot_script(client, text), client.register_script(text)
    args = {"keys": ["k:é"], "args": ["välue", 42]}
    assert mine(**args) == theirs(**args) == ["k:é", "välue", 42, None, ["välue"]]


def test_an_error_reply_raises_response_error_and_the_next_call_works(client):
    """A failing script raises redis-py's ResponseError; the pool goes on."""
    failing = hot_script(client, "return redis.error_reply('nope " + uuid.uuid4().hex + "')")
    with pytest.raises(redis.ResponseError, match="nope"):
        failing()
    assert hot_script(client, "return 7")() == 7


def test_a_connection_closed_while_idle_is_replaced(client):
    """The server drops a pooled connection (a restart, a timeout): the next call connects
    anew and succeeds."""
    script = hot_script(client, "return 5")
    assert script() == 5
    (sock, _), = script.sockets._idle
    host, port = sock.getsockname()[:2]
    client.client_kill_filter(_type=None, addr=f"{host}:{port}")
    assert script() == 5
    (replaced, _), = script.sockets._idle
    assert replaced is not sock


def test_the_database_of_the_url_is_used(needs_real_redis):
    """A URL naming database 1 writes there, not in database 0."""
    base = needs_real_redis.rsplit("/", 1)[0]
    key = f"test-scripts-{uuid.uuid4().hex}"
    script = hot_script(connect(f"{base}/1"), "return redis.call('SET', KEYS[1], 'x')")
    script(keys=[key])
    try:
        assert redis.Redis.from_url(f"{base}/1").get(key) == b"x"
        assert redis.Redis.from_url(f"{base}/0").get(key) is None
    finally:
        redis.Redis.from_url(f"{base}/1").delete(key)


def test_the_idle_check_uses_the_systems_select_even_under_gevent(monkeypatch):
    """gevent's select yields to its hub even with a zero timeout; the pool's check of an
    idle connection takes the system's (which never waits with a zero timeout)."""
    import select as select_module
    import sys
    import types

    from referee.service.scripts import _plain_select

    monkeypatch.delitem(sys.modules, "gevent.monkey", raising=False)
    assert _plain_select() is select_module.select
    original = object()
    stub = types.SimpleNamespace(is_module_patched=lambda name: name == "select",
                                 get_original=lambda module, name: original)
    monkeypatch.setitem(sys.modules, "gevent.monkey", stub)
    assert _plain_select() is original
