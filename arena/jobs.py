"""RQ jobs of the arena: module-level, ids only, idempotent."""

from __future__ import annotations

from rq import get_current_job

from referee.service.context import service_for_queue


def finish(match_id: str) -> bool:
    """Finish a match once: bots' /end, health figures, leaderboard, tournament progress."""
    job = get_current_job()
    return service_for_queue(job.origin if job else None).extensions["arena"].finish(match_id)
