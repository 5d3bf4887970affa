"""Assembling a MatchService from Settings and plug-ins: store, job queue, drivers, games.

`assemble` knows no plug-in by name: the composition root (referee/root.py) chooses them.
"""

from __future__ import annotations

import importlib
import os

from rq import Queue, Retry
from rq.exceptions import DuplicateJobError
from rq.job import Job, JobStatus
from rq.utils import as_text

from referee.core.registry import Registry
from referee.service.config import Settings
from referee.service.connection import connect, connect_store
from referee.service.drivers import SeatDriver
from referee.service import defaults
from referee.service.matches import MatchService
from referee.service.plugins import Plugin
from referee.service.store import MatchStore, match_key

def registry_for(settings: Settings) -> Registry:
    """The shipped games plus any from $REFEREE_EXTRA_GAMES (`module:attr`, comma-separated).

    The extra games hook lets tests (and plug-in authors) run the service with a game that is
    not shipped; the product's own games come only from `referee.games.GAMES`.
    """
    from referee.games import GAMES

    extra = [s for s in os.environ.get("REFEREE_EXTRA_GAMES", "").split(",") if s.strip()]
    if not extra:
        return GAMES
    registry = Registry(list(GAMES))
    for item in extra:
        module, _, attr = item.strip().partition(":")
        registry.add(getattr(importlib.import_module(module), attr or "GAME"))
    return registry


class JobQueue:
    """Queues `advance` jobs on RQ; one job id per (match, version), so duplicates are cheap."""

    def __init__(self, settings: Settings):
        self.queue = Queue(settings.queue_name, connection=connect(settings.redis_url, decode=False))

    def enqueue_advance(self, match_id: str, version: int) -> None:
        """Queue the runner for `match_id` at `version`, once (a duplicate id is skipped)."""
        self._enqueue(match_id, f"advance-{match_id}-{version}")

    max_resumes = defaults.MAX_RESUMES
    """Runners restarted at one version before the match is aborted as our own failure."""

    def resume(self, match_id: str, version: int, prefix: str) -> str:
        """Queue the runner again for a match whose runner stopped.

        Returns "queued", "waiting" (a runner job is already queued: a backlog, not a death)
        or "give_up" (it kept failing at this version: the caller aborts the match).
        """
        if self.waiting({match_id: version}, prefix):
            return "waiting"
        redis = self.queue.connection
        count_key = match_key(prefix, match_id, f"resumes:{version}")
        count = redis.incr(count_key)
        redis.expire(count_key, defaults.JOB_FAILURE_TTL)
        if count > self.max_resumes:
            return "give_up"
        job_id = f"advance-{match_id}-{version}-resume-{count}"
        self._enqueue(match_id, job_id)
        redis.set(_last_resume_key(prefix, match_id), job_id, ex=defaults.JOB_FAILURE_TTL)
        return "queued"

    def waiting(self, versions: dict[str, int], prefix: str) -> set[str]:
        """The matches of `versions` (match id: version) with a runner job in the queue: its
        version's job, or the last resume job sent; two round trips for all of them."""
        ids = list(versions)
        pipe = self.queue.connection.pipeline(transaction=False)
        for match_id in ids:
            pipe.get(_last_resume_key(prefix, match_id))
        jobs = {match_id: [f"advance-{match_id}-{versions[match_id]}",
                           *([as_text(last)] if last else [])]
                for match_id, last in zip(ids, pipe.execute())}
        queued = self.queued([job for group in jobs.values() for job in group])
        return {match_id for match_id, group in jobs.items() if queued.intersection(group)}

    def queued(self, job_ids: list[str]) -> set[str]:
        """Which of `job_ids` wait in the queue (status `queued`), in one round trip."""
        pipe = self.queue.connection.pipeline(transaction=False)
        for job_id in job_ids:
            pipe.hget(Job.key_for(job_id), "status")
        return {job_id for job_id, status in zip(job_ids, pipe.execute())
                if status is not None and as_text(status) == JobStatus.QUEUED.value}

    def enqueue_once(self, function: str, *args, job_id: str) -> None:
        """Queue `function(*args)` (a dotted path) under `job_id`; a duplicate id is skipped.

        For plug-ins' jobs: a job finds its service with `service_for_queue(job.origin)`.
        """
        try:
            self.queue.enqueue(function, *args, job_id=job_id, unique=True,
                               result_ttl=defaults.JOB_RESULT_TTL,
                               failure_ttl=defaults.JOB_FAILURE_TTL)
        except DuplicateJobError:
            pass

    def _enqueue(self, match_id: str, job_id: str) -> None:
        try:
            self.queue.enqueue("referee.service.jobs.advance", match_id, job_id=job_id,
                               unique=True, job_timeout=defaults.JOB_TIMEOUT_SECONDS,
                               result_ttl=defaults.JOB_RESULT_TTL,
                               failure_ttl=defaults.JOB_FAILURE_TTL, retry=Retry(max=3))
        except DuplicateJobError:
            pass


def _last_resume_key(prefix: str, match_id: str) -> str:
    """Where `resume` keeps the id of the last resume job it queued for a match."""
    return match_key(prefix, match_id, "resume-job")


def assemble(settings: Settings, plugins: list[Plugin], queued: bool = True) -> MatchService:
    """A MatchService on Redis (or the embedded store) with the plug-ins' drivers and hooks.

    `queued=False` gives a service that queues nothing: its caller runs the runner itself
    (the offline commands, the benchmarks).
    """
    store = MatchStore(connect(settings.redis_url), settings.key_prefix,
                       connect_store(settings.store_url), settings.store_wait_ms)
    drivers, attach = {}, []
    for plugin in plugins:
        own = plugin.settings(settings)
        for prefix, driver in plugin.drivers(store, own).items():
            if prefix in drivers or prefix in ("builtin", "remote"):
                raise ValueError(f"plug-in {plugin.name!r}: seat kind {prefix!r} is taken")
            if not isinstance(driver, SeatDriver):   # its hooks are called, never probed for
                raise TypeError(f"plug-in {plugin.name!r}: the driver of {prefix!r} is not a "
                                f"SeatDriver (referee/service/drivers.py)")
            drivers[prefix] = driver
        if plugin.attach is not None:
            attach.append((plugin.name, _binder(plugin.attach, own)))
    return MatchService(store, registry_for(settings), settings,
                        JobQueue(settings) if queued else None, drivers, attach)


def _binder(attach, own):
    return lambda service: attach(service, own)


_queue_services: dict[str, MatchService] = {}


def serve_queue(queue_name: str, service: MatchService) -> None:
    """Make `service` the one that jobs from `queue_name` run against in this process."""
    _queue_services[queue_name] = service


def service_for_queue(queue_name: str | None) -> MatchService:
    """The service that jobs from `queue_name` run against in this process.

    `referee worker` and the embedded workers register theirs (`serve_queue`); a job picked up
    by any other worker has no service to run against, which is a deployment error.
    """
    service = _queue_services.get(queue_name or "")
    if service is None:
        raise RuntimeError(f"no service serves queue {queue_name!r} in this process: run jobs "
                           f"with `referee worker`, not a plain RQ worker")
    return service
