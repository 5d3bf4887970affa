"""The RQ worker's bookkeeping cut down for `advance` jobs (issue 45).

RQ 3.0 spends 57 Redis commands in 18 round trips on every job it runs (an execution record,
the started and finished registries, the job's heartbeats, a result stream entry, the
worker's state and heartbeat written around each job), about 3 ms of CPU on this 2-core host
(worker and Redis) for a job that does nothing. An `advance` job plays one match's bots until
a remote seat must act: two bot moves a job once clients answer slowly (1,000 live matches),
so that fixed cost was most of the workers' CPU per move and grew as jobs held fewer moves.

An `advance` job needs none of it: the runner's lease keeps two runners off a match, the
janitor re-queues a match whose runner died (its lease expired), and no one reads its result.
So the worker runs it with two round trips of its own around the call: one marks the job
started (the janitor's `queued` check then knows it is taken), gives its record the failure
TTL (a worker killed during the job leaves nothing for good) and takes it off RQ's
intermediate list; the other deletes its record and counts it in the worker's successful
jobs. A job that raises goes through RQ's own failure handling (its retries, the failed
registry). Every other job runs as RQ runs it.
What is left out: a lean job has no execution record, no entry in the started or finished
registries and no result, and RQ's view of the worker (`rq info`) reads idle while it runs
(the worker itself knows it is busy, so a warm shutdown lets the job finish, as RQ's own).
The worker's own heartbeat and state, written by RQ around each job, are written when they
change or once every HEARTBEAT_SECONDS; their TTL is minutes.
"""

from __future__ import annotations

import sys
import time
import traceback

from rq.job import JobStatus
from rq.worker import WorkerStatus
from rq.timeouts import JobTimeoutException

from referee.service import defaults

ADVANCE = "referee.service.jobs.advance"
"""The job function run lean (referee/service/jobs.py)."""

HEARTBEAT_SECONDS = 10.0
"""How often, at most, the worker's heartbeat is written outside a job's own pipeline (RQ's
worker TTL is 420 s: a heartbeat every 10 s keeps the worker well alive)."""


class LeanJobs:
    """A mixin for an RQ worker class: `advance` jobs with two round trips of bookkeeping,
    the worker's heartbeat and state written only when due."""

    _lean_beat = 0.0
    _lean_state = None

    def execute_job(self, job, queue):
        """Run `advance` jobs lean (see the module's docstring), any other as RQ does."""
        if job.func_name != ADVANCE:
            self._lean_state = None   # RQ writes the state around its own jobs
            return super().execute_job(job, queue)
        # busy in this process only (not written to Redis): RQ's warm shutdown reads it to
        # let a running job finish; an idle worker it stops at once, by raising StopRequested
        # wherever the signal lands, which inside a job would fail that job and leave the
        # worker working (it sets `_stop_requested` only when busy)
        self._state = WorkerStatus.BUSY
        try:
            self.run_lean(job, queue)
        finally:
            self.set_state(WorkerStatus.IDLE)

    def run_lean(self, job, queue) -> bool:
        """Mark `job` started, run it under its timeout, delete its record; a failure goes to
        RQ's failure handling. Whether it succeeded."""
        pipe = self.connection.pipeline(transaction=False)
        pipe.hset(job.key, "status", JobStatus.STARTED.value)
        pipe.expire(job.key, job.failure_ttl or defaults.JOB_FAILURE_TTL)
        pipe.lrem(queue.intermediate_queue_key, 1, job.id)
        pipe.execute()
        try:
            with self.death_penalty_class(job.timeout or defaults.JOB_TIMEOUT_SECONDS,
                                          JobTimeoutException, job_id=job.id):
                job.perform()
        except Exception:
            self._failed(job, queue, sys.exc_info())
            return False
        pipe = self.connection.pipeline(transaction=False)
        pipe.delete(job.key)
        self.increment_successful_job_count(pipeline=pipe)   # what `rq info` and the tests read
        pipe.execute()
        return True

    def _failed(self, job, queue, exc_info) -> None:
        """RQ's handling of a job that raised (its exception handlers, retries, the failed
        registry): RQ 3's own step when it has it, else the same calls RQ 2 made."""
        finalize = getattr(self, "_finalize_failure", None)
        if finalize is not None:
            finalize(job, queue, None, exc_info)
            return
        job._status = JobStatus.FAILED   # what RQ 2's perform_job set before the handlers
        self.handle_exception(job, *exc_info)
        self.handle_job_failure(job=job, queue=queue,
                                exc_string="".join(traceback.format_exception(*exc_info)),
                                started_job_registry=queue.started_job_registry)

    def heartbeat(self, timeout=None, pipeline=None):
        """RQ's heartbeat; outside a pipeline, written once every HEARTBEAT_SECONDS at most
        (RQ writes it two or three times around every job)."""
        if pipeline is None and timeout is None:
            now = time.monotonic()
            if now - self._lean_beat < HEARTBEAT_SECONDS:
                return
            self._lean_beat = now
        return super().heartbeat(timeout, pipeline)

    def set_state(self, state, pipeline=None):
        """RQ's worker state, written only when it changes (RQ writes "idle" before and
        after every job)."""
        if pipeline is None and state == self._lean_state:
            self._state = state
            return
        self._lean_state = state if pipeline is None else None
        return super().set_state(state, pipeline)
