"""drop_queue (referee/service/worker.py): a queue that a benchmark or a test made for itself
goes with every job RQ still knew of it, wherever the job was when the workers stopped."""

from __future__ import annotations

import redis
from rq import Queue

from referee.service.worker import drop_queue
from tests.conftest import unique_name


def test_a_dropped_queue_takes_its_queued_taken_and_finished_jobs_along(needs_real_redis):
    """Jobs queued, one a worker was taking as it stopped (moved to RQ's intermediate list,
    in no registry yet) and one finished: none has an expiry; after drop_queue no key of
    the queue or of its jobs is left, and RQ's set of queues no longer names it."""
    client = redis.Redis.from_url(needs_real_redis)
    name = unique_name("dropq")
    queue = Queue(name, connection=client)
    ids = [queue.enqueue("referee.service.jobs.advance", f"m{i}", job_id=f"{name}-{i}").id
           for i in range(3)]
    client.lmove(queue.key, queue.intermediate_queue_key, "LEFT", "RIGHT")   # taken: ids[0]
    client.lrem(queue.key, 0, ids[1])
    queue.finished_job_registry.add(queue.fetch_job(ids[1]), ttl=-1)
    assert [client.ttl(f"rq:job:{i}") for i in ids] == [-1, -1, -1]

    drop_queue(client, name)

    assert [client.exists(f"rq:job:{i}") for i in ids] == [0, 0, 0]
    assert list(client.scan_iter(f"rq:*{name}*")) == []
    assert f"rq:queue:{name}".encode() not in client.smembers("rq:queues")


def test_a_dropped_queue_takes_the_execution_records_of_a_killed_worker(needs_real_redis):
    """A worker killed during a job (tests/arena/test_workers.py kills one) leaves RQ's
    record of that execution and the job's set of executions, for an hour: they go with the
    job. The execution is made by RQ's own code, as a worker starting the job makes it."""
    from rq.executions import Execution

    client = redis.Redis.from_url(needs_real_redis)
    name = unique_name("dropx")
    queue = Queue(name, connection=client)
    job = queue.enqueue("referee.service.jobs.advance", "m", job_id=f"advance-{name}-0")
    client.lrem(queue.key, 0, job.id)   # taken by a worker, which then died
    with client.pipeline() as pipe:
        execution = Execution.create(job, ttl=3600, pipeline=pipe)
        pipe.execute()
    record = f"rq:execution:{job.id}:{execution.id}"
    assert client.exists(f"rq:executions:{job.id}", record) == 2

    drop_queue(client, name)

    assert client.exists(f"rq:executions:{job.id}", record) == 0
    assert list(client.scan_iter(f"rq:*{name}*")) == []
