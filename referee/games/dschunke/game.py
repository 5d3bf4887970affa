"""The Dschunke game object, declared into the game kit: decisions, rules and hooks."""

from __future__ import annotations

from referee.core import InvalidPlayers
from referee.core.game import named_view_schema
from referee.core.kit import LEGAL, DecisionKind, KitGame, Rule, no_check
from referee.games.dschunke import (actions, described, flow, hidden, material, phase1, phase3,
                                    poker, scoring, setup, specials, state as state_mod, views)
from referee.games.dschunke.prompts import PROMPTS
from referee.games.dschunke.data import GOODS, MARKET, SCORING, is_open_card
from referee.games.dschunke.spec import SPEC
from referee.games.dschunke.notation import NOTATION, SCHEMA


def decision_kind(state: dict) -> str | None:
    """The kind of the one sequential decision pending now (None: sealed bids or over)."""
    stage = state["stage"]
    kind = stage["kind"]
    if kind in ("s_event", "s_reward"):
        if kind == "s_reward" and stage["step"] == "choose":
            return "s_reward"
        return "choose_stack" if stage["looking"] is None else "take_card"
    if kind == "action":
        if stage["take"] is not None:
            return "take_goods"
        if stage["relocate"] is not None:
            return "relocate_merchant"
        return "after_action" if stage["acted"] else "action"
    return None if kind in ("bid", "over") else kind


def _prompt(state: dict, kind: str, seat: int) -> dict:
    stage = state["stage"]
    if kind == "take_card":
        return {"stack": stage["looking"], "cards": sorted(state["stacks"][stage["looking"]])}
    if kind == "choose_stack":
        return {"stacks": specials.stack_choices(state)}
    if kind == "take_goods":
        return dict(stage["take"])
    if kind == "resupply":
        return {"left": stage["left"]}
    if kind == "trade":
        return {"swaps": stage["swaps"]}
    if kind == "s_reward":
        return {"yuan": SCORING["last_round_s_yuan"]}
    if kind == "place_strip":
        return {"owner_seat": setup.strip_owner(state, seat), "held": stage["held"][seat]}
    return {"round": state["round"]}


def _bid_prompt(state: dict, seat: int) -> dict:
    steps = state["poker"]["bids"][seat]["steps"]
    return {"goods": GOODS[steps], "step": steps + 1, "of": len(GOODS),
            "open": flow.open_colours(state), "market": MARKET[state["market"]["card"]]}


# Phase-2 turns list their candidates through actions.turn_candidates, which keeps only the
# actions their checks allow (and pass only when none is): trusted as LEGAL, so a turn is not
# checked twice; audit_listing confirms every one over playouts (test_dschunke_kit).
_CARD_RULES = (Rule("move_strip", actions.check_move_strip, actions.move_strip, listing=LEGAL),
               Rule("extra_action", actions.check_extra_action, actions.extra_action,
                    listing=LEGAL))
_ACTION = (Rule("merchant", actions.check_merchant, actions.use_merchant, listing=LEGAL),
           Rule("assistant", actions.check_assistant, actions.use_assistant, listing=LEGAL),
           Rule("pass", actions.check_pass, actions.turn_pass, listing=LEGAL)) + _CARD_RULES
_AFTER = (Rule("done", no_check, actions.turn_done),) + _CARD_RULES


