"""Workers: RQ worker processes for a real Redis, or threads for the embedded default.

Both run the same job functions; both run the janitor, which re-queues matches whose runner
died (its lease expired while a bot still had to act).
"""

from __future__ import annotations

import logging
import threading
import time

from rq import Queue, SimpleWorker
from rq.timeouts import TimerDeathPenalty

from referee.core.errors import RefereeError
from referee.service.config import Settings
from referee.service.connection import connect
from referee.service.context import get_service, serve_queue
from referee.service.runner import lease_key

log = logging.getLogger(__name__)

JANITOR_INTERVAL = 2.0
"""Seconds between the janitor's sweeps."""


class ThreadWorker(SimpleWorker):
    """An RQ worker that runs in a thread: no signal handlers, timer-based job timeouts."""

    death_penalty_class = TimerDeathPenalty

    def _install_signal_handlers(self):
        """Signals belong to the main thread; the embedded worker stops with the process."""


def sweep(service) -> int:
    """Re-queue every match where a bot must act and no runner holds the lease; count them.

    A match whose runner keeps failing at one version is aborted: that is our failure, and
    an aborted match is never rated nor blamed on a bot.
    """
    requeued = 0
    for match_id in service.store.automated_ids():
        if service.store.redis.exists(lease_key(service, match_id)):
            continue
        meta, live = service.load(match_id)
        if live.status != "active" or service.automated_seat(meta, live) is None \
                or time.time() - live.updated_at <= JANITOR_INTERVAL:
            continue
        outcome = service.queue.resume(match_id, live.version, service.store.prefix)
        if outcome == "give_up":
            log.error("match %s: the runner failed %d times at version %d; aborting",
                      match_id, service.queue.max_resumes, live.version)
            _abort(service, match_id, f"the service failed to play version {live.version} "
                                      f"{service.queue.max_resumes} times (see worker logs)")
        requeued += outcome == "queued"
    return requeued


def _abort(service, match_id: str, reason: str) -> None:
    try:
        service.abort(match_id, reason)
    except RefereeError as err:  # it moved on or ended meanwhile: nothing to abort
        log.info("match %s not aborted: %s", match_id, err)


def _janitor_loop(service, stop: threading.Event, interval: float) -> None:
    while not stop.wait(interval):
        try:
            count = sweep(service)
            if count:
                log.warning("janitor re-queued %d match(es) whose runner had stopped", count)
        except Exception:  # keep sweeping: a Redis blip must not end the janitor
            log.exception("janitor sweep failed")


def start_janitor(service, interval: float = JANITOR_INTERVAL) -> threading.Event:
    """Run the janitor in a daemon thread; set the returned event to stop it."""
    stop = threading.Event()
    threading.Thread(target=_janitor_loop, args=(service, stop, interval), daemon=True,
                     name="referee-janitor").start()
    return stop


_embedded_started: set = set()


def start_embedded(settings: Settings, threads: int | None = None) -> None:
    """Start in-process worker threads (and a janitor) once per queue in this process."""
    if settings.queue_name in _embedded_started:
        return
    _embedded_started.add(settings.queue_name)
    service = get_service(settings)
    serve_queue(settings.queue_name, service)
    for i in range(threads or settings.embedded_workers):
        worker = ThreadWorker([Queue(settings.queue_name,
                                     connection=connect(settings.redis_url, decode=False))],
                              connection=connect(settings.redis_url, decode=False),
                              name=f"embedded-{settings.queue_name}-{i}-{time.time_ns()}")
        threading.Thread(target=worker.work, kwargs={"logging_level": "WARNING"},
                         daemon=True, name=f"referee-worker-{i}").start()
    start_janitor(service)


def run_worker(settings: Settings, burst: bool = False, name: str | None = None) -> None:
    """Run one RQ worker process against a real Redis (the `referee worker` command)."""
    service = get_service(settings)
    serve_queue(settings.queue_name, service)
    stop = start_janitor(service)
    connection = connect(settings.redis_url, decode=False)
    worker = SimpleWorker([Queue(settings.queue_name, connection=connection)],
                          connection=connection, name=name)
    try:
        worker.work(burst=burst, logging_level="INFO")
    finally:
        stop.set()
