"""Playing the automated seats of a match: the body of the `advance` job.

The runner takes a match id only and reads everything from the store, so any worker can run
it, any number of times: it plays every automated seat (builtin bots, HTTP bots, forfeited
seats) until a remote seat must act or the match ends, committing moves as it goes: a move of
a seat played in this process (builtin bots, forfeited seats) waits in a batch committed with
the next ones in one round trip (batch.py), any other is committed alone. A commit carries
the driver's preparation of the next seat's call when there is one (`_next_rider`: the arena
takes the next bot's call slot in the commit's round trip); the call itself is made only after
the commit answered, so a bot never sees a version that does not land. A lease in Redis
keeps two runners off one match; a runner that dies leaves the lease to expire, and the
janitor re-queues the match, which resumes from the stored state and log (and makes the
moves of a batch that never landed again: they are functions of the match alone).
"""

from __future__ import annotations

import logging
import os
import socket
import time

from referee.core import engine
from referee.core.bots import random_move
from referee.core.errors import IllegalMove, MalformedMove, UnexpectedMove
from referee.service import defaults
from referee.service.batch import MoveBatch
from referee.service.drivers import REMOTE, Choice, SeatDriver, Turn, split_kind
from referee.service.lease import Lease
from referee.service.store import MatchStatus, parse_live

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


def advance(service, match_id: str, runner_id: str = RUNNER_ID) -> int:
    """Play automated seats until a remote seat must act or the match ends; moves made.

    Two round trips besides the commits (one per batch of moves played here, one per other
    move): taking the lease reads the live record, releasing it reads the record again (a
    move that landed meanwhile must not strand the match)."""
    meta = service.store.meta(match_id) if isinstance(match_id, str) else None
    if meta is None:
        meta, _ = service.load(match_id)  # MatchNotFound, or a match stored just now
    lease, key = runner_lease(service, meta, runner_id), service.store.key(match_id, "live")
    taken, raw = lease.acquire_reading(key)
    if not taken:
        return 0  # another runner holds the match; it will see our change too
    moves, batch, prepared = 0, None, _Prepared()
    try:
        batch = MoveBatch(service, meta, _live(service, match_id, raw),
                          rider_for=lambda live, state: _next_rider(service, meta, live, state,
                                                                    prepared))
        while True:
            if not lease.renew(lazy=True):
                batch.drop()   # another runner holds the match: it makes these moves again
                break
            live = batch.live
            seat = service.automated_seat(meta, live) if live.status == MatchStatus.ACTIVE else None
            if seat is None:
                break
            landed, _ = _play_one(service, meta, batch, seat, prepared)
            moves += landed
        moves += batch.flush()
    except Exception:
        _flush_after_failure(batch)
        raise
    finally:
        _, raw = lease.release_reading(key)
        _flush_drivers(service)
    _requeue_if_needed(service, meta, _live(service, match_id, raw))
    return moves


def _live(service, match_id: str, raw: str | None):
    """The live record from its stored JSON (read with the lease); the store's own read when
    it was not there (archived, or gone: MatchNotFound)."""
    if raw is not None:
        return parse_live(raw)
    return service.load(match_id)[1]


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


def _requeue_if_needed(service, meta, live) -> None:
    """A move that landed while we were releasing the lease must not strand the match."""
    if live.status == MatchStatus.ACTIVE and service.automated_seat(meta, live) is not None:
        service.enqueue(meta.id, live.version)


class _Prepared:
    """The turn `_next_rider` worked out for the record a commit stores: the loop's next turn
    when that commit landed, so its seat's decision is not worked out twice."""

    turn: Turn | None = None

    def decision(self, game, live, state, seat: int):
        """The prepared decision when it is for this very record and seat, else computed."""
        turn, self.turn = self.turn, None
        if turn is not None and turn.live is live and turn.seat == seat:
            return turn.decision
        return engine.decision_for(game, state, seat)


