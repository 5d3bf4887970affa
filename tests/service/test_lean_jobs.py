"""`advance` jobs run lean on the RQ workers (referee/service/leanjobs.py): the job runs under
its own id and arguments, its record goes once it succeeded, a failure still goes through
RQ's retries and failed registry, and any other job runs as RQ runs it."""

from __future__ import annotations

import pytest
import redis
from rq import Queue, Retry

from referee.service import leanjobs
from referee.service.worker import ListeningWorker
from tests.conftest import delete_keys, unique_name

RAN: list = []


def played(match_id):
    """Stands for `advance` (the test makes it the lean function)."""
    RAN.append(match_id)
    return 2


def broken(match_id):
    """An `advance` that fails."""
    RAN.append(match_id)
    raise RuntimeError("the runner failed")


@pytest.fixture
def queue(needs_real_redis):
    """A queue of its own on the real Redis, its keys removed afterwards."""
    RAN.clear()
    name = unique_name("leanq")
    yield Queue(name, connection=redis.Redis.from_url(needs_real_redis))
    delete_keys(needs_real_redis, "none-of-ours", name)


def _work(queue):
    # named after its queue: its keys go with the queue's (tests/conftest.py delete_keys)
    worker = ListeningWorker([queue], connection=queue.connection, name=f"{queue.name}-w")
    worker.work(burst=True, logging_level="WARNING")
    return worker


def test_a_lean_job_runs_and_leaves_no_record(queue, monkeypatch):
    monkeypatch.setattr(leanjobs, "ADVANCE", f"{__name__}.played")
    job = queue.enqueue(played, "m1", job_id="advance-m1-3", result_ttl=60, retry=Retry(max=3))
    worker = _work(queue)
    assert RAN == ["m1"]
    assert worker.connection.hget(worker.key, "successful_job_count") == b"1"
    assert not queue.connection.exists(job.key)
    assert queue.connection.llen(queue.intermediate_queue_key) == 0
    assert queue.finished_job_registry.get_job_ids() == []
    assert queue.started_job_registry.get_job_ids() == []


def test_a_failing_lean_job_is_retried_then_failed_as_rq_does(queue, monkeypatch):
    monkeypatch.setattr(leanjobs, "ADVANCE", f"{__name__}.broken")
    job = queue.enqueue(broken, "m2", job_id="advance-m2-0", failure_ttl=600,
                        retry=Retry(max=2))
    _work(queue)
    assert RAN == ["m2"] * 3   # the first run and two retries
    assert queue.failed_job_registry.get_job_ids() == [job.id]
    assert job.get_status(refresh=True) == "failed"


def test_other_jobs_run_as_rq_runs_them(queue, monkeypatch):
    monkeypatch.setattr(leanjobs, "ADVANCE", "somewhere.else")
    job = queue.enqueue(played, "m3", result_ttl=60)
    _work(queue)
    assert RAN == ["m3"]
    assert job.get_status(refresh=True) == "finished"
    assert queue.finished_job_registry.get_job_ids() == [job.id]
