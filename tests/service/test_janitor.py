"""The janitor on a tournament's backlog: queued matches are not orphans, and finding the
orphans among them takes a few round trips, not a handful per queued match; one process
sweeps per interval, however many workers run a janitor."""

from __future__ import annotations

import time

import pytest
from rq.job import Job

from arena.benchruns import RoundTrips
from referee.service import defaults, runner
from referee.service.worker import janitors_turn, orphaned, sweep
from tests.conftest import running_app


@pytest.fixture
def queued_service(needs_real_redis, redis_settings):
    """A service that queues its runner jobs with no worker to take them: a backlog."""
    with running_app({**redis_settings, "INLINE_WORKERS": 0}) as app:
        yield app.extensions["referee"]


def _backlog(service, count: int) -> list[str]:
    return [service.create("gops", ["builtin:random", "builtin:random"], None, seed).meta.id
            for seed in range(count)]


def test_a_backlog_has_no_orphans_and_is_read_in_a_few_round_trips(queued_service):
    service = queued_service
    for count in (3, 40):
        ids = _backlog(service, count)
        with RoundTrips() as trips:
            assert orphaned(service) == []
        assert trips.count <= 4, (count, trips.count)   # the same for 3 queued as for 40+
    assert len(service.store.automated_ids()) == 43 and ids


def test_a_match_whose_job_is_gone_is_an_orphan_until_resumed(queued_service, monkeypatch):
    """Its job lost (a worker died holding it) and no lease: an orphan; a lease held keeps
    it off the list; sweep() queues a resume job, after which it waits like the others."""
    service = queued_service
    lost, *others = _backlog(service, 5)
    version = service.store.live(lost).version
    Job.fetch(f"advance-{lost}-{version}", connection=service.queue.queue.connection).delete()
    assert orphaned(service) == [lost]
    service.store.redis.set(runner.lease_key(service, lost), "a runner", px=500)
    assert orphaned(service) == []
    time.sleep(0.6)
    monkeypatch.setattr(defaults, "JANITOR_INTERVAL", 0.0)   # it has waited long enough
    assert sweep(service) == 1
    assert orphaned(service) == []
    assert service.queue.waiting({lost: version}, service.store.prefix) == {lost}


def test_one_janitor_sweeps_per_interval(queued_service):
    service = queued_service
    assert janitors_turn(service, 0.5) is True
    assert janitors_turn(service, 0.5) is False   # another worker's janitor, same interval
    time.sleep(0.5)
    assert janitors_turn(service, 0.5) is True
