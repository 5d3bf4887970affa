"""Held waits on a real Redis: one pub/sub listener per process, subscribed only to the
matches it has waiters on, wakes the waiters of the match that changed, survives losing its
connection, and the slots count per caller."""

from __future__ import annotations

import time
import uuid

import pytest
import redis

from referee.service.waits import ChangeHub, TooManyWaits, WaitCapacity, WaitSlots
from tests.support.threads import join_threads, start_threads


class _Live:
    def __init__(self, version):
        self.version = version


@pytest.fixture
def hub(needs_real_redis):
    """A hub over its own key prefix, on connections named so a test can find them."""
    name = f"test-hub-{uuid.uuid4().hex[:8]}"
    client = redis.Redis.from_url(needs_real_redis, decode_responses=True, client_name=name)
    prefix = f"test-{name}"
    made = ChangeHub(client, lambda m: f"{prefix}:m:{m}:events", lambda ch: ch.split(":")[-2],
                     control=f"{prefix}:hub")
    made.name, made.prefix = name, prefix
    yield made
    made.close()


def _waiters(hub, versions: dict, match_id: str, count: int, results: list):
    def wait():
        live = hub.wait_for_change(match_id, 0, 20, lambda: _Live(versions[match_id]))
        results.append((match_id, live.version))
    return start_threads(wait, [()] * count)


def test_one_listener_wakes_only_the_waiters_of_the_match_that_changed(hub):
    """200 waiters on two matches share one pub/sub connection; a change of one match wakes
    its waiters and leaves the other's waiting."""
    versions, results = {"a": 0, "b": 0}, []
    threads = _waiters(hub, versions, "a", 100, results) + \
        _waiters(hub, versions, "b", 100, results)
    time.sleep(0.5)
    named = [c for c in hub.client.client_list() if c["name"] == hub.name]
    assert [c["sub"] for c in named if c["sub"] != "0"] == ["3"]   # its own, a and b
    assert len(named) <= 3
    versions["a"] = 1
    hub.client.publish(f"{hub.prefix}:m:a:events", 1)
    join_threads(threads[:100], 5)
    assert sorted(results) == [("a", 1)] * 100
    versions["b"] = 1
    hub.client.publish(f"{hub.prefix}:m:b:events", 1)
    join_threads(threads[100:], 5)
    assert len(results) == 200


def test_the_listener_comes_back_after_losing_its_connection(hub):
    """Its pub/sub connection killed, the listener subscribes again and wakes everyone to
    re-read (a change in between is not lost); later changes wake waiters as before."""
    versions, results = {"a": 0}, []
    threads = _waiters(hub, versions, "a", 5, results)
    time.sleep(0.5)
    listener = _listeners(hub)
    versions["a"] = 1      # changed while the listener is gone: nobody publishes it
    hub.client.client_kill_filter(_id=listener[0]["id"])
    join_threads(threads, 10)
    assert results == [("a", 1)] * 5
    deadline = time.monotonic() + 10
    while not [c for c in _listeners(hub) if c["id"] != listener[0]["id"]]:
        assert time.monotonic() < deadline, "the listener did not subscribe again"
        time.sleep(0.1)
    versions["b"], results = 0, []
    threads = _waiters(hub, versions, "b", 3, results)
    time.sleep(0.3)
    versions["b"] = 1
    hub.client.publish(f"{hub.prefix}:m:b:events", 1)
    join_threads(threads, 5)
    assert results == [("b", 1)] * 3


def _listeners(hub) -> list:
    return [c for c in hub.client.client_list() if c["name"] == hub.name and c["sub"] != "0"]


def _channels(hub) -> set:
    """The change channels subscribed under the hub's prefix (its own channel apart)."""
    return {c for c in hub.client.pubsub_channels(f"{hub.prefix}:m:*")}


def test_a_process_reads_the_changes_of_the_matches_it_watches_only(hub):
    """Changes of matches nobody in this process waits on never reach its connection (with a
    pattern subscription to every match, each API process read every move of every match);
    the channel of a watched match is subscribed before watch() returns, so a change right
    after it wakes the waiter."""
    with hub.watch("a"):
        pass   # the listener is up (its first connection wakes every waiter once)
    with hub.watch("a") as watch:
        assert watch.ready.is_set() and _channels(hub) == {f"{hub.prefix}:m:a:events"}
        assert hub.client.publish(f"{hub.prefix}:m:b:events", 1) == 0   # no receiver
        assert hub.client.publish(f"{hub.prefix}:m:a:events", 1) == 1
        assert hub.wait_on(watch, 5) is True
        assert hub.wait_on(watch, 0.2) is False   # nothing since


def test_a_channel_lingers_after_its_last_waiter_then_goes(hub, monkeypatch):
    """A bot long-polling in a loop keeps its match subscribed between polls; once nobody
    has waited on it for LINGER_S, the listener unsubscribes it, and a later waiter
    subscribes it again and is woken as before."""
    from referee.service import waits

    monkeypatch.setattr(waits, "LINGER_S", 0.6)
    monkeypatch.setattr(waits, "SWEEP_S", 0.1)
    channel = f"{hub.prefix}:m:a:events"
    with hub.watch("a"):
        pass
    assert _channels(hub) == {channel}            # still there between two polls
    with hub.watch("a") as watch:
        assert watch.ready.is_set()
    deadline = time.monotonic() + 5
    while _channels(hub):
        assert time.monotonic() < deadline, "the channel was never unsubscribed"
        time.sleep(0.1)
    # nothing of it is kept: a process that watched many matches over time holds none
    assert "a" not in hub._pending and "a" not in hub._ready and "a" not in hub._left
    versions, results = {"a": 0}, []
    threads = _waiters(hub, versions, "a", 2, results)
    time.sleep(0.3)
    assert _channels(hub) == {channel}
    versions["a"] = 1
    hub.client.publish(channel, 1)
    join_threads(threads, 5)
    assert results == [("a", 1)] * 2


def test_watches_coming_and_going_leave_every_waiter_woken(hub, monkeypatch):
    """Waiters on many matches arrive while others leave and channels are dropped (LINGER_S
    0): every waiter still present when its match changes is woken."""
    from referee.service import waits

    monkeypatch.setattr(waits, "LINGER_S", 0.0)
    monkeypatch.setattr(waits, "SWEEP_S", 0.0)
    for round_ in range(5):
        versions, results = {f"m{i}": 0 for i in range(20)}, []
        threads = []
        for match_id in versions:
            threads += _waiters(hub, versions, match_id, 2, results)
            with hub.watch(match_id):   # a poll that comes and goes meanwhile
                pass
        time.sleep(0.3)
        for match_id in versions:
            versions[match_id] = 1
            hub.client.publish(f"{hub.prefix}:m:{match_id}:events", 1)
        join_threads(threads, 10)
        assert len(results) == 40, round_


def test_slots_count_per_caller_and_in_total():
    """The per-caller cap answers wait.too_many (429), the total wait.capacity (503), both
    with Retry-After; a released slot is free again."""
    slots = WaitSlots(total=3, per_caller=2)
    slots.acquire("a")
    slots.acquire("a")
    with pytest.raises(TooManyWaits) as too_many:
        slots.acquire("a")
    slots.acquire("b")
    with pytest.raises(WaitCapacity) as full:
        slots.acquire("c")
    assert (too_many.value.status, too_many.value.code) == (429, "wait.too_many")
    assert (full.value.status, full.value.code) == (503, "wait.capacity")
    assert too_many.value.retry_after > 0 and full.value.retry_after > 0
    slots.release("a")
    with slots.hold("c"):
        assert slots.held == 3
    assert slots.held == 2
