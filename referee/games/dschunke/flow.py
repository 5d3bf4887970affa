"""The round's sequence: which stage comes next, skipping seats with nothing to decide.

Each `enter_*` either sets `state["stage"]` to a decision someone must take, or moves on to
the next step at once (automatic steps: revealing the market card, the Y announcement,
advancing the figures, passing the start player).
"""

from __future__ import annotations

from referee.games.dschunke import chances
from referee.games.dschunke.common import (goods_sources, hand_size, resupply_count,
                                           seat_in_order)
from referee.games.dschunke.data import EVENTS, GOODS, ROUNDS, STACKS, next_junk


def start_round(state: dict) -> None:
    """Phase 1: turn over the market card, then the Trade Goods window and the events."""
    state["phase"], state["poker"] = 1, None
    market = state["market"]
    market["card"] = chances.market_card(market["deck"], state["round"])
    market["settled"] = []
    market["seen"].append(market["card"])
    enter_trade_window(state, 0)


def trade_eligible(state: dict, seat: int) -> bool:
    """True if the seat is asked about Trade Goods: it holds a hidden card from an earlier round.

    Asking every such seat, not only Trade Goods holders, keeps who holds one a secret.
    """
    return any(r["round"] < state["round"] for r in state["seats"][seat]["cards"])


def enter_trade_window(state: dict, index: int) -> None:
    """Ask seats in player order, from `index`, whether they play Trade Goods."""
    while index < state["players"]:
        if trade_eligible(state, seat_in_order(state, index)):
            state["stage"] = {"kind": "trade_window", "i": index}
            return
        index += 1
    run_events(state, 0)


def run_events(state: dict, event_index: int) -> None:
    """Play this round's events (S, Y) from `event_index` on, then phase 2."""
    events = EVENTS[state["round"] - 1]
    while event_index < len(events):
        if events[event_index] == "S":
            enter_s_event(state, event_index, 0, [])
            return
        if events[event_index] == "Y":
            state["announced"] = {"round": state["round"],
                                  "cash": [s["cash"] for s in state["seats"]]}
        event_index += 1
    enter_actions(state, 0)


def enter_s_event(state: dict, event_index: int, index: int, chosen: list) -> None:
    """S event: the seat at `index` picks a stack no earlier seat chose this event."""
    while index < state["players"]:
        if any(state["stacks"][k] and k not in chosen for k in range(STACKS)):
            state["stage"] = {"kind": "s_event", "event": event_index, "i": index,
                              "chosen": chosen, "looking": None}
            return
        index += 1  # no stack left for this seat: it gets nothing (rules.md)
    run_events(state, event_index + 1)


def enter_actions(state: dict, index: int) -> None:
    """Phase 2: the seat at `index` takes its one action; after the last seat, phase 3."""
    state["phase"] = 2
    if index >= state["players"]:
        enter_resupply(state, 0)
        return
    state["stage"] = {"kind": "action", "i": index, "acted": False, "take": None,
                      "relocate": None}


def settle_action(state: dict) -> None:
    """After a phase-2 move: end the seat's turn once nothing more can be decided in it.

    The turn stays open after the action while the seat holds any hidden special card, so
    whether one is playable is not revealed by the turn ending early.
    """
    stage = state["stage"]
    if stage["kind"] != "action" or not stage["acted"]:
        return
    if stage["take"] is not None or stage["relocate"] is not None:
        return
    seat = seat_in_order(state, stage["i"])
    if not state["seats"][seat]["cards"]:
        enter_actions(state, stage["i"] + 1)


def enter_resupply(state: dict, index: int) -> None:
    """Phase 3: each seat, start player first, takes its resupply goods."""
    state["phase"] = 3
    while index < state["players"]:
        seat = state["seats"][seat_in_order(state, index)]
        left = resupply_count(seat)
        if left > 0 and goods_sources(state):
            state["stage"] = {"kind": "resupply", "i": index, "left": left}
            return
        index += 1
    enter_poker(state)


def enter_poker(state: dict) -> None:
    """Phase 4: the goods poker, as many bidding rounds as it takes."""
    state["phase"] = 4
    state["poker"] = {"round": 0, "bids": [None] * state["players"], "reveal": None}
    state["last_poker"] = None
    start_poker_round(state)


def open_colours(state: dict) -> list[str]:
    """The goods colours of the market card not yet settled this round."""
    return [g for g in GOODS if g not in state["market"]["settled"]]


def start_poker_round(state: dict) -> None:
    """A sealed bidding round, if a colour is open and someone holds cards; else phase 5."""
    poker = state["poker"]
    bids = [{"steps": 0, "stake": {}} if hand_size(s) > 0 else None for s in state["seats"]]
    if not open_colours(state) or not any(bids):
        end_round(state)
        return
    poker["round"] += 1
    poker["bids"] = bids
    state["stage"] = {"kind": "bid"}


def continue_poker(state: dict) -> None:
    """After a reveal (and any S reward): bid again if someone played a card, else stop."""
    if state["poker"]["reveal"]["any_valid"]:
        start_poker_round(state)
    else:
        end_round(state)


def end_round(state: dict) -> None:
    """Phases 5 and 6: figures advance, the start player passes on; or the game ends.

    The poker's last reveal stays on the table (`last_poker`) until the next poker starts:
    "All reveal simultaneously", so everyone sees the round's final bids and payments too.
    """
    reveal = state["poker"]["reveal"] if state["poker"] is not None else None
    state["last_poker"] = {"round": state["round"], "reveal": reveal} if reveal else None
    if state["round"] >= ROUNDS:
        state["stage"] = {"kind": "over"}
        return
    for merchant in state["merchants"].values():
        merchant["junk"], merchant["used"] = next_junk(merchant["junk"]), False
    for assistant in state["assistants"].values():
        assistant["used"] = False
    state["start"] = (state["start"] + 1) % state["players"]
    state["round"] += 1
    start_round(state)
