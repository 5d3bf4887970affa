"""RQ job functions: module-level, importable by every worker, taking ids only."""

from __future__ import annotations

from rq import get_current_job

from referee.service import runner
from referee.service.context import service_for_queue


def advance(match_id: str) -> int:
    """Play the automated seats of `match_id` until a remote seat must act or it ends."""
    job = get_current_job()
    return runner.advance(service_for_queue(job.origin if job else None), match_id)
