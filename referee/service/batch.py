"""The runner's moves of in-process seats, committed several at a time in one round trip.

A builtin policy, or the referee's random move for a forfeited seat, is chosen in the runner's
process from the match alone (MatchService.played_here): nobody outside needs to see the
match between two such moves, and a runner that dies before committing them makes the same
moves again when the match is resumed. So the runner applies them here and commits them
together (MatchService.commit_moves: one commit script, every version with its own log entry,
change signal and commit hooks), and flushes the batch when
  - a seat that is not played here (a remote seat, an HTTP bot, the chance seat) is pending:
    it sees every move before it acts;
  - the match ends;
  - BATCH_MOVES moves wait, or BATCH_SECONDS passed since the first one: watchers (long
    polls, event streams, pages) still see moves arrive smoothly.
A move of a seat not played here (an HTTP bot's) goes through the batch too, committed at once
and alone. The batch is the runner's last stage of a move (runner.py): it is handed the move
made (`Step`), whether it commits now (`due`, asked one stage before, so that the stage
between prepares the next seat's call only for a commit) and that preparation (`Landing`), as
data; it calls nothing of the runner back.
The commit hooks (ServiceHooks.after_commit) hear every version, after the commit; the live
record of a version before the batch's last comes without its game state (`state` None): no
hook reads it, and 32 full states kept alive until the flush cost more in the garbage
collector than the round trips saved (Dschunke, 976 moves: 112 young collections and a full
one instead of 6; about 20 us a move).

Measured (`referee bench arena` and a sweep of sizes on the three games): round trips per move
1.05 alone, 0.30 by 4, 0.18 by 8, 0.11 by 16, 0.08 by 32, 0.07 by 64; the CPU a move differs
by less than the noise of a shared machine from 16 on. 32 it is.
"""

from __future__ import annotations

import time
from typing import NamedTuple

from referee.service.store import MatchStatus

BATCH_MOVES = 32
"""Most moves committed in one round trip."""
BATCH_SECONDS = 0.03
"""Longest a move waits in a batch (from the first move of the batch)."""


class Step(NamedTuple):
    """One move made in this process on `before` by `seat`, not committed yet: the new live
    record, its game state and its log entry (MatchService.next_version)."""

    before: object    # Live
    seat: int
    live: object      # Live
    state: object
    entry: dict


class Landing(NamedTuple):
    """A step as the batch takes it, with the script to send with the commit that stores it
    (scripts.Rider), if any: the next seat is then one not played here, which must see the
    step committed before it acts, so a landing with a rider always commits."""

    step: Step
    rider: object = None


class Position(NamedTuple):
    """The newest record of the match (committed or waiting in the batch) and its game
    state (None when not at hand: it is read when a seat acts): where a step starts."""

    live: object      # Live
    state: object = None


class MoveBatch:
    """Moves of one match applied in this process and not yet committed; `live` is the
    newest record (committed or not), `committed` the stored one."""

    def __init__(self, service, meta, live, most: int | None = None,
                 seconds: float | None = None):
        """A batch on `live`, the stored record; `most` moves and `seconds` at most (by
        default BATCH_MOVES and BATCH_SECONDS, read now: tests set them)."""
        self.service, self.meta = service, meta
        self.committed = self.live = live
        self.most = BATCH_MOVES if most is None else most
        self.seconds = BATCH_SECONDS if seconds is None else seconds
        self._steps: list = []          # (new live, log entry) per move, in order
        self._state = None              # the game state of `live`, if made here
        self._started = 0.0
        self._here: dict = {}           # (seat, forfeited) -> played here

    def played_here(self, seat: int, live=None) -> bool:
        """MatchService.played_here at `live` (by default the newest), remembered per seat
        and forfeit (a seat's kind never changes; only a forfeit makes it the referee's)."""
        live = self.live if live is None else live
        key = (seat, str(seat) in live.forfeits)
        here = self._here.get(key)
        if here is None:
            here = self._here[key] = self.service.played_here(self.meta, live, seat)
        return here

    def __len__(self) -> int:
        return len(self._steps)

    def add(self, landing: Landing) -> int:
        """Take a step (applied already: it is the newest record now) and commit the batch
        with it when due, the landing's rider riding along; how many moves landed now."""
        step = landing.step
        commit = landing.rider is not None or self._due(step)
        if not self._steps:
            self._started = time.monotonic()
        else:   # only the newest state is needed: the others would stay alive (see above)
            self._steps[-1][0].state = None
        self._steps.append((step.live, step.entry))
        self.live, self._state = step.live, step.state
        return self.flush(landing.rider) if commit else 0

    def _due(self, step: Step) -> bool:
        """Whether the batch is committed as soon as it takes `step`: at once and alone for
        a seat not played here (the batch holds no other move then: it was committed as
        soon as such a seat was pending), else when the step ends the match, leaves a seat
        not played here pending, fills the batch or comes BATCH_SECONDS after its first."""
        if not self.played_here(step.seat, step.before):
            assert not self._steps, "moves wait in the batch"
            return True
        live = step.live
        waited = time.monotonic() - self._started if self._steps else 0.0
        return (len(self._steps) + 1 >= self.most or live.status != MatchStatus.ACTIVE
                or waited >= self.seconds
                or not all(self.played_here(s, live) for s in live.pending))

    def flush(self, rider=None) -> int:
        """Commit the waiting moves in one round trip, `rider` (scripts.Rider, or None)
        riding along; how many landed. When the match moved on meanwhile (a resignation, an
        abort, a remote seat's move) none lands: they are dropped and `live` is the stored
        record again."""
        if not self._steps:
            return 0
        steps, self._steps = self._steps, []    # never sent twice, even if this raises
        if self.service.commit_moves(self.meta, self.committed, steps, self._state, rider):
            self.committed = self.live
            return len(steps)
        self.committed = self.live = self.service.store.live(self.meta.id)
        self._state = None
        return 0

    def drop(self) -> None:
        """Forget the waiting moves (the lease is lost: its new holder makes them again)."""
        self._steps, self._state = [], None
        self.live = self.committed


def land(run, landing: Landing) -> Position:
    """The runner's last stage of a move (runner.py): the step into `run.batch`, committed
    with it when due; where the next step starts (the stored record again when the match
    moved on meanwhile and nothing landed)."""
    batch = run.batch
    run.moves += batch.add(landing)
    return Position(batch.live, batch._state)
