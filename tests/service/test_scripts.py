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


def _recording_rider(script, keys=(), args=()):
    """A Rider whose `done` calls are kept in `heard`."""
    from referee.service.scripts import Rider

    heard = []
    return Rider(script, list(keys), list(args), lambda reply, landed: heard.append(reply)), heard


def test_a_rider_goes_in_the_same_round_trip_loaded_or_not(client):
    """Two scripts the server has never seen, sent together: both are loaded (NOSCRIPT) and
    answer in order; once loaded, the pair is one round trip; Redis ran them in order."""
    from arena.benchruns import RoundTrips
    from referee.service.scripts import run_with_rider

    key = f"test-scripts-{uuid.uuid4().hex}"
    tag = uuid.uuid4().hex
    first = hot_script(client, f"return redis.call('RPUSH', KEYS[1], ARGV[1]) -- {tag}")
    second = hot_script(client, f"return redis.call('LRANGE', KEYS[1], 0, -1) -- {tag}")
    try:
        rider, _ = _recording_rider(second, [key])
        assert run_with_rider(first, [key], ["a"], rider) == (1, ["a"])
        with RoundTrips() as trips:
            assert run_with_rider(first, [key], ["b"], rider) == (2, ["a", "b"])
        assert trips.count == 1
    finally:
        client.delete(key)


def test_a_riders_error_is_its_reply_and_the_first_scripts_error_raises(client):
    """The rider's failure never undoes nor hides the first script's work; the first
    script's error raises after the rider ran (its `done` is the caller's to call)."""
    from referee.service.scripts import run_with_rider

    key = f"test-scripts-{uuid.uuid4().hex}"
    setting = hot_script(client, "return redis.call('SET', KEYS[1], ARGV[1])")
    failing = hot_script(client, "return redis.error_reply('rider " + uuid.uuid4().hex + "')")
    try:
        rider, _ = _recording_rider(failing)
        reply, ridden = run_with_rider(setting, [key], ["x"], rider)
        assert reply == "OK" and isinstance(ridden, redis.ResponseError)
        assert client.get(key) == "x"
        rider, _ = _recording_rider(setting, [key], ["y"])
        with pytest.raises(redis.ResponseError, match="rider"):
            run_with_rider(failing, [], [], rider)
        assert client.get(key) == "y"
        assert setting(keys=[key], args=["z"]) == "OK"   # the pool goes on
    finally:
        client.delete(key)


def test_on_the_embedded_store_the_rider_runs_after_the_script():
    """No sockets of ours there (fakeredis): the two run one after the other, same replies."""
    from referee.service.scripts import run_with_rider

    embedded = connect(None)
    first = hot_script(embedded, "return redis.call('INCR', KEYS[1])")
    second = hot_script(embedded, "return redis.call('GET', KEYS[1])")
    rider, _ = _recording_rider(second, ["n"])
    assert run_with_rider(first, ["n"], [], rider) == (1, "1")


def test_work_meanwhile_runs_once_the_pipeline_is_sent_and_its_error_is_dropped(
        client, monkeypatch):
    """The rider's `meanwhile` runs after the commands went out and before any reply is
    read; what it raises is dropped, the replies come back all the same and the pool goes
    on."""
    from referee.service import scripts
    from referee.service.scripts import Rider, run_with_rider

    events = []
    command, answer = scripts._command, scripts._answer
    monkeypatch.setattr(scripts, "_command", lambda *c: events.append("sent") or command(*c))
    monkeypatch.setattr(scripts, "_answer", lambda r: events.append("read") or answer(r))
    first = hot_script(client, "return 1")
    second = hot_script(client, "return 2")
    first(), second()

    def failing():
        events.append("meanwhile")
        raise RuntimeError("a bug in the work done meanwhile")
    rider = Rider(second, [], [], lambda reply, landed: None, failing)
    events.clear()
    assert run_with_rider(first, [], [], rider) == (1, 2)
    assert events == ["sent", "meanwhile", "read", "read"]
    assert first() == 1


