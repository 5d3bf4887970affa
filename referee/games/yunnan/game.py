"""The Yunnan Game: the contract's methods, dispatching to the phase modules."""

from __future__ import annotations

from referee.core import Decision, Game, InvalidOptions
from referee.core.copying import deep_copy
from referee.games.yunnan import (bidding, flow, resolution, scoring, state, travel, upkeep,
                                  views)
from referee.games.yunnan.data import PROVINCES
from referee.games.yunnan.spec import DECISION_MOVES, SPEC


class Yunnan(Game):
    """Yunnan (Second Edition) for 2-5 players; 2 players play with the Dúlì automaton."""

    spec = SPEC

    def check_setup(self, players, options):
        """Player count 2-5; `duli_overflow` other than its default only with Dúlì (2 players)."""
        super().check_setup(players, options)
        if players != 2 and options.get("duli_overflow", "farthest") != "farthest":
            raise InvalidOptions("option duli_overflow applies only to 2-player games "
                                 "(with Dúlì)", option="duli_overflow")

    def setup(self, players, options, seed):
        """Round 1 ready for the first bid (random order, coins by blue-track position)."""
        return flow.setup(players, options, seed)

    def pending(self, state):
        """The one seat that must act, with the kind of decision; empty once the game is over."""
        if state["phase"] == "over":
            return ()
        step = state["step"]
        return (Decision(state["actor"], step, DECISION_MOVES[step], prompt=_prompt(state)),)

    def legal_moves(self, state, seat):
        """Every legal move of `seat`'s pending decision ([] if it has none)."""
        if state["phase"] == "over" or seat != state["actor"]:
            return []
        phase = state["phase"]
        if phase == "bidding":
            return bidding.legal(state, seat)
        if phase == "resolution":
            return resolution.legal(state, seat)
        if phase == "travel":
            return travel.legal(state, seat)
        return upkeep.convert_legal(state, seat)

    def apply(self, state, seat, move):
        """The state after `seat`'s `move`, with every automatic step after it played."""
        s = deep_copy(state)
        phase = s["phase"]
        if phase == "bidding":
            bidding.apply(s, seat, move)
        elif phase == "resolution":
            resolution.apply(s, seat, move)
        elif phase == "travel":
            if travel.apply(s, seat, move):
                flow.end_travel_turn(s, seat)
        else:
            upkeep.apply_convert(s, seat, move["points"])
            s["cursor"] += 1
        return flow.advance(s)

    def view(self, state, seat):
        """Everything but the seed and the order of Dúlì's draw pile."""
        return views.view(state, seat)

    def outcome(self, state):
        """Final scores and ranks once the game is over."""
        if state["phase"] != "over":
            return None
        return scoring.outcome(state)

    def to_dict(self, state):
        """The state is plain data already."""
        return deep_copy(state)

    def from_dict(self, data):
        """Validate, then copy."""
        state.validate(data)
        return deep_copy(data)

    def redetermine(self, state, seat, rng):
        """Reshuffle the unseen part of Dúlì's deck."""
        return views.redetermine(state, seat, rng)



def _prompt(s) -> dict:
    """Context for the pending decision: phase, round and what the step is about."""
    prompt = {"phase": s["phase"], "round": s["round"]}
    step, p = s["step"], s["actor"]
    if step in ("travel", "journey"):
        prompt["passes_left"] = s["passes"][p] - s["passes_used"]
    if step == "journey":
        prompt["at"] = PROVINCES[s["journey"]["at"]]
    elif step == "displace":
        prompt["province"] = PROVINCES[s["displace_at"]]
    elif step == "yard":
        prompt["structures_to_take"] = s["yard_left"]
    elif step == "convert":
        prompt["income"] = s["income"][p]
    return prompt


GAME = Yunnan()