class Dschunke(KitGame):
    """Dschunke on the game kit; the state is a plain dict (see state.py)."""

    spec = SPEC
    external_chance = True
    prompt_schemas = PROMPTS
    decisions = (
        DecisionKind("place_merchant", (Rule("place_merchant", setup.check_place_merchant,
                                             setup.place_merchant, setup.merchant_candidates),)),
        DecisionKind("place_strip", (Rule("place_strip", setup.check_place_strip,
                                          setup.place_strip, setup.strip_candidates),)),
        DecisionKind("trade_window", (Rule("trade_goods", phase1.check_trade, phase1.play_trade),
                                      Rule("pass", no_check, phase1.window_pass)),
                     candidates=phase1.window_candidates),
        DecisionKind("trade", (Rule("swap", phase1.check_swap, phase1.swap),
                               Rule("done", phase1.check_trade_done, phase1.trade_done)),
                     candidates=phase1.trade_candidates),
        DecisionKind("choose_stack", (Rule("choose_stack", specials.check_choose_stack,
                                           specials.choose_stack, specials.stack_candidates),)),
        DecisionKind("take_card", (Rule("take_card", specials.check_take_card,
                                        specials.take_card, specials.card_candidates),)),
        DecisionKind("s_reward", (Rule("s_reward", specials.check_reward,
                                       specials.choose_reward, specials.reward_candidates),)),
        DecisionKind("action", _ACTION, candidates=actions.turn_candidates),
        DecisionKind("after_action", _AFTER, candidates=actions.turn_candidates),
        DecisionKind("take_goods", (Rule("take_goods", actions.check_take_goods,
                                         actions.take_goods, actions.take_candidates),)),
        DecisionKind("relocate_merchant", (Rule("relocate_merchant", actions.check_relocate,
                                                actions.relocate,
                                                actions.relocate_candidates),)),
        DecisionKind("resupply", (Rule("resupply", phase3.check_resupply, phase3.resupply,
                                       phase3.resupply_candidates),
                                  Rule("done", no_check, phase3.resupply_done,
                                       lambda s, seat: [{"type": "done"}]))),
        DecisionKind("bid", (Rule("bid", poker.check_bid, poker.bid, poker.bid_candidates,
                                  LEGAL),),
                     sealed=True),
    )
    state_schema = SCHEMA
    notation = NOTATION

    def check_setup(self, players, options):
        """3-4 players; exactly 2 with the fan variant option (which needs 2).

        The spec declares 3-4 so tools that try each count with default options work;
        2 is accepted here only together with `two_player_variant`.
        """
        if options["two_player_variant"]:
            if players != 2:
                raise InvalidPlayers(f"the option two_player_variant is for 2 players, "
                                     f"not {players}", players=players)
            return
        super().check_setup(players, options)

    def setup(self, players, options, seed):
        """Goods dealt, decks shuffled, cargo laid; the first decision pending."""
        return setup.new_state(players, options, seed)

    def awaiting(self, state):
        """The sealed bidders in the poker, or the one seat deciding now; () once over."""
        kind = decision_kind(state)
        if kind is not None:
            return ((views.deciding_seat(state), kind, _TYPES[kind]),)
        if state["stage"]["kind"] == "over":
            return ()
        return tuple((seat, "bid", _BID) for seat in poker.bidding(state))

    def prompt(self, state, seat, kind):
        """What the decision is about: the bid's colour and market, a stack's cards, ..."""
        return _bid_prompt(state, seat) if kind == "bid" else _prompt(state, kind, seat)

    def settle(self, state):
        """End a phase-2 turn once nothing more can be decided in it."""
        flow.settle_action(state)

    def check_state(self, state):
        """Counts per player, pieces conserved, the stage consistent with the table."""
        state_mod.check(state)

    def view(self, state, seat):
        """What `seat` may see (None: a spectator)."""
        return views.view(state, seat)

    def served_view(self, state, seat, memo=None):
        """`view` for a caller that only serialises it: the parts every viewer of a state
        sees alike (the table, the other seats' public blocks) are built once into `memo`,
        which the caller keeps with the state, and shared by that state's views (a move's
        answer and the next seat's prompt show the same state)."""
        return views.view(state, seat, memo)

    def outcome(self, state):
        """Final scores and ranks once the tenth round is over."""
        return scoring.outcome(state) if views.is_over(state) else None

    def standing(self, state):
        """The final-score formula applied now (cash, card and ship bonuses), to adjudicate a
        match stopped at its move cap."""
        return [row["total"] for row in scoring.breakdown(state)]

    def view_schema(self, spectator=False):
        """The JSON Schema of a seat's view (spectator: of the spectator's), described."""
        return _SCHEMAS[bool(spectator)]

    def board(self):
        """The board, cards and set-up as tagged data, with one-line card and action texts."""
        return material.board()

    def redetermine(self, state, seat, rng):
        """Everything hidden from `seat` re-dealt consistently with what it knows."""
        return hidden.redetermine(state, seat, rng)

    def public_move(self, state, seat, move):
        """Which hidden special card a seat kept is secret (a permanent card is laid face up,
        so it is public); every other move is public, a bid once revealed."""
        if move.get("type") == "take_card" and not is_open_card(move["card"]):
            return {"type": "take_card"}
        return move

    def reveals(self, state):
        """The goods poker's reveals so far: every sealed bid laid before one is public."""
        return state["reveals"]


_SCHEMAS = {spectator: named_view_schema("dschunke", described.view_schema(spectator))
            for spectator in (False, True)}
"""The two view schemas, built once."""
_TYPES = {d.kind: d.move_types for d in Dschunke.decisions}
"""Each decision's move types, named in `awaiting` so they are not rebuilt per call."""
_BID = _TYPES["bid"]

GAME = Dschunke()