def _pool(client, most: int, wait: float | None, text: str = "return 3"):
    """A hot script over a pool of its own of `most` connections, waiting `wait` s for one."""
    script = hot_script(client, text)
    pool = script.sockets
    script.sockets = type(pool)(pool.settings, most, wait)
    return script


def test_a_caller_finding_every_connection_busy_waits_for_one_then_gives_up(client):
    """`most` connections at most: with the one connection taken, a call waits `wait`
    seconds and fails with redis-py's ConnectionError, naming the setting."""
    script = _pool(client, most=1, wait=0.2)
    held = script.sockets._take()
    with pytest.raises(redis.ConnectionError, match="REFEREE_REDIS_CONNECTIONS"):
        script()
    script.sockets._idle.append(held)
    assert script() == 3
    assert len(script.sockets._idle) == 1   # the same connection, not a second one


def test_a_waiting_caller_gets_the_connection_given_back(client):
    """The waiter is woken when a busy connection comes back, however long it waited."""
    import threading

    script = _pool(client, most=1, wait=None)
    held = script.sockets._take()
    answers = []
    waiter = threading.Thread(target=lambda: answers.append(script()))
    waiter.start()
    while script.sockets._waiters == 0 and waiter.is_alive():
        threading.Event().wait(0.01)
    script.sockets._idle.append(held)
    script.sockets._wake()
    waiter.join(30)
    assert answers == [3]


def test_a_connection_closed_after_an_error_frees_its_place(client):
    """An error reply closes its connection and the pool may open another (a place lost per
    error would leave no connection after `most` errors)."""
    failing = _pool(client, most=1, wait=0.2,
                    text="return redis.error_reply('nope " + uuid.uuid4().hex + "')")
    for _ in range(3):
        with pytest.raises(redis.ResponseError, match="nope"):
            failing()
    assert failing.sockets._spare == [None] and not failing.sockets._idle
    working = SocketScript(failing.sockets, "return 7")
    assert working() == 7


SLOW = """local start = redis.call('TIME')
repeat local now = redis.call('TIME')
until (now[1] - start[1]) * 1000000 + (now[2] - start[2]) > tonumber(ARGV[1])
return 1  -- %s"""
"""A script that keeps the server busy ARGV[1] microseconds."""

GEVENT_WORKER = """
from gevent import monkey; monkey.patch_all()
import sys, gevent
from referee.service.connection import connect
from referee.service.scripts import REPLY_WAIT, hot_script
slow = hot_script(connect(sys.argv[1]), sys.argv[2])
slow(args=[1])   # loaded and connected before it counts
ticks, done = [0], []
def tick():
    while not done:
        gevent.sleep(0.001)
        ticks[0] += 1
def call():
    done.append(slow(args=[300000]))
ticker = gevent.spawn(tick)
gevent.sleep(0.01)
before = ticks[0]
gevent.spawn(call).join()
ticker.join()
print(REPLY_WAIT, ticks[0] - before, done)
"""