def _play_one(service, meta, batch: MoveBatch, seat: int, prepared: _Prepared):
    """Choose and commit one move for an automated seat at the batch's newest record: in the
    batch for a seat played here, else committed alone (the batch is empty then: it is
    flushed as soon as such a seat is pending). (Moves that landed, the newest live.)"""
    game, live, state = service.games.get(meta.game), batch.live, batch.state()
    if batch.played_here(seat):
        land = batch.add
    else:
        landed = batch.flush()   # nothing waits by then; the seat acts on a committed match
        if landed or batch.live is not live:
            return landed, batch.live
        land = _alone(batch)
    decision = prepared.decision(game, live, state, seat)
    if str(seat) in live.forfeits or meta.seat_kind(seat) == REMOTE:
        choice = Choice(random_move(game, state, seat, meta.seed, live.version))
        return _commit_choice(meta, live, game, state, seat, choice, "referee", land)
    prefix, ref = split_kind(meta.seat_kind(seat))
    driver: SeatDriver = service.drivers[prefix]

    def report(failure):
        driver.rejected(ref, failure, meta.id, live.version)
    choice = _stalling(meta, live, seat)
    if choice is not None:
        report(choice.failure)
    choice = choice or driver.choose(Turn(meta, live, game, state, seat, decision), ref)
    return _commit_choice(meta, live, game, state, seat, choice, "seat", land, report)


def _alone(batch: MoveBatch):
    """`land` for a move committed alone, at once (an HTTP bot's: the batch is empty); when
    the match moved on meanwhile nothing lands and the batch goes on from the stored record."""
    def land(seat, move, by, extra, update):
        return batch.add(seat, move, by, extra, update, alone=True)
    return land


def _next_rider(service, meta, live, state, prepared: _Prepared):
    """A script to send with the commit that stores `live` (of game state `state`): the
    driver of the seat that acts next prepares its turn (the arena takes the bot's call
    slot in the commit's round trip and builds its request meanwhile). None unless the
    runner will ask that seat's driver next: no forfeit, no stall. The turn is kept in
    `prepared` for the loop."""
    seat = service.automated_seat(meta, live) if live.status == MatchStatus.ACTIVE else None
    if seat is None or str(seat) in live.forfeits or _stalling(meta, live, seat) is not None:
        return None
    prefix, ref = split_kind(meta.seat_kind(seat))
    driver = service.drivers.get(prefix)
    if driver is None or type(driver).rider is SeatDriver.rider:
        return None   # no rider: build no Turn for nothing
    game = service.games.get(meta.game)
    prepared.turn = Turn(meta, live, game, state, seat, engine.decision_for(game, state, seat))
    return driver.rider(prepared.turn, ref)


def _stalling(meta, live, seat: int) -> Choice | None:
    """A failure for a bot that has moved `max_streak` times in a row without its turn ending
    (moves like exchanges can repeat forever); None while it is within the limit."""
    limit = meta.limits.get("max_streak")
    if limit and live.streak[0] == seat and live.streak[1] >= limit:
        return Choice(failure={"code": "bot.stalling", "moves_in_a_row": live.streak[1],
                               "limit": limit})
    return None


def _commit_choice(meta, live, game, state, seat, choice: Choice, by: str, land,
                   report=None):
    """Land the driver's move; a failure or a rejected move goes through the policy.

    `land(seat, move, by, entry extra, live update)` commits or batches a move, raising what
    the rules refuse; `report(failure)` tells the driver that the rules rejected its move.
    Returns (moves that landed, the newest live record).
    """
    extra = {"latency_ms": choice.latency_ms} if choice.latency_ms is not None else {}
    extra.update(choice.extra)
    clock = _seat_update(seat, choice)
    try:
        if choice.failure is None:
            return land(seat, choice.move, by, extra, clock)
        failure = choice.failure
    except (MalformedMove, UnexpectedMove, IllegalMove) as err:
        failure = {"code": "bot.illegal_move", "move": choice.move, "error": err.to_dict()}
        if report is not None:
            report(failure)
    move, update = _apply_policy(meta, live, game, state, seat, failure, clock)
    return land(seat, move, "referee", {**extra, "failure": failure}, update)


def _seat_update(seat: int, choice: Choice):
    """A live update recording the seat's time bank and latency, if the driver measured them."""
    if choice.clock_ms is None and choice.latency_ms is None:
        return None

    def update(new_live):
        if choice.clock_ms is not None:
            new_live.clocks[str(seat)] = choice.clock_ms
        if choice.latency_ms is not None:
            new_live.latency[str(seat)] = choice.latency_ms
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
