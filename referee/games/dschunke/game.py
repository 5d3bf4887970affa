"""The Dschunke game object: decisions, legal moves and moves dispatched to the phase modules."""

from __future__ import annotations

from referee.core import Decision, Game, IllegalMove, InvalidPlayers
from referee.core.copying import deep_copy
from referee.games.dschunke import (actions, flow, hidden, phase1, phase3, poker, scoring,
                                    setup, specials, state as state_mod, views)
from referee.games.dschunke.data import GOODS, MARKET, SCORING
from referee.games.dschunke.spec import SPEC

_TURN = ("merchant", "assistant", "pass", "move_strip", "extra_action")
_AFTER = ("done", "move_strip", "extra_action")
MOVE_TYPES = {
    "place_merchant": ("place_merchant",), "place_strip": ("place_strip",),
    "trade_window": ("trade_goods", "pass"), "trade": ("swap", "done"),
    "choose_stack": ("choose_stack",), "take_card": ("take_card",), "s_reward": ("s_reward",),
    "action": _TURN, "after_action": _AFTER, "take_goods": ("take_goods",),
    "relocate_merchant": ("relocate_merchant",), "resupply": ("resupply", "done"),
}


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
        return {"owner": setup.strip_owner(state, seat), "held": stage["held"][seat]}
    return {"round": state["round"]}


class Dschunke(Game):
    """Dschunke on the rules core; the state is a plain dict (see state.py)."""

    spec = SPEC

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

    def pending(self, state):
        """The sealed bidders in the poker, or the one seat deciding now; () once over."""
        kind = decision_kind(state)
        if kind is None:
            if state["stage"]["kind"] == "over":
                return ()
            return tuple(Decision(seat, "bid", ("bid",), sealed=True,
                                  prompt=self._bid_prompt(state, seat))
                         for seat in poker.bidding(state))
        seat = views.deciding_seat(state)
        return (Decision(seat, kind, MOVE_TYPES[kind], prompt=_prompt(state, kind, seat)),)

    @staticmethod
    def _bid_prompt(state, seat):
        steps = state["poker"]["bids"][seat]["steps"]
        return {"goods": GOODS[steps], "step": steps + 1, "of": len(GOODS),
                "open": flow.open_colours(state), "market": MARKET[state["market"]["card"]]}

    def legal_moves(self, state, seat):
        """Every legal move of the seat's pending decision (finite, small lists)."""
        kind = decision_kind(state)
        if kind is None:
            if state["stage"]["kind"] == "bid" and seat in poker.bidding(state):
                return poker.bid_moves(state, seat)
            return []
        if seat != views.deciding_seat(state):
            return []
        return _LEGAL[kind](state, seat)

    def apply(self, state, seat, move):
        """Check the move against the rules and return the new state (the input is untouched)."""
        kind = decision_kind(state)
        if kind is None and state["stage"]["kind"] == "bid":
            kind = "bid" if seat in poker.bidding(state) else None
        elif kind is not None and seat != views.deciding_seat(state):
            kind = None
        handler = _APPLY.get((kind, move.get("type")))
        if handler is None:
            raise IllegalMove("move.illegal.turn", f"rule 'turn': seat {seat} cannot play a "
                              f"{move.get('type')!r} move now (pending: {kind})")
        new = deep_copy(state)
        handler(new, seat, move)
        flow.settle_action(new)
        return new

    def view(self, state, seat):
        """What `seat` may see (None: a spectator)."""
        return views.view(state, seat)

    def outcome(self, state):
        """Final scores and ranks once the tenth round is over."""
        return scoring.outcome(state) if views.is_over(state) else None

    def to_dict(self, state):
        """The full state (it is plain data already)."""
        return deep_copy(state)

    def from_dict(self, data):
        """A validated copy of a stored state."""
        state_mod.check(data)
        return deep_copy(data)

    def redetermine(self, state, seat, rng):
        """Everything hidden from `seat` re-dealt consistently with what it knows."""
        return hidden.redetermine(state, seat, rng)

    def redact_move(self, move, seat, viewer):
        """Which special card another seat kept is secret; every other move is public."""
        if move.get("type") == "take_card" and viewer != seat:
            return {"type": "take_card"}
        return move


_LEGAL = {
    "place_merchant": lambda s, seat: [{"type": "place_merchant", "junk": j}
                                       for j in setup.free_merchant_junks(s)],
    "place_strip": lambda s, seat: [{"type": "place_strip", "junk": j} for j in
                                    setup.placeable_junks(s, setup.strip_owner(s, seat))],
    "trade_window": phase1.window_moves,
    "trade": phase1.trade_moves,
    "choose_stack": lambda s, seat: [{"type": "choose_stack", "stack": k}
                                     for k in specials.stack_choices(s)],
    "take_card": lambda s, seat: [{"type": "take_card", "card": c}
                                  for c in sorted(set(s["stacks"][s["stage"]["looking"]]))],
    "s_reward": lambda s, seat: [{"type": "s_reward", "choice": c}
                                 for c in specials.s_reward_choices(s)],
    "action": actions.turn_moves,
    "after_action": actions.turn_moves,
    "take_goods": lambda s, seat: [{"type": "take_goods", "goods": g, "junk": j}
                                   for g, j in actions.take_options(s)],
    "relocate_merchant": lambda s, seat: actions.relocate_moves(s),
    "resupply": lambda s, seat: phase3.resupply_moves(s),
}

def _call(handler, *fields):
    """A move handler calling `handler(state, seat, *move[fields])`."""
    return lambda state, seat, move: handler(state, seat, *(move[f] for f in fields))


_APPLY = {
    ("place_merchant", "place_merchant"): _call(setup.place_merchant, "junk"),
    ("place_strip", "place_strip"): _call(setup.place_strip, "junk"),
    ("trade_window", "pass"): _call(phase1.window_pass),
    ("trade_window", "trade_goods"): _call(phase1.play_trade),
    ("trade", "swap"): _call(phase1.swap, "give", "take", "junk"),
    ("trade", "done"): _call(phase1.trade_done),
    ("choose_stack", "choose_stack"): _call(specials.choose_stack, "stack"),
    ("take_card", "take_card"): _call(specials.take_card, "card"),
    ("s_reward", "s_reward"): _call(specials.choose_reward, "choice"),
    ("take_goods", "take_goods"): _call(actions.take_goods, "goods", "junk"),
    ("relocate_merchant", "relocate_merchant"): _call(actions.relocate, "junk"),
    ("resupply", "resupply"): _call(phase3.resupply, "goods", "junk"),
    ("resupply", "done"): _call(phase3.resupply_done),
    ("bid", "bid"): _call(poker.bid, "goods", "count"),
}
for _kind in ("action", "after_action"):
    _APPLY.update({
        (_kind, "merchant"): _call(actions.use_merchant, "merchant"),
        (_kind, "assistant"): _call(actions.use_assistant, "assistant", "junk"),
        (_kind, "pass"): _call(actions.turn_pass),
        (_kind, "done"): _call(actions.turn_done),
        (_kind, "move_strip"): _call(actions.move_strip, "from", "owner", "to"),
        (_kind, "extra_action"): _call(actions.extra_action, "card"),
    })

GAME = Dschunke()
