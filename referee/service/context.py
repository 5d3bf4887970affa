"""Building the service for this process from Settings: store, queue, drivers, games."""

from __future__ import annotations

import importlib
import os
import threading
import time

from rq import Queue, Retry
from rq.exceptions import DuplicateJobError, NoSuchJobError
from rq.job import Job, JobStatus

from referee.core.registry import Registry
from referee.service.config import Settings
from referee.service.connection import connect
from referee.service.matches import MatchService
from referee.service.store import MatchStore

_services: dict = {}
_lock = threading.Lock()


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

    max_resumes = 5
    """Runners restarted at one version before the match is aborted as our own failure."""

    def resume(self, match_id: str, version: int, prefix: str) -> str:
        """Queue the runner again for a match whose runner stopped.

        Returns "queued", "waiting" (a runner job is already queued: a backlog, not a death)
        or "give_up" (it kept failing at this version: the caller aborts the match).
        """
        redis = self.queue.connection
        last = f"{prefix}:m:{match_id}:resume-job"
        for job_id in (f"advance-{match_id}-{version}", redis.get(last)):
            if job_id and self._queued(job_id.decode() if isinstance(job_id, bytes) else job_id):
                return "waiting"
        count_key = f"{prefix}:m:{match_id}:resumes:{version}"
        count = redis.incr(count_key)
        redis.expire(count_key, 86400)
        if count > self.max_resumes:
            return "give_up"
        job_id = f"advance-{match_id}-{version}-resume-{count}"
        self._enqueue(match_id, job_id)
        redis.set(last, job_id, ex=86400)
        return "queued"

    def _queued(self, job_id: str) -> bool:
        try:
            return Job.fetch(job_id, connection=self.queue.connection).get_status() == \
                JobStatus.QUEUED
        except NoSuchJobError:
            return False

    def _enqueue(self, match_id: str, job_id: str) -> None:
        try:
            self.queue.enqueue("referee.service.jobs.advance", match_id, job_id=job_id,
                               unique=True, job_timeout=3600, result_ttl=60,
                               failure_ttl=86400, retry=Retry(max=3))
        except DuplicateJobError:
            pass


def build_service(settings: Settings) -> MatchService:
    """A MatchService wired to Redis (or the embedded store), RQ and the seat drivers."""
    store = MatchStore(connect(settings.redis_url), settings.key_prefix)
    queue = JobQueue(settings)
    service = MatchService(store, registry_for(settings), queue.enqueue_advance,
                           drivers=_plugin_drivers(settings))
    service.settings, service.queue = settings, queue
    for hook in _plugin_hooks():
        hook(service)
    return service


def _plugin_drivers(settings: Settings) -> dict:
    try:
        from arena.service import drivers_for
    except ImportError:
        return {}
    return drivers_for(settings)


def _plugin_hooks() -> list:
    try:
        from arena.service import service_hooks
    except ImportError:
        return []
    return service_hooks()


_queue_services: dict[str, MatchService] = {}


def serve_queue(queue_name: str, service: MatchService) -> None:
    """Make `service` the one that jobs from `queue_name` run against in this process."""
    _queue_services[queue_name] = service


def service_for_queue(queue_name: str | None) -> MatchService:
    """The service jobs from `queue_name` run against (else the one from the environment)."""
    service = _queue_services.get(queue_name or "")
    return service if service is not None else get_service(Settings())


def get_service(settings: Settings | None = None) -> MatchService:
    """The process-wide service for these settings (built once)."""
    settings = settings or Settings()
    key = (settings.redis_url, settings.key_prefix, settings.queue_name)
    with _lock:
        service = _services.get(key)
        if service is None:
            service = _services[key] = build_service(settings)
        return service
