"""The one Lease (runner, leaderboard, ladder) on a real Redis, and embedded workers that
leave no RQ registration behind once stopped."""

from __future__ import annotations

import time

import pytest
import redis as redis_lib

from referee.service.lease import Lease
from tests.conftest import unique_name


@pytest.fixture
def redis(needs_real_redis):
    """A client of the real Redis; the test's keys go afterwards."""
    client = redis_lib.Redis.from_url(needs_real_redis, decode_responses=True)
    prefix = unique_name("lease")
    client.prefix = prefix
    yield client
    for key in client.scan_iter(f"{prefix}:*"):
        client.delete(key)


def test_only_one_holder_at_a_time(redis):
    """A second acquire fails while the first holds the lease."""
    first, second = (Lease(redis, f"{redis.prefix}:a", 5) for _ in range(2))
    assert first.acquire() and not second.acquire()
    assert first.release() and second.acquire()


def test_release_by_a_non_owner_does_nothing(redis):
    """Someone whose lease expired and was taken cannot delete the new holder's lease."""
    key = f"{redis.prefix}:b"
    late, holder = Lease(redis, key, 0.2), Lease(redis, key, 5)
    assert late.acquire()
    time.sleep(0.3)  # expired
    assert holder.acquire()
    assert not late.release() and not late.renew()
    assert redis.get(key) == holder.token and redis.pttl(key) > 4000


def test_renew_extends_the_lease(redis):
    """A renewed lease lives its full length again from the renewal."""
    key = f"{redis.prefix}:c"
    lease = Lease(redis, key, 1.0)
    assert lease.acquire()
    time.sleep(0.6)
    assert lease.renew()
    assert redis.pttl(key) > 700  # without the renewal, less than 400 ms would be left
    time.sleep(0.6)
    assert redis.get(key) == lease.token


def test_a_lazy_renew_skips_the_round_trip_early_on(redis):
    """The runner renews before every move; the first third of the lease costs nothing."""
    key = f"{redis.prefix}:d"
    lease = Lease(redis, key, 5)
    assert lease.acquire()
    redis.delete(key)  # lost behind its back: only a real renewal would notice
    assert lease.renew(lazy=True) and not lease.renew()


def test_expiry_lets_another_take_it(redis):
    """A holder that dies leaves the lease to expire; then another acquires it."""
    key = f"{redis.prefix}:e"
    assert Lease(redis, key, 0.2).acquire()
    other = Lease(redis, key, 5)
    assert not other.acquire()
    time.sleep(0.3)
    assert other.acquire()


def test_stopping_an_embedded_app_leaves_no_worker_registration(needs_real_redis):
    """Start an app with worker threads on a real Redis, stop it: no `rq:worker:*` key and
    no queue worker set of its queue remain (a full test run used to leave ~200)."""
    from referee.root import create_app, stop_app
    from tests.conftest import delete_keys

    client = redis_lib.Redis.from_url(needs_real_redis, decode_responses=True)
    prefix, queue = unique_name("stop"), unique_name("stopq")
    app = create_app({"REDIS_URL": needs_real_redis, "KEY_PREFIX": prefix, "QUEUE_NAME": queue,
                      "INLINE_WORKERS": 2})

    def registered():
        return [k for k in client.scan_iter("rq:worker:*", count=1000) if queue in k]
    try:
        deadline = time.monotonic() + 10
        while len(registered()) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(registered()) == 2
        started = time.monotonic()
        stop_app(app)
        assert time.monotonic() - started < 5
        assert registered() == []
        assert client.scard(f"rq:workers:{queue}") == 0
    finally:
        stop_app(app)
        delete_keys(needs_real_redis, prefix, queue)
