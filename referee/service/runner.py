"""Playing the automated seats of a match: the body of the `advance` job, as one pipeline.

The runner takes a match id only and reads everything from the store, so any worker can run
it, any number of times: it plays every automated seat (builtin bots, HTTP bots, forfeited
seats) until a remote seat must act or the match ends, committing moves as it goes: a move of
a seat played in this process (builtin bots, forfeited seats) waits in a batch committed with
the next ones in one round trip (batch.py), any other is committed alone. A commit carries
the driver's preparation of the next seat's call when there is one (the `rider` stage: the
arena takes the next bot's call slot in the commit's round trip); the call itself is made only
after the commit answered, so a bot never sees a version that does not land. A lease in Redis
keeps two runners off one match; a runner that dies leaves the lease to expire, and the
janitor re-queues the match, which resumes from the stored state and log (and makes the
moves of a batch that never landed again: they are functions of the match alone).

The pipeline, as Battlesnake's rules pipeline: every stage is a small function of the pass's
context (`Run`: meta, game, lease, batch) and of what the stage before it produced, called by
`advance` and `_play` alone, in this order; none calls another stage or this module back
(tests/service/test_pipeline.py traces one match to check it). A move's stages are here
(keep), in turns.py (seat to rider) and in batch.py (land), so a step never goes back to a
module it left:
  take      the lease, and the live record read in the same round trip  -> Position | None
  a step per move (STEP), while every stage gives something:
    keep      the lease renewed (lazily); lost: the steps stop          -> Position | None
    seat      which seat acts (an automated one of an active match)     -> Seat | None
    turn      its decision (the one the rider stage prepared, if any)   -> drivers.Turn
    choice    the driver's move, a stall, or the referee's for a forfeit -> Chosen
    verdict   rules and failure policy (strike, forfeit): the new record -> batch.Step
    rider     the next seat's preparation, to ride in the commit that
              stores the step (for a seat not played here: one commits) -> batch.Landing
    land      into the batch, committed with it when due (batch.py)     -> Position
  flush     what waits in the batch lands (dropped when the lease was lost) -> moves
  release   the lease given back, the live record read in the same round trip -> Live
  requeue   a move that landed while we released must not strand the match
"""

from __future__ import annotations

import logging
import os
import socket
import time

from referee.service import defaults
from referee.service.batch import MoveBatch, Position, land
from referee.service.drivers import Turn
from referee.service.lease import Lease
from referee.service.store import MatchStatus, parse_live
from referee.service.turns import choice, rider, seat, turn, verdict

log = logging.getLogger(__name__)

RUNNER_ID = f"{socket.gethostname()}:{os.getpid()}"


def lease_key(service, match_id: str) -> str:
    """The Redis key of the runner lease on a match."""
    return service.store.key(match_id, "runner")


def runner_lease(service, meta, runner_id: str = RUNNER_ID) -> Lease:
    """The runner's claim on a match: long enough to outlast the slowest bot call its limits
    allow, renewed as it plays."""
    slowest = sum(int(meta.limits.get(k, 0)) for k in ("move_ms", "bank_ms", "start_ms")) / 1000
    return Lease(service.store.data, lease_key(service, meta.id),
                 defaults.LEASE_SECONDS + int(slowest) + 1, f"{runner_id}:{time.monotonic_ns()}")


class Run:
    """One runner's pass over one match: what every stage reads (and the moves landed)."""

    def __init__(self, service, meta, runner_id: str):
        """The context of a pass; the batch comes with the live record (`take`)."""
        self.service, self.meta = service, meta
        self.game = service.games.get(meta.game)
        self.lease = runner_lease(service, meta, runner_id)
        self.live_key = service.store.key(meta.id, "live")
        self.batch: MoveBatch | None = None
        self.prepared: Turn | None = None   # the next turn, worked out by the rider stage
        self.lost = False                   # the lease was lost (another runner holds it)
        self.moves = 0


def advance(service, match_id: str, runner_id: str = RUNNER_ID) -> int:
    """Play automated seats until a remote seat must act or the match ends; moves made.

    Two round trips besides the commits (one per batch of moves played here, one per other
    move): taking the lease reads the live record, releasing it reads the record again (a
    move that landed meanwhile must not strand the match)."""
    meta = service.store.meta(match_id) if isinstance(match_id, str) else None
    if meta is None:
        meta, _ = service.load(match_id)  # MatchNotFound, or a match stored just now
    run = Run(service, meta, runner_id)
    at = take(run)
    if at is None:
        return 0  # another runner holds the match; it will see our change too
    try:
        _play(run, at)
        flush(run)
    except Exception:
        _flush_after_failure(run.batch)
        raise
    finally:
        live = release(run)
        _flush_drivers(service)
    requeue(run, live)
    return run.moves


def _play(run: Run, at: Position) -> None:
    """The steps, one a move, each stage fed what the one before it produced."""
    while True:
        for stage in STEP:
            at = stage(run, at)
            if at is None:
                return


def take(run: Run) -> Position | None:
    """Take the lease and read the live record in one round trip; None if another runner
    holds the match. The batch starts on that record."""
    taken, raw = run.lease.acquire_reading(run.live_key)
    if not taken:
        return None
    try:
        run.batch = MoveBatch(run.service, run.meta, _live(run, raw))
    except BaseException:
        run.lease.release()   # the match is gone: nothing was played, nothing to requeue
        raise
    return Position(run.batch.live)


def keep(run: Run, at: Position) -> Position | None:
    """Renew the lease before a move (a round trip a third of the lease at most); lost:
    another runner holds the match and makes the waiting moves again."""
    if run.lease.renew(lazy=True):
        return at
    run.lost = True
    return None


STEP = (keep, seat, turn, choice, verdict, rider, land)
"""The stages of one move, in order (see the module's docstring)."""


def flush(run: Run) -> int:
    """The steps stopped: what waits in the batch lands, or is forgotten when the lease was
    lost (its new holder makes those moves again); how many landed."""
    if run.lost:
        run.batch.drop()
        return 0
    landed = run.batch.flush()
    run.moves += landed
    return landed


def release(run: Run):
    """Give the lease up and read the live record in the same round trip."""
    _, raw = run.lease.release_reading(run.live_key)
    return _live(run, raw)


def requeue(run: Run, live) -> None:
    """A move that landed while we were releasing the lease must not strand the match."""
    if live.status == MatchStatus.ACTIVE and run.service.automated_seat(run.meta, live) is not None:
        run.service.enqueue(run.meta.id, live.version)


def _live(run: Run, raw: str | None):
    """The live record from its stored JSON (read with the lease); the store's own read when
    it was not there (archived, or gone: MatchNotFound)."""
    if raw is not None:
        return parse_live(raw)
    return run.service.load(run.meta.id)[1]


def _flush_after_failure(batch) -> None:
    """The runner failed (a bug, a lost connection): the moves it made before land, as they
    would have one by one; a failure to commit them only loses work (a resumed match makes
    them again), and the runner's own failure is the one reported."""
    if batch is not None:
        try:
            batch.flush()
        except Exception:
            log.warning("match %s: moves made before a failure were not committed",
                        batch.meta.id, exc_info=True)


def _flush_drivers(service) -> None:
    """The runner stops: drivers write what they kept in memory meanwhile (bot health)."""
    for driver in service.drivers.values():
        driver.flush()