def test_under_gevent_a_slow_reply_blocks_the_worker_only_briefly(needs_real_redis, tmp_path):
    """A gevent worker waits for a reply in the kernel (no hub loop) for REPLY_WAIT s at
    most, then yields: while a 300 ms script runs, other greenlets go on (a ticker sleeping
    1 ms at a time ticks many times), and the reply still comes back."""
    import subprocess
    import sys

    script = tmp_path / "worker.py"
    script.write_text(GEVENT_WORKER)
    out = subprocess.run([sys.executable, str(script), needs_real_redis,
                          SLOW % uuid.uuid4().hex], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    wait, ticks, done = out.stdout.split(maxsplit=2)
    assert float(wait) <= 0.01 and done.strip() == "[1]"
    assert int(ticks) >= 20   # blocked through the whole script, it would tick at most twice


GEVENT_BUSY_WORKER = """
from gevent import monkey; monkey.patch_all()
import socket, sys, time, gevent
from referee.service import scripts
from referee.service.connection import connect
scripts.REPLY_WAIT = 30.0   # only other work of the hub may end the kernel wait early
slow = scripts.hot_script(connect(sys.argv[1]), sys.argv[2])
slow(args=[1])
order, (ours, theirs) = [], socket.socketpair()
def other_request():
    ours.recv(1)   # waits in the hub, as a worker's other connections do
    order.append("other request")
def call():
    slow(args=[300000])
    order.append("reply")
def client():   # a real thread: it writes while the worker waits in the kernel
    time.sleep(0.03)
    theirs.send(b"x")
waiting = gevent.spawn(other_request)
gevent.sleep(0.01)
monkey.get_original("_thread", "start_new_thread")(client, ())
gevent.spawn(call).join()
waiting.join()
print(order)
"""


def test_under_gevent_the_kernel_wait_ends_when_the_hub_has_other_work(needs_real_redis,
                                                                          tmp_path):
    """While a 300 ms script runs, a request of another connection becomes ready (its
    client writes after 30 ms): the worker stops waiting for Redis in the kernel and serves
    it, long before the reply comes, although REPLY_WAIT (set to 30 s here) has not run
    out; the reply is read all the same."""
    import subprocess
    import sys

    script = tmp_path / "busy_worker.py"
    script.write_text(GEVENT_BUSY_WORKER)
    out = subprocess.run([sys.executable, str(script), needs_real_redis,
                          SLOW % uuid.uuid4().hex], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "['other request', 'reply']"


def test_the_kernel_wait_is_for_gevent_workers_only(client, monkeypatch):
    """Outside gevent a read blocks anyway: no extra select. Under gevent the reply is
    waited for with the system's select, for REPLY_WAIT s, once per round trip."""
    from referee.service import scripts

    plain = hot_script(client, "return 4")
    plain()
    assert not plain.sockets._cooperative
    waits = []
    real = plain.sockets._ready
    spy = lambda r, w, x, timeout: waits.append(timeout) or real(r, w, x, timeout)  # noqa: E731
    plain.sockets._ready = spy
    assert plain() == 4 and waits == [0]   # the idle check only
    waits.clear()
    plain.sockets._cooperative = True
    assert plain() == 4 and waits == [0, scripts.REPLY_WAIT]
    slow = SocketScript(plain.sockets, SLOW % uuid.uuid4().hex)
    assert slow(args=[50000]) == 1   # the wait ran out: the reply is read all the same


def test_a_command_bigger_than_the_socket_buffer_is_sent_whole(client):
    """A socket with a timeout (as under gevent) sends what its buffer takes; the rest
    follows, and the server gets every byte."""
    script = hot_script(client, "return string.len(ARGV[1])  -- " + uuid.uuid4().hex)
    pool = script.sockets
    script.sockets = type(pool)({**pool.settings, "socket_timeout": 30}, 2, None)
    big = b"x" * (16 << 20)
    assert script(args=[big]) == len(big)
    assert script(args=["small"]) == 5


def test_a_descriptor_past_select_s_limit_is_waited_on_with_poll():
    """A gevent worker holding 2,000 streams has sockets past FD_SETSIZE, which select()
    refuses ("filedescriptor out of range"): the pool's wait takes them through poll()."""
    import os
    import resource
    import select
    import socket

    from referee.service.scripts import FD_SETSIZE, _any_descriptor

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    high = FD_SETSIZE + 100
    if hard != resource.RLIM_INFINITY and hard <= high:
        pytest.skip(f"the hard open-file limit ({hard}) admits no descriptor past {high}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, high + 1), hard))
    a, b = socket.socketpair()
    try:
        os.dup2(a.fileno(), high)
        far = socket.socket(fileno=high)
        with pytest.raises(ValueError):
            select.select([far], [], [], 0)
        ready = _any_descriptor(select.select, select.poll)
        assert ready([far, b], [], [], 0) == ([], [], [])
        b.sendall(b"x")
        assert ready([far, b.fileno()], [], [], 1.0) == ([far], [], [])
        assert ready([a], [], [], 0) == ([a], [], [])   # below the limit: select, as before
        far.close()
    finally:
        a.close()
        b.close()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
