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
and alone (`add(..., alone=True)`); every commit may carry a rider for the seat that acts next
(`rider_for`, see runner._next_rider).
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

from referee.service.store import MatchStatus

BATCH_MOVES = 32
"""Most moves committed in one round trip."""
BATCH_SECONDS = 0.03
"""Longest a move waits in a batch (from the first move of the batch)."""


class MoveBatch:
    """Moves of one match applied in this process and not yet committed; `live` is the
    newest record (committed or not), `committed` the stored one."""

    def __init__(self, service, meta, live, most: int | None = None,
                 seconds: float | None = None, rider_for=None):
        """`rider_for(live, state)`: a script to send with the commit that makes `live` (of
        game state `state`) the stored record (scripts.Rider), or None: the runner takes the
        next bot's call slot so, and builds its request while the commit is in flight."""
        self.service, self.meta, self.rider_for = service, meta, rider_for
        self.committed = self.live = live
        self.most = BATCH_MOVES if most is None else most
        self.seconds = BATCH_SECONDS if seconds is None else seconds
        self._steps: list = []          # (new live, log entry) per move, in order
        self._state = None              # the game state of `live` while moves wait
        self._started = 0.0
        self._here: dict = {}           # (seat, forfeited) -> played here

    def played_here(self, seat: int) -> bool:
        """MatchService.played_here at `live`, remembered per seat and forfeit (a seat's kind
        never changes; only a forfeit makes it the referee's)."""
        key = (seat, str(seat) in self.live.forfeits)
        here = self._here.get(key)
        if here is None:
            here = self._here[key] = self.service.played_here(self.meta, self.live, seat)
        return here

    def __len__(self) -> int:
        return len(self._steps)

    def state(self):
        """The game state of `live`."""
        return self._state if self._steps else self.service.state(self.meta, self.live)

    def add(self, seat: int, move, by: str, extra: dict, update,
            alone: bool = False) -> tuple[int, object]:
        """Apply a move of a seat played here (raising what the rules refuse, as a submit
        would); flush when due. (Moves that landed now, the newest live record.)
        `alone`: a move of a seat not played here (an HTTP bot's), committed at once; the
        batch holds no other move then."""
        assert not alone or not self._steps, "moves wait in the batch"
        game = self.service.games.get(self.meta.game)
        new_live, new_state, entry = self.service.next_version(
            self.meta, game, self.live, self.state(), seat, move, self.live.version, by,
            extra, update)
        if not self._steps:
            self._started = time.monotonic()
        else:   # only the newest state is needed: the others would stay alive (see above)
            self._steps[-1][0].state = None
        self._steps.append((new_live, entry))
        self.live, self._state = new_live, new_state
        return (self.flush() if alone or self._due() else 0), self.live

    def _due(self) -> bool:
        live = self.live
        return (len(self._steps) >= self.most or live.status != MatchStatus.ACTIVE
                or time.monotonic() - self._started >= self.seconds
                or not all(self.played_here(s) for s in live.pending))

    def flush(self) -> int:
        """Commit the waiting moves in one round trip; how many landed. When the match moved
        on meanwhile (a resignation, an abort, a remote seat's move) none lands: they are
        dropped and `live` is the stored record again."""
        if not self._steps:
            return 0
        steps, self._steps = self._steps, []    # never sent twice, even if this raises
        rider = self.rider_for(self.live, self._state) if self.rider_for is not None else None
        if self.service.commit_moves(self.meta, self.committed, steps, self._state, rider):
            self.committed = self.live
            return len(steps)
        self.committed = self.live = self.service.store.live(self.meta.id)
        return 0

    def drop(self) -> None:
        """Forget the waiting moves (the lease is lost: its new holder makes them again)."""
        self._steps = []
        self.live = self.committed
