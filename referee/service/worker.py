"""Workers: RQ worker processes for a real Redis, or threads for the embedded default.

Both run the same job functions against a service built by the composition root; both run
the janitor, which re-queues matches whose runner died (its lease expired while a bot still had
to act). Embedded workers come back as a handle whose `stop()` ends the threads and removes
their RQ worker registrations.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time

from rq import Queue, SimpleWorker
from rq.timeouts import TimerDeathPenalty

from referee.core.errors import RefereeError
from referee.service import defaults
from referee.service.connection import connect
from referee.service.context import serve_queue
from referee.service.leanjobs import LeanJobs
from referee.service.runner import lease_key
from referee.service.drivers import REMOTE
from referee.service.listener import CommandListener
from referee.service.store import MatchStatus

log = logging.getLogger(__name__)

class ListeningWorker(LeanJobs, SimpleWorker):
    """An RQ SimpleWorker whose command listener ends as soon as the worker stops
    (referee/service/listener.py says why RQ's own waited up to a minute), running `advance`
    jobs lean (referee/service/leanjobs.py)."""

    def subscribe(self):
        """Listen for RQ's commands on this worker's channel, in a thread of our own."""
        self.pubsub_thread = CommandListener(self)
        self.pubsub = self.pubsub_thread.pubsub
        self.pubsub_thread.start()

    def unsubscribe(self):
        """End the command listener now; it closes its own connection as it ends."""
        if self.pubsub_thread:
            self.pubsub_thread.stop()


class ThreadWorker(ListeningWorker):
    """An RQ worker that runs in a thread: no signal handlers, timer-based job timeouts."""

    death_penalty_class = TimerDeathPenalty

    def _install_signal_handlers(self):
        """Signals belong to the main thread; the embedded worker stops through its handle."""

    def dequeue_job_and_maintain_ttl(self, timeout, max_idle_time=None):
        """Wait for a job in short polls, so that a stop request is seen within a poll."""
        poll = defaults.WORKER_POLL_SECONDS
        while not self._stop_requested:
            result = super().dequeue_job_and_maintain_ttl(poll, max_idle_time=poll)
            if result is not None:
                return result
        return None


def sweep(service) -> int:
    """Re-queue every match where a bot must act and no runner holds the lease; count them.

    A match whose runner keeps failing at one version is aborted: that is our failure, and
    an aborted match is never rated nor blamed on a bot.
    """
    requeued = 0
    for match_id in orphaned(service):
        meta, live = service.load(match_id)
        if live.status != MatchStatus.ACTIVE or service.automated_seat(meta, live) is None:
            # a stale entry (an add whose commit never landed, a clear lost in a crash)
            service.store.repair_indexes(match_id, live, False, service.remote_due(meta, live))
            continue
        if time.time() - live.updated_at <= defaults.JANITOR_INTERVAL:
            continue
        outcome = service.queue.resume(match_id, live.version, service.store.prefix)
        if outcome == "give_up":
            log.error("match %s: the runner failed %d times at version %d; aborting",
                      match_id, service.queue.max_resumes, live.version)
            _abort(service, match_id, f"the service failed to play version {live.version} "
                                      f"{service.queue.max_resumes} times (see worker logs)")
        requeued += outcome == "queued"
    return requeued


def orphaned(service) -> list[str]:
    """The matches where a bot must act that no runner holds (no lease) and none waits for
    (no runner job queued): three round trips for all of them. A tournament's backlog is
    all queued matches; reading and asking about each one by one cost every worker's
    janitor 5 round trips and 0.5 ms of CPU per queued match every JANITOR_INTERVAL."""
    store, ids = service.store, service.store.automated_ids()
    pipe = store.data.pipeline(transaction=False)
    for match_id in ids:
        pipe.exists(lease_key(service, match_id))
        pipe.get(store.key(match_id, "ver"))
    replies = pipe.execute()
    versions = {match_id: int(version) for match_id, leased, version
                in zip(ids, replies[::2], replies[1::2]) if not leased and version is not None}
    if not versions:
        return []
    waiting = service.queue.waiting(versions, store.prefix)
    return [match_id for match_id in versions if match_id not in waiting]


def expire_remote(service, now: float | None = None) -> int:
    """Forfeit remote seats that let their decision's time run out (seat.timeout); count them.

    The deadline is re-checked against the live record, so a move that landed meanwhile wins.
    """
    now = time.time() if now is None else now
    expired = 0
    for match_id in service.store.remote_overdue(now):
        meta, live = service.load(match_id)
        if service.remote_due(meta, live) is None:   # a stale entry: nobody remote is to act
            service.store.repair_indexes(match_id, live,
                                         service.automated_seat(meta, live) is not None, None)
            continue
        if now - live.updated_at < service.remote_limit(meta):
            continue
        for seat in live.pending:
            if meta.seat_kind(seat) == REMOTE and str(seat) not in live.forfeits:
                try:
                    live = service.forfeit_seat(match_id, seat, "seat.timeout", live.version)
                    expired += 1
                except RefereeError as err:  # it moved on or ended: the seat was in time
                    log.info("match %s seat %s not timed out: %s", match_id, seat, err)
                    break
    return expired


def archive_finished(service, now: float | None = None) -> int:
    """Move matches that ended more than the retention period ago into the archive."""
    now = time.time() if now is None else now
    before = now - service.settings.retention_days * 86_400
    return sum(1 for match_id in service.store.archive.due(before)
               if service.store.archive.move_out(service.store, match_id))


def _abort(service, match_id: str, reason: str) -> None:
    try:
        service.abort(match_id, reason)
    except RefereeError as err:  # it moved on or ended meanwhile: nothing to abort
        log.info("match %s not aborted: %s", match_id, err)


def _janitor_loop(service, stop: threading.Event, interval: float) -> None:
    while not stop.wait(interval):
        try:
            if not janitors_turn(service, interval):
                continue
            count = sweep(service)
            timed_out = expire_remote(service)
            archived = archive_finished(service)
            if archived:
                log.info("janitor archived %d finished match(es)", archived)
            if timed_out:
                log.warning("janitor forfeited %d remote seat(s) on time", timed_out)
            if count:
                log.warning("janitor re-queued %d match(es) whose runner had stopped", count)
        except Exception:  # keep sweeping: a Redis blip must not end the janitor
            log.exception("janitor sweep failed")


def janitors_turn(service, interval: float) -> bool:
    """Whether this process's janitor sweeps now: the first of the service's processes to
    tick takes the turn for most of an interval, so N workers sweep about once an interval,
    not N times (and two janitors never count one stopped runner as two resumes)."""
    key, holder = f"{service.store.prefix}:janitor", f"{socket.gethostname()}:{os.getpid()}"
    return bool(service.store.redis.set(key, holder, nx=True, px=int(interval * 900)))


def start_janitor(service, interval: float = defaults.JANITOR_INTERVAL) -> threading.Event:
    """Run the janitor in a daemon thread; set the returned event to stop it."""
    stop = threading.Event()
    threading.Thread(target=_janitor_loop, args=(service, stop, interval), daemon=True,
                     name="referee-janitor").start()
    return stop


def wake() -> None:
    """A job that does nothing: taken by an idle embedded worker, it ends the worker's wait
    for work at once, so that it sees its stop request (see `EmbeddedWorkers.stop`)."""


class EmbeddedWorkers:
    """Worker threads and a janitor inside this process; `stop()` ends them."""

    def __init__(self, workers: list, threads: list, janitor: threading.Event, waker: Queue):
        self.workers, self.threads, self.janitor, self.waker = workers, threads, janitor, waker

    def stop(self, timeout: float = 10.0) -> None:
        """Ask every worker to stop after its current job, wake the idle ones, wait for them,
        stop the janitor.

        An idle worker waits for a job up to a poll (WORKER_POLL_SECONDS); a `wake` job on
        the queue only these workers listen to ends that wait now (the suite stops hundreds
        of apps, and waited most of a second for each). A stopped worker leaves RQ's worker
        sets; its `rq:worker:<name>` hash, which RQ keeps a minute as a tombstone, is deleted
        here too, so nothing of it stays in Redis, nor do the wake jobs nobody took.
        """
        self.janitor.set()
        for worker in self.workers:
            worker._stop_requested = True  # what RQ's own stop signal handler sets
        for _ in self.workers:
            self.waker.enqueue(wake, result_ttl=0, failure_ttl=0)
        deadline = time.monotonic() + timeout
        for worker, thread in zip(self.workers, self.threads):
            thread.join(max(0.0, deadline - time.monotonic()))
            if not thread.is_alive():
                worker.connection.delete(worker.key)
        self.waker.delete(delete_jobs=True)


def start_embedded(service, threads: int) -> EmbeddedWorkers:
    """Start `threads` in-process worker threads (and a janitor) on the service's queue, each
    also listening to a wake queue of their own (`EmbeddedWorkers.stop`)."""
    settings = service.settings
    serve_queue(settings.queue_name, service)
    waker = Queue(f"{settings.queue_name}:wake-{time.time_ns()}",
                  connection=connect(settings.redis_url, decode=False))
    workers, started = [], []
    for i in range(threads):
        connection = connect(settings.redis_url, decode=False)
        worker = ThreadWorker([Queue(settings.queue_name, connection=connection),
                               Queue(waker.name, connection=connection)],
                              connection=connection,
                              name=f"embedded-{settings.queue_name}-{i}-{time.time_ns()}")
        thread = threading.Thread(target=worker.work, kwargs={"logging_level": "WARNING"},
                                  daemon=True, name=f"referee-worker-{i}")
        thread.start()
        workers.append(worker)
        started.append(thread)
    return EmbeddedWorkers(workers, started, start_janitor(service), waker)


def run_worker(service, burst: bool = False, name: str | None = None) -> None:
    """Run one RQ worker process against a real Redis (the `referee worker` command)."""
    settings = service.settings
    serve_queue(settings.queue_name, service)
    stop = start_janitor(service)
    connection = connect(settings.redis_url, decode=False)
    worker = ListeningWorker([Queue(settings.queue_name, connection=connection)],
                             connection=connection, name=name)
    try:
        worker.work(burst=burst, logging_level="INFO")
    finally:
        stop.set()


def drop_queue(client, name: str) -> None:
    """Delete the RQ queue `name` (one a benchmark or a test made for itself), with every job
    it still knew (queued, being taken by a worker as it stopped, or in one of its
    registries: RQ keeps a finished job's record, and such jobs have no expiry), its
    registries, its intermediate list and its place in RQ's set of queues. `client`: a
    Redis client."""
    queue = Queue(name, connection=client)
    registries = [queue.started_job_registry, queue.finished_job_registry,
                  queue.failed_job_registry, queue.deferred_job_registry,
                  queue.scheduled_job_registry, queue.canceled_job_registry]
    taken = client.lrange(queue.intermediate_queue_key, 0, -1)   # a worker was taking them
    jobs = {*queue.job_ids, *(i for r in registries for i in r.get_job_ids()),
            *(i.decode() if isinstance(i, bytes) else i for i in taken)}
    client.delete(*(f"{prefix}{i}" for i in jobs for prefix in ("rq:job:", "rq:results:")),
                  *(r.key for r in registries), queue.intermediate_queue_key,
                  *_execution_keys(client, jobs))
    queue.delete(delete_jobs=True)


def _execution_keys(client, jobs) -> list[str]:
    """RQ's records of the jobs' executions: a worker killed during a job (a test's, a
    benchmark's) leaves its execution and the job's executions set for an hour."""
    jobs = list(jobs)
    if not jobs:
        return []
    pipe = client.pipeline(transaction=False)
    for job in jobs:
        pipe.zrange(f"rq:executions:{job}", 0, -1)
    found = []
    for job, ids in zip(jobs, pipe.execute()):
        found.append(f"rq:executions:{job}")
        found += [f"rq:execution:{job}:{i.decode() if isinstance(i, bytes) else i}"
                  for i in ids]
    return found
