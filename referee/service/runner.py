"""Playing the automated seats of a match: the body of the `advance` job.

The runner takes a match id only and reads everything from the store, so any worker can run
it, any number of times: it plays every automated seat (builtin bots, HTTP bots, forfeited
seats) until a remote seat must act or the match ends, committing each move as it goes. A lease
in Redis keeps two runners off one match; a runner that dies leaves the lease to expire, and
the janitor re-queues the match, which resumes from the stored state and log.
"""

from __future__ import annotations

import logging
import os
import socket
import time

from referee.core import engine
from referee.core.bots import random_move
from referee.core.errors import IllegalMove, MalformedMove, StaleVersion, UnexpectedMove
from referee.service.drivers import REMOTE, Choice, Turn, split_kind
from referee.service.store import MatchStatus

log = logging.getLogger(__name__)

LEASE_SECONDS = int(os.environ.get("REFEREE_LEASE_SECONDS", "10"))
"""How long a runner's claim on a match lasts without renewal (renewed before every move)."""

RUNNER_ID = f"{socket.gethostname()}:{os.getpid()}"


def lease_key(service, match_id: str) -> str:
    """The Redis key of the runner lease on a match."""
    return service.store.key(match_id, "runner")


def advance(service, match_id: str, runner_id: str = RUNNER_ID) -> int:
    """Play automated seats until a remote seat must act or the match ends; moves made."""
    token = f"{runner_id}:{time.monotonic_ns()}"
    redis, key = service.store.redis, lease_key(service, match_id)
    if not redis.set(key, token, nx=True, ex=LEASE_SECONDS):
        return 0  # another runner holds the match; it will see our change too
    moves = 0
    try:
        while _renew(redis, key, token, service, match_id):
            meta, live = service.load(match_id)
            seat = service.automated_seat(meta, live) if live.status == "active" else None
            if seat is None:
                break
            moves += _play_one(service, meta, live, seat)
    finally:
        if redis.get(key) == token:
            redis.delete(key)
    _requeue_if_needed(service, match_id)
    return moves


def _renew(redis, key: str, token: str, service, match_id: str) -> bool:
    """Extend our lease for the next move; False if we lost it."""
    meta = service.store.meta(match_id)
    seconds = LEASE_SECONDS + int(meta.limits.get("move_ms", 0) / 1000 * 2) if meta else LEASE_SECONDS
    if redis.get(key) != token:
        return False
    redis.expire(key, seconds)
    return True


def _requeue_if_needed(service, match_id: str) -> None:
    """A move that landed while we were releasing the lease must not strand the match."""
    meta, live = service.load(match_id)
    if live.status == MatchStatus.ACTIVE and service.automated_seat(meta, live) is not None:
        service.enqueue(match_id, live.version)


def _play_one(service, meta, live, seat: int) -> int:
    """Choose and commit one move for an automated seat; 1 if it landed, 0 if it raced."""
    game = service.games.get(meta.game)
    state = service.state(meta, live)
    decision = engine.decision_for(game, state, seat)
    forfeited = str(seat) in live.forfeits
    report = None
    if forfeited or meta.seat_kind(seat) == REMOTE:
        choice, by = Choice(random_move(game, state, seat, meta.seed, live.version)), "referee"
    else:
        prefix, ref = split_kind(meta.seat_kind(seat))
        driver = service.drivers[prefix]
        choice = driver.choose(Turn(meta, live, game, state, seat, decision), ref)
        by = "seat"
        if hasattr(driver, "rejected"):
            def report(failure):
                driver.rejected(ref, failure, meta.id, live.version)
    return _commit_choice(service, meta, live, game, state, seat, choice, by, report)


def _commit_choice(service, meta, live, game, state, seat, choice: Choice, by: str,
                   report=None) -> int:
    """Commit the driver's move; a failure or a rejected move goes through the policy.

    `report(failure)` tells the driver that the rules rejected its move.
    """
    extra = {"latency_ms": choice.latency_ms} if choice.latency_ms is not None else {}
    extra.update(choice.extra)
    clock = _clock_update(seat, choice)
    try:
        if choice.failure is None:
            service.submit(meta.id, seat, choice.move, expected_version=live.version, by=by,
                           entry_extra=extra, update_live=clock, from_runner=True)
            return 1
        failure = choice.failure
    except StaleVersion:
        return 0
    except (MalformedMove, UnexpectedMove, IllegalMove) as err:
        failure = {"code": "bot.illegal_move", "move": choice.move, "error": err.to_dict()}
        if report is not None:
            report(failure)
    move, update = _apply_policy(meta, live, game, state, seat, failure, clock)
    try:
        service.submit(meta.id, seat, move, expected_version=live.version, by="referee",
                       entry_extra={**extra, "failure": failure}, update_live=update,
                       from_runner=True)
    except StaleVersion:
        return 0
    return 1


def _clock_update(seat: int, choice: Choice):
    """A live update recording the seat's remaining time bank, if the driver keeps one."""
    if choice.clock_ms is None:
        return None

    def update(new_live):
        new_live.clocks[str(seat)] = choice.clock_ms
    return update


def _apply_policy(meta, live, game, state, seat: int, failure: dict, clock):
    """Strike or forfeit per the match's failure policy; the referee then plays at random.

    Returns the referee's move and the live update that records the strike or the forfeit.
    """
    allowed = int(meta.limits.get("strikes", 0))
    used = int(live.strikes.get(str(seat), 0))
    move = random_move(game, state, seat, meta.seed, live.version)
    if used >= allowed:
        log.info("match %s: seat %s forfeits (%s)", meta.id, seat, failure.get("code"))

    def update(new_live):
        if clock is not None:
            clock(new_live)
        if used < allowed:
            new_live.strikes[str(seat)] = used + 1
        else:
            new_live.forfeits[str(seat)] = {**failure, "version": live.version}
    return move, update
