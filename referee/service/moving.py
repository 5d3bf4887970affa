"""Taking moves (MatchService's moving half; referee/service/matches.py creates and reads):
check a move against the match and the rules, commit it (retrying on a concurrent commit, once
under an Idempotency-Key), commit a batch of moves made in this process in one round trip, and
say which seats the referee plays here."""

from __future__ import annotations

import time

from referee.core import engine
from referee.core.chance import CHANCE
from referee.core.engine import MoveRecord
from referee.core.errors import MatchOver, RefereeError
from referee.service import defaults, fastjson
from referee.service.disclosure import Foresight, publicity
from referee.service.drivers import REMOTE, split_kind
from referee.service.errors import MatchAborted, MatchBusy, SeatForfeited
from referee.service.store import Live, MatchMeta, MatchStatus


class MatchMoves:
    """The moves of MatchService: it gives `store`, `games`, `drivers`, `_states`, `load`,
    `current`, `state`, `automated_seat`, `remote_due`, `_live_after`, `_result` and
    `_after_commit`."""

    def submit_once(self, match_id: str, seat: int, move, expected_version, key: str,
                    **known):
        """`submit` under an Idempotency-Key: (live, replayed). A key this seat already used
        in this match answers the match as it is now, and the move does not land again."""
        return self.submit(match_id, seat, move, expected_version, idempotency=f"{seat}:{key}",
                           **known)

    def submit(self, match_id: str, seat: int, move, expected_version=None, *, by="seat",
               entry_extra=None, update_live=None, from_runner=False, known_live=None,
               maybe_behind=False, idempotency=None, shown_to=None):
        """Check and apply a move, commit it, and queue automated seats; returns the new live.

        Retries on a concurrent commit; a move with `expected_version` then fails as stale.
        `update_live(live)` may record failures, strikes and clocks in the same commit;
        `from_runner` marks moves of the runner, which goes on by itself (no job is queued);
        `known_live` is a live record the caller just read (saves a read; the commit still
        checks its version), or with `maybe_behind` one that may be behind (this process's
        cached one: a move it refuses is judged again on the current record). Returns the new
        live; with `idempotency` (a `seat:key` field), (live, replayed) where replayed says
        the move had landed before. `shown_to`: a seat whose view of the new version the
        caller will answer with, worked out while the commit is in flight (Foresight).
        """
        meta, _ = self.load(match_id) if known_live is None else (self.store.meta(match_id), None)
        game = self.games.get(meta.game)
        live, maybe_behind = known_live, maybe_behind and known_live is not None
        for _ in range(defaults.COMMIT_ATTEMPTS):
            if idempotency and self.store.landed_at(match_id, idempotency) is not None:
                return self.store.live(match_id), True
            live = live or self.current(match_id)
            state = self.state(meta, live)
            try:
                new_live, new_state, entry = self.next_version(
                    meta, game, live, state, seat, move, expected_version, by, entry_extra,
                    update_live)
            except RefereeError:
                # the same key may have landed between the check above and this read
                if idempotency and self.store.landed_at(match_id, idempotency) is not None:
                    return self.store.live(match_id), True
                if maybe_behind:   # judged on a record that may be old: judge on the current
                    maybe_behind, current = False, self.current(match_id)
                    if current.version != live.version:
                        live = current
                        continue
                raise
            automated = self.automated_seat(meta, new_live) is not None
            state_json = fastjson.dumpb_orjson(new_live.state)
            foresight = None if shown_to is None else Foresight(game, new_state, shown_to)
            done = self.store.commit(match_id, live.version, new_live, [entry], automated,
                                     idempotency or "", self.remote_due(meta, new_live),
                                     state_json, foresight)
            if done == -1:
                return self.store.live(match_id), True
            if done:
                self._states.put(match_id, new_live.version, new_state, new_live, state_json,
                                 foresight and foresight.parts())
                self._after_commit(meta, live, new_live, queue=not from_runner)
                return (new_live, False) if idempotency else new_live
            live, maybe_behind = None, False   # the match moved on: read it again
        raise MatchBusy(f"match {match_id} changed {defaults.COMMIT_ATTEMPTS} times while this move "
                        f"was being committed; submit it again")

    def next_version(self, meta: MatchMeta, game, live: Live, state, seat: int, move,
                     expected_version=None, by="seat", entry_extra=None, update_live=None):
        """`move` applied to `live` in this process, nothing committed: (the new live, the
        new state, its log entry). Raises what the rules and the match refuse."""
        self._may_move(meta.id, live, seat, by)
        new_state, sealed = engine.play(game, state, live.version, seat, move, expected_version,
                                        self._states.stored_json(meta.id, live.version, state))
        new_live = self._live_after(game, meta, live, new_state, live.version + 1, seat)
        if update_live is not None:
            update_live(new_live)
            new_live.result = self._result(game, meta, new_live, new_state)
        entry = {**MoveRecord(seat, move, live.version, sealed, by).to_dict(),
                 "at": round(time.time(), 3), **(entry_extra or {}),
                 **publicity(game, state, seat, move)}
        return new_live, new_state, entry

    def commit_moves(self, meta: MatchMeta, base: Live, steps: list, state,
                     rider=None) -> bool:
        """Commit moves made one after another in this process on `base` (the stored
        record) in one round trip: `steps` are (new live, log entry) per move, `state` the
        last one's game state. Every version gets its log entry, change signal and commit
        hooks, as if committed alone; False (nothing lands) if the match moved past `base`.
        `rider` (scripts.Rider): a script sent in the same round trip (the runner takes the
        next bot's call slot so), told its reply and whether the moves landed."""
        last = steps[-1][0]
        automated = self.automated_seat(meta, last) is not None
        entries, due = [e for _, e in steps], self.remote_due(meta, last)
        state_json = fastjson.dumpb_orjson(last.state)
        if rider is None:
            landed = self.store.commit(meta.id, base.version, last, entries, automated,
                                       remote_due=due, state_json=state_json)
        else:
            landed = self.store.commit_with_rider(meta.id, base.version, last, entries,
                                                  automated, due, rider, state_json)
        if not landed:
            return False
        self._states.put(meta.id, last.version, state, last, state_json)
        old = base
        for new, _ in steps:
            new.updated_at = last.updated_at
            self._after_commit(meta, old, new, queue=False)
            old = new
        return True

    def played_here(self, meta: MatchMeta, live: Live, seat: int) -> bool:
        """Whether the referee chooses `seat`'s move in this process from the match alone (a
        builtin policy, or the random move of a forfeited seat), so a runner that died before
        committing it makes the same move again: nobody outside need see the match between
        two such moves. A driver says so with `replayable = True`."""
        if seat == CHANCE:
            return False
        if str(seat) in live.forfeits:
            return True
        prefix, _ = split_kind(meta.seat_kind(seat))
        driver = self.drivers.get(prefix)
        return prefix != REMOTE and driver is not None and driver.replayable

    @staticmethod
    def _may_move(match_id: str, live: Live, seat: int, by: str) -> None:
        """Refuse a move in a match that ended, or by a seat that forfeited (the referee plays
        it now): both for good, so a record that may be behind tells it truly."""
        if live.status == MatchStatus.ABORTED:
            raise MatchAborted(f"match {match_id} was aborted by the service")
        if live.status == MatchStatus.OVER:  # also a match ended by its move cap
            raise MatchOver(f"match {match_id} is over")
        if by == "seat" and str(seat) in live.forfeits:
            raise SeatForfeited(f"seat {seat} has forfeited "
                                f"({live.forfeits[str(seat)].get('code')}): the referee "
                                f"plays it now", seat=seat)
