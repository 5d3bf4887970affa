"""REDIS_URL through Sentinel (redis+sentinel://…/<service>): the app, its RQ workers and its
match state follow the primary the sentinels name, also after they fail it over."""

from __future__ import annotations

import shutil
import time

import pytest
import redis

from referee.service.connection import connect
from tests.conftest import organiser_client, unique_name
from tests.support.redissentinel import SERVICE, LocalSentinel

pytestmark = pytest.mark.skipif(shutil.which("redis-server") is None,
                                reason="needs Debian's redis-server")


@pytest.fixture(scope="module")
def sentinel():
    """The local Sentinel set-up, for this module."""
    local = LocalSentinel().start()
    yield local
    local.stop()


def _finish(client, seeds) -> list:
    ids = [client.post("/v1/matches", json={"game": "gops", "seats": ["builtin:random"] * 3,
                                            "seed": s}).json["id"] for s in seeds]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        states = [client.get(f"/v1/matches/{m}").json["status"] for m in ids]
        if all(s == "over" for s in states):
            return ids
        time.sleep(0.05)
    raise AssertionError(states)


def test_matches_run_through_sentinel_and_after_its_failover(sentinel):
    """Matches finish on the primary the sentinels name; after SENTINEL FAILOVER the same app
    (its clients reconnecting through the sentinels) finishes new matches on the new primary
    and still serves the ones played before."""
    from referee.root import create_app, stop_app

    assert connect(sentinel.url).connection_pool.get_master_address()[1] == sentinel.primary
    app = create_app({"REDIS_URL": sentinel.url, "KEY_PREFIX": unique_name("sen"),
                      "QUEUE_NAME": unique_name("senq"), "INLINE_WORKERS": 2})
    try:
        client = organiser_client(app)
        before = _finish(client, range(3))
        # the replica has every write first (the organiser's key, the matches): failing over
        # to a replica still behind loses what it lacks, as asynchronous replication does (a
        # loaded full run saw 401s and MatchNotFound after the failover)
        assert redis.Redis(port=sentinel.primary).wait(1, 30_000) >= 1
        redis.Redis(port=sentinel.sentinels[0]).execute_command("SENTINEL", "FAILOVER",
                                                                SERVICE)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            named = redis.Redis(port=sentinel.sentinels[0]).sentinel_get_master_addr_by_name(
                SERVICE)
            # and the old primary already a replica: until the sentinels demote it, it still
            # takes the app's writes on the connections it had, and drops them when it resyncs
            # from the new one (a loaded run of tests/service saw the new matches 404)
            if int(named[1]) == sentinel.replica and \
                    redis.Redis(port=sentinel.replica).info("replication")["role"] == "master" \
                    and redis.Redis(port=sentinel.primary).info("replication")["role"] == "slave":
                break
            time.sleep(0.2)
        assert int(named[1]) == sentinel.replica
        after = _finish(client, range(10, 13))
        assert all(client.get(f"/v1/matches/{m}").json["status"] == "over"
                   for m in [*before, *after])
    finally:
        stop_app(app)
