"""Held waits on a real Redis: one pub/sub listener per process wakes the waiters of the
match that changed, survives losing its connection, and the slots count per caller."""

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
    made = ChangeHub(client, f"{prefix}:m:*:events", lambda ch: ch.split(":")[-2])
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
    assert sum(c["psub"] == "1" for c in named) == 1 and len(named) <= 3
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
    listener = [c for c in hub.client.client_list() if c["name"] == hub.name and
                c["psub"] == "1"]
    versions["a"] = 1      # changed while the listener is gone: nobody publishes it
    hub.client.client_kill_filter(_id=listener[0]["id"])
    join_threads(threads, 10)
    assert results == [("a", 1)] * 5
    deadline = time.monotonic() + 10
    while not [c for c in hub.client.client_list() if c["name"] == hub.name and
               c["psub"] == "1" and c["id"] != listener[0]["id"]]:
        assert time.monotonic() < deadline, "the listener did not subscribe again"
        time.sleep(0.1)
    versions["b"], results = 0, []
    threads = _waiters(hub, versions, "b", 3, results)
    time.sleep(0.3)
    versions["b"] = 1
    hub.client.publish(f"{hub.prefix}:m:b:events", 1)
    join_threads(threads, 5)
    assert results == [("b", 1)] * 3


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
