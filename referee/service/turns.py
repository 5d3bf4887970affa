"""One automated seat's turn, the middle stages of the runner's pipeline (runner.py): which
seat acts, its decision, the choice of its driver (or the referee's), the verdict of the rules
and of the failure policy (the new record), and the next seat's preparation to send with the
commit when the batch commits now. Each stage takes the context of the runner's pass (`run`:
runner.Run) and what the stage before it produced, and gives what the next one takes."""

from __future__ import annotations

import logging
from typing import NamedTuple

from referee.core import engine
from referee.core.bots import random_move
from referee.core.errors import IllegalMove, MalformedMove, UnexpectedMove
from referee.service.batch import Landing, Position, Step
from referee.service.drivers import REMOTE, Choice, SeatDriver, Turn, split_kind
from referee.service.store import MatchStatus

log = logging.getLogger(__name__)


class Seat(NamedTuple):
    """The seat that acts next at `live` (of game state `state`)."""

    live: object
    state: object
    seat: int


class Chosen(NamedTuple):
    """What was chosen for a turn: the choice, by whom (`seat` or `referee`), and the
    driver to tell when the rules reject it (None for the referee's own move)."""

    turn: Turn
    choice: Choice
    by: str
    driver: SeatDriver | None = None
    ref: str = ""


def seat(run, at: Position) -> Seat | None:
    """The automated seat that acts at the newest record; None when the match ended or
    waits for a remote seat (or the chance seat)."""
    live = at.live
    if live.status != MatchStatus.ACTIVE:
        return None
    acting = run.service.automated_seat(run.meta, live)
    if acting is None:
        return None
    state = at.state if at.state is not None else run.service.state(run.meta, live)
    return Seat(live, state, acting)


def turn(run, at: Seat) -> Turn:
    """The seat's turn: the one the rider stage prepared for this very record and seat, else
    worked out now (without a decision for a seat the referee plays: nobody reads it)."""
    prepared, run.prepared = run.prepared, None
    if prepared is not None and prepared.live is at.live and prepared.seat == at.seat:
        return prepared
    decision = None if _referees(run.meta, at.live, at.seat) else \
        engine.decision_for(run.game, at.state, at.seat)
    return Turn(run.meta, at.live, run.game, at.state, at.seat, decision)


def choice(run, now: Turn) -> Chosen:
    """The move of the seat's driver, a stall (a failure without asking), or the referee's
    random move for a forfeited seat."""
    meta, live, acting = now.meta, now.live, now.seat
    if _referees(meta, live, acting):
        move = random_move(now.game, now.state, acting, meta.seed, live.version)
        return Chosen(now, Choice(move), "referee")
    prefix, ref = split_kind(meta.seat_kind(acting))
    driver: SeatDriver = run.service.drivers[prefix]
    stalled = _stalling(meta, live, acting)
    if stalled is not None:
        driver.rejected(ref, stalled.failure, meta.id, live.version)
        return Chosen(now, stalled, "seat", driver, ref)
    return Chosen(now, driver.choose(now, ref), "seat", driver, ref)


def verdict(run, chosen: Chosen) -> Step:
    """The new record: the chosen move as the rules apply it, or, for a failure or a move
    the rules refuse (the driver is told), the referee's move under the failure policy."""
    now, picked = chosen.turn, chosen.choice
    extra = {"latency_ms": picked.latency_ms} if picked.latency_ms is not None else {}
    extra.update(picked.extra)
    failure = picked.failure
    if failure is None:
        try:
            return _apply(run, now, _marked(now, picked), picked.move, chosen.by, extra)
        except (MalformedMove, UnexpectedMove, IllegalMove) as err:
            failure = {"code": "bot.illegal_move", "move": picked.move, "error": err.to_dict()}
            if chosen.driver is not None:
                chosen.driver.rejected(chosen.ref, failure, now.meta.id, now.live.version)
    move, judged = _apply_policy(now, picked, failure)
    return _apply(run, now, judged, move, "referee", {**extra, "failure": failure})


