"""The Yunnan Game, declared into the game kit: its decisions, their rules, and the hooks."""

from __future__ import annotations

from referee.core import InvalidOptions
from referee.core.game import alike_but_you, named_view_schema
from referee.core.kit import DecisionKind, KitGame, LEGAL, Rule, no_check, one
from referee.games.yunnan import (bidding, build, described, flow, printed, resolution,
                                  scoring, state, travel, upkeep, views)
from referee.games.yunnan.prompts import PROMPTS
from referee.games.yunnan.data import PROVINCES
from referee.games.yunnan.spec import SPEC
from referee.games.yunnan.notation import NOTATION, SCHEMA


def _play_done(s, seat, move) -> None:
    flow.end_travel_turn(s, seat)


_STEP = (travel.check_step, travel.play_step)


class Yunnan(KitGame):
    """Yunnan (Second Edition) for 2-5 players; 2 players play with the Dúlì automaton."""

    spec = SPEC
    external_chance = True  # the set-up order and Dúlì's cards go through referee.core.chance
    # The kinds are the state's `step`; each lists its move types in the order they are shown.
    prompt_schemas = PROMPTS
    decisions = (
        DecisionKind("bid", (
            Rule("bid", bidding.check_bid, bidding.play_bid, bidding.bid_candidates, LEGAL),
            Rule("bank", bidding.check_bank, bidding.play_bank, bidding.from_candidates("bank")),
            Rule("market", bidding.check_market, bidding.play_market,
                 bidding.from_candidates("market")),
            Rule("pass", no_check, bidding.play_pass, one("pass")))),
        DecisionKind("resolve", (Rule("resolve", resolution.check_resolve,
                                      resolution.play_resolve, resolution.resolve_candidates),)),
        DecisionKind("block", (Rule("block", no_check, resolution.play_block,
                                    resolution.block_candidates),)),
        DecisionKind("yard", (Rule("yard", resolution.check_yard, resolution.play_yard,
                                   resolution.yard_candidates),)),
        DecisionKind("travel", (
            Rule("build", build.check_build, build.play_build, build.build_candidates),
            Rule("step", *_STEP, travel.step_candidates),
            Rule("done", no_check, _play_done, one("done")))),
        DecisionKind("journey", (
            Rule("step", *_STEP, travel.journey_candidates),
            Rule("stop", travel.check_stop, travel.play_stop, one("stop")))),
        DecisionKind("displace", (
            Rule("displace", travel.check_displace, travel.play_displace,
                 travel.displace_candidates),
            Rule("no_displace", no_check, travel.play_no_displace, one("no_displace")))),
        DecisionKind("convert", (Rule("convert", upkeep.check_convert, upkeep.play_convert,
                                      upkeep.convert_candidates),)),
    )
    state_schema = SCHEMA
    notation = NOTATION

    def check_setup(self, players, options):
        """Player count 2-5; Dúlì's options other than their defaults only with 2 players."""
        super().check_setup(players, options)
        for option in SPEC.options:
            if (option.name.startswith("duli_") and players != 2
                    and options.get(option.name, option.default) != option.default):
                raise InvalidOptions(f"option {option.name} applies only to 2-player games "
                                     f"(with Dúlì)", option=option.name)

    def setup(self, players, options, seed):
        """Round 1 ready for the first bid (random order, coins by blue-track position)."""
        return flow.setup(players, options, seed)

    def awaiting(self, state):
        """The one seat that must act and its step; nobody once the game is over."""
        return () if state["phase"] == "over" else ((state["actor"], state["step"]),)

    def prompt(self, state, seat, kind):
        """Context for the pending decision: phase, round and what the step is about."""
        return _prompt(state)

    def settle(self, state):
        """Every automatic step until a seat must decide (Dúlì, forced passes, upkeep)."""
        flow.advance(state)

    def check_state(self, data):
        """Lengths per player count, phase and step, traders/structures/presents conserved."""
        state.check_state(data)

    def view(self, state, seat):
        """Everything but the seed and the order of Dúlì's draw pile."""
        return views.view(state, seat)

    def served_view(self, state, seat, memo=None):
        """`view` without its copy, for a caller that only serialises it: built once per
        state into `memo` and shared by its viewers (only Dúlì's draw pile is hidden, from
        everyone alike, so a seat's view is the spectator's with its own "you")."""
        return alike_but_you(memo, seat, lambda viewer: views.served_view(state, viewer))

    def view_schema(self, spectator=False):
        """JSON Schema of a seat's (or the spectator's) view, every field described."""
        return _VIEW_SCHEMAS[bool(spectator)]

    def board(self):
        """Every table the engine uses, tagged, with building effects and Dúlì's cards."""
        return printed.board()

    def outcome(self, state):
        """Final scores and ranks once the game is over."""
        if state["phase"] != "over":
            return None
        return scoring.outcome(state)

    def standing(self, state):
        """The final scoring applied to the position now (adjudicates a match stopped at its
        move cap); Dúlì is not scored."""
        return [scoring.breakdown(state, p)["total"] for p in range(state["n"])]

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


_VIEW_SCHEMAS = {spectator: named_view_schema("yunnan", described.view_schema(spectator))
                 for spectator in (False, True)}
"""Built once: the conformance suite checks every view against them (compiled per schema)."""
