"""How a match ends early: a seat resigns or forfeits, the service aborts it (and a replay is
linked to it). Mixed into `MatchService`, whose store, seeds, hooks and commit steps it uses.
"""

from __future__ import annotations

import time

from referee.core.errors import MatchOver
from referee.service import defaults
from referee.service.errors import MatchBusy
from referee.service.store import Live, MatchStatus


class MatchEndings:
    """The ending half of the MatchService."""

    def resign(self, match_id: str, seat: int) -> Live:
        """The seat gives up: it ranks last (a `seat.resigned` failure), and the referee plays
        its remaining decisions at random so the others' match goes on to its end.

        Resigning twice is harmless (the first stands).
        """
        return self.forfeit_seat(match_id, seat, "seat.resigned")

    def forfeit_seat(self, match_id: str, seat: int, code: str, at_version=None) -> Live:
        """Record `seat`'s forfeit (`code`) and let the referee play it from now on; with
        `at_version`, only if the match is still at that version (else MatchBusy)."""
        meta, _ = self.load(match_id)
        for _ in range(defaults.COMMIT_ATTEMPTS):
            live = self.store.live(match_id)
            if live.status != MatchStatus.ACTIVE:
                raise MatchOver(f"match {match_id} is already {live.status}")
            if str(seat) in live.forfeits:
                return live
            if at_version is not None and live.version != at_version:
                break
            forfeits = {**live.forfeits, str(seat): {"code": code, "version": live.version}}
            new_live = Live(**{**live.__dict__, "version": live.version + 1,
                               "forfeits": forfeits})
            automated = self.automated_seat(meta, new_live) is not None
            if self.store.commit(match_id, live.version, new_live, [], automated,
                                 remote_due=self.remote_due(meta, new_live)):
                self._after_commit(meta, live, new_live)
                return new_live
        raise MatchBusy(f"match {match_id} moved on while seat {seat} was forfeited; try again")

    def abort(self, match_id: str, reason: str) -> Live:
        """Stop a match for a service-side reason; it is never rated as such.

        A match labelled `replay_on_abort` (rated arena matches) is replayed on its seed by
        whoever owns it (the arena's on_finish); its seed group is grown by one first, so the
        seed stays hidden until the replay ends too.
        """
        meta, _ = self.load(match_id)
        reserved = False
        for _ in range(defaults.COMMIT_ATTEMPTS):
            live = self.store.live(match_id)
            if live.status != MatchStatus.ACTIVE:
                if reserved:  # it ended by itself meanwhile: no replay will come
                    self.seeds.release(meta.seed_group, meta.id)
                raise MatchOver(f"match {match_id} is already {live.status}")
            if meta.labels.get("replay_on_abort") and meta.seed_group and not reserved:
                self.seeds.reserve(meta.seed_group)
                reserved = True
            new_live = Live(**{**live.__dict__, "version": live.version + 1,
                               "status": MatchStatus.ABORTED.value, "pending": [],
                               "result": {"termination": "aborted", "reason": reason}})
            if self.store.commit(match_id, live.version, new_live, []):
                self.store.archive.mark_finished(match_id, time.time())
                self._ended(meta)
                for hook in self._hooks:
                    hook.after_commit(meta, live, new_live)
                    hook.on_finish(meta, new_live)
                return new_live
        if reserved:
            self.seeds.release(meta.seed_group, meta.id)
        raise MatchBusy(f"match {match_id} is too busy to abort; try again")

    def link_replay(self, match_id: str, replay_id: str) -> None:
        """Note in an aborted match's result the match that replays it (`replayed_by`)."""
        for _ in range(defaults.COMMIT_ATTEMPTS):
            live = self.store.live(match_id)
            result = {**(live.result or {}), "replayed_by": replay_id}
            new_live = Live(**{**live.__dict__, "version": live.version + 1, "result": result})
            if self.store.commit(match_id, live.version, new_live, []):
                return
