"""Running an SPRT: pairs of duplicate matches (arena/sprt.py says what is scored) until the
test decides or the match budget is spent.

Pair k plays its own deal, `pair_seed(seed, k)`, with the focus seat k % players: the
candidate in that seat in one match, the baseline in it in the other, the same opponents in the
other seats (the baseline itself by default), rotated with the seat. The service's `sprt`
tournaments (arena/sprt_tour.py) plan the same pairs from the same seed, so a run repeats
exactly, offline or served, with deterministic bots.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from arena.offline import run_to_end
from arena.sprt import Hypotheses, Tally, decide, pair_outcome, pair_seats, pair_seed, summary


@dataclass
class Sprt:
    """One test: who plays, what is tested, the budget. `arena` plays the matches."""

    arena: object
    game: str
    candidate: str   # seat kinds: bot:<id>, builtin:<name>, py:<function>
    baseline: str
    opponents: list[str]
    hypotheses: Hypotheses = field(default_factory=Hypotheses)
    max_matches: int = 400
    seed: int = 0
    options: dict = field(default_factory=dict)
    limits: dict | None = None
    tally: Tally = field(default_factory=Tally)
    match_ids: list = field(default_factory=list)
    forfeits: int = 0   # matches in which the candidate's or baseline's seat forfeited

    @property
    def players(self) -> int:
        """Seats per match: the focus seat and the opponents."""
        return len(self.opponents) + 1

    def run(self, progress=None) -> dict:
        """Play pairs until the test decides or the budget is spent; `progress(self)` after
        each pair. Returns the result (see `result`)."""
        while self.state() is None and len(self.match_ids) + 2 <= self.max_matches:
            self.play_pair(self.tally.pairs)
            if progress is not None:
                progress(self)
        return self.result()

    def state(self) -> str | None:
        """'accepted' or 'rejected' once decided, else None."""
        return decide(self.tally, self.hypotheses)

    def play_pair(self, index: int) -> float:
        """Play pair `index` and count its outcome."""
        seat = index % self.players
        seed = pair_seed(self.seed, index)
        ranks = [self._rank_in(self._play(focus, seat, seed), seat)
                 for focus in (self.candidate, self.baseline)]
        outcome = pair_outcome(*ranks)
        self.tally = self.tally.add(outcome)
        return outcome

    def _play(self, focus: str, seat: int, seed: int) -> str:
        created = self.arena.create_match(self.game, pair_seats(focus, self.opponents, seat),
                                          self.options, seed, self.limits, rated=False,
                                          labels={"sprt": True, "focus": seat})
        run_to_end(self.arena, created.meta.id)
        self.match_ids.append(created.meta.id)
        return created.meta.id

    def _rank_in(self, match_id: str, seat: int) -> int:
        result = self.arena.service.load(match_id)[1].result
        if str(seat) in (result.get("failures") or {}):
            self.forfeits += 1
        return result["ranks"][seat]

    def result(self) -> dict:
        """The verdict ('inconclusive' when undecided), the pairs' tally, the LLR and its
        bounds, the score and Elo with their 95 % intervals, what was played."""
        shown = summary(self.tally, self.hypotheses)
        return {**shown, "result": shown["result"] or "inconclusive", "game": self.game,
                "players": self.players, "matches": len(self.match_ids),
                "max_matches": self.max_matches, "forfeits": self.forfeits}
