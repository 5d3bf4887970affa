"""`advance` jobs run lean on the RQ workers (referee/service/leanjobs.py): the job runs under
its own id and arguments, its record goes once it succeeded, a failure still goes through
RQ's retries and failed registry, and any other job runs as RQ runs it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

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


def stopped_midway(log_key):
    """An `advance` that gets its worker's SIGTERM (a warm shutdown) while it runs."""
    client = redis.Redis.from_url(os.environ["LEAN_REDIS"])
    client.rpush(log_key, "started")
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(0.5)
    client.rpush(log_key, "finished")


_STOPPED_WORKER = """
import os, sys
import redis
from rq import Queue
from referee.service import leanjobs
from referee.service.worker import ListeningWorker
leanjobs.ADVANCE = "tests.service.test_lean_jobs.stopped_midway"
queue = Queue(sys.argv[1], connection=redis.Redis.from_url(os.environ["LEAN_REDIS"]))
queue.enqueue("tests.service.test_lean_jobs.stopped_midway", sys.argv[2],
              job_id="advance-m4-0", failure_ttl=600)
ListeningWorker([queue], connection=queue.connection, name=f"{queue.name}-w").work(
    logging_level="WARNING")
print("stopped")
"""


def test_a_warm_shutdown_waits_for_the_lean_job_and_stops(queue):
    """SIGTERM while an `advance` job runs lean is RQ's warm shutdown: the job runs to its
    end (it is not interrupted, nor failed, nor retried) and then the worker stops, as with
    a job RQ runs itself (a lean job that left the worker's state idle was interrupted and
    the worker went on working: `referee worker` outlived its SIGTERM)."""
    log_key = f"{queue.name}:log"
    url = queue.connection.connection_pool.connection_kwargs
    env = {**os.environ, "LEAN_REDIS": f"redis://{url['host']}:{url['port']}/{url['db']}"}
    try:
        done = subprocess.run([sys.executable, "-c", _STOPPED_WORKER, queue.name, log_key],
                              env=env, capture_output=True, text=True, timeout=30)
        assert done.returncode == 0 and "stopped" in done.stdout, done.stderr
        assert queue.connection.lrange(log_key, 0, -1) == [b"started", b"finished"]
        assert queue.failed_job_registry.get_job_ids() == []
        assert queue.count == 0
    finally:
        queue.connection.delete(log_key)