def rider(run, step: Step) -> Landing:
    """The step with the next seat's preparation to send with the commit that stores it:
    its driver's script (the arena takes the bot's call slot in the commit's round trip and
    builds its request meanwhile), its turn kept for the `turn` stage. None unless the
    runner will ask that seat's driver next (no forfeit, no stall) and the seat is not
    played here: then the batch commits with this step (batch.py), and only then."""
    meta, live = run.meta, step.live
    acting = run.service.automated_seat(meta, live) if live.status == MatchStatus.ACTIVE \
        else None
    if acting is None or _referees(meta, live, acting) or \
            _stalling(meta, live, acting) is not None:
        return Landing(step)
    prefix, ref = split_kind(meta.seat_kind(acting))
    driver = run.service.drivers.get(prefix)
    if driver is None or driver.replayable or type(driver).rider is SeatDriver.rider:
        return Landing(step)   # no rider: build no Turn for nothing
    run.prepared = Turn(meta, live, run.game, step.state, acting,
                        engine.decision_for(run.game, step.state, acting))
    return Landing(step, driver.rider(run.prepared, ref))


def _referees(meta, live, acting: int) -> bool:
    """Whether the referee plays the seat itself (a forfeited seat, or a remote one)."""
    return str(acting) in live.forfeits or meta.seat_kind(acting) == REMOTE


def _apply(run, now: Turn, judged, move, by: str, extra: dict) -> Step:
    """The move applied in this process on `judged` (MatchService.next_version: the new
    record copies its marks), raising what the rules refuse."""
    live, state, entry = run.service.next_version(
        now.meta, now.game, judged, now.state, now.seat, move, now.live.version, by, extra)
    return Step(now.live, now.seat, live, state, entry)


def _stalling(meta, live, acting: int) -> Choice | None:
    """A failure for a bot that has moved `max_streak` times in a row without its turn ending
    (moves like exchanges can repeat forever); None while it is within the limit."""
    limit = meta.limits.get("max_streak")
    if limit and live.streak[0] == acting and live.streak[1] >= limit:
        return Choice(failure={"code": "bot.stalling", "moves_in_a_row": live.streak[1],
                               "limit": limit})
    return None


def _marked(now: Turn, picked: Choice, strike: int | None = None, forfeit=None):
    """The record a move is made on: the turn's, with what this move records of the seat
    (its time bank and latency as the driver measured them, a strike or a forfeit), which
    the new record copies (data, not a callback into this module); the turn's own record
    when there is nothing to record."""
    live, key = now.live, str(now.seat)
    changes = {}
    if picked.clock_ms is not None:
        changes["clocks"] = {**live.clocks, key: picked.clock_ms}
    if picked.latency_ms is not None:
        changes["latency"] = {**live.latency, key: picked.latency_ms}
    if strike is not None:
        changes["strikes"] = {**live.strikes, key: strike}
    if forfeit is not None:
        changes["forfeits"] = {**live.forfeits, key: forfeit}
    return _copied(live, changes) if changes else live


def _copied(live, changes: dict):
    """`dataclasses.replace(live, **changes)` for a Live (no __post_init__, no init=False
    field), without its field-by-field __init__: a bot move marks its seat's clock and
    latency on every move, and replace cost about as much as the rest of the marking."""
    new = object.__new__(type(live))
    new.__dict__.update(live.__dict__)
    new.__dict__.update(changes)
    return new


def _apply_policy(now: Turn, picked: Choice, failure: dict):
    """Strike or forfeit per the match's failure policy; the referee then plays at random.

    Returns the referee's move and the record to make it on, which marks the strike or the
    forfeit.
    """
    meta, live, acting = now.meta, now.live, now.seat
    allowed = int(meta.limits.get("strikes", 0))
    used = int(live.strikes.get(str(acting), 0))
    move = random_move(now.game, now.state, acting, meta.seed, live.version)
    if used < allowed:
        return move, _marked(now, picked, strike=used + 1)
    log.info("match %s: seat %s forfeits (%s)", meta.id, acting, failure.get("code"))
    return move, _marked(now, picked, forfeit={**failure, "version": live.version})
