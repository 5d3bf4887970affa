"""gops with secret chance (test only): outcomes that only their owner, or nobody, may see.

At set-up each seat is dealt a face-down bonus of 0-2 points (a chance event owned by that
seat: only it sees it until the end, when bonuses count), and one card of the prize deck is
buried face down (owned by chance.NOBODY: nobody sees it, ever; it is never a prize). The
rest is gops. It exists to test disclosure of chance outcomes; run it with
REFEREE_EXTRA_GAMES=tests.support.gops:GAME,tests.support.dealt:GAME.
"""

from __future__ import annotations

from dataclasses import replace

from referee.core import Outcome, Rng, chance, ranks_from_keys
from referee.core.copying import deep_copy
from referee.core.statecheck import integer, list_of, state_error
from tests.support.gops import SPEC as GOPS_SPEC
from tests.support.gops import STATE as GOPS_STATE
from tests.support.gops import Gops

SPEC = replace(GOPS_SPEC, name="gops-dealt", title="gops with secret bonuses (test game)",
               hidden=(*GOPS_SPEC.hidden, "the other seats' bonuses until the end",
                       "the buried card"))

STATE = {**GOPS_STATE, "properties": {**GOPS_STATE["properties"],
                                      "bonus": list_of(integer(0, 2)),
                                      "buried": list_of(integer(1, 8), max_items=1)},
         "required": [*GOPS_STATE["required"], "bonus", "buried"]}


class DealtGops(Gops):
    """gops plus one secret bonus per seat and one buried prize card."""

    spec = SPEC
    state_schema = STATE

    def setup(self, players, options, seed):
        """gops' set-up, then a bonus dealt to each seat and a card buried."""
        s = super().setup(players, options, seed)
        s["bonus"] = [chance.draw("bonus", range(3), lambda seat=seat: Rng(seed, "bonus", seat)
                                  .below(3), owner=seat, prompt={"seat": seat})
                      for seat in range(players)]
        s["buried"] = [chance.take(s["deck"], "bury", owner=chance.NOBODY)] if s["deck"] else []
        return s

    def check_state(self, state):
        """gops' checks and one bonus per seat."""
        super().check_state(state)
        if len(state["bonus"]) != state["players"]:
            raise state_error("$.bonus", "needs one entry per player")

    def view(self, state, seat):
        """gops' view, your own bonus (all of them once the match is over); never the buried."""
        over = not self.pending(state)
        view = super().view(state, seat)
        view["bonus"] = [b if over or other == seat else None
                         for other, b in enumerate(state["bonus"])]
        return view

    def outcome(self, state):
        """Prizes plus bonus."""
        if self.pending(state):
            return None
        totals = [s + b for s, b in zip(state["scores"], state["bonus"])]
        return Outcome(tuple(totals), ranks_from_keys(totals))

    def redetermine(self, state, seat, rng):
        """gops' re-deal, the others' bonuses re-drawn, the buried card swapped into the deck."""
        s = super().redetermine(state, seat, rng)
        if self.pending(s):
            s["bonus"] = [b if other == seat else rng.below(3)
                          for other, b in enumerate(s["bonus"])]
        if s["buried"] and s["deck"]:
            s = deep_copy(s)
            pool = s["deck"] + s["buried"]
            s["buried"] = [pool.pop(rng.below(len(pool)))]
            s["deck"] = rng.shuffled(pool)  # views show its size only
        return s


GAME = DealtGops()
