"""Special cards: looking through a stack, keeping a card, and the S rewards and events."""

from __future__ import annotations

from referee.games.dschunke import flow
from referee.games.dschunke.common import illegal
from referee.games.dschunke.data import ROUNDS, SCORING, STACKS, is_open_card


def stack_choices(state: dict) -> list[int]:
    """The stacks the deciding seat may look through now."""
    stage = state["stage"]
    chosen = stage.get("chosen", []) if stage["kind"] == "s_event" else []
    return [k for k in range(STACKS) if state["stacks"][k] and k not in chosen]


def choose_stack(state: dict, seat: int, stack: int) -> None:
    """Start looking through `stack` (the seat now sees its contents)."""
    stage = state["stage"]
    if stage["kind"] == "s_reward" and stage["step"] != "stack":
        illegal("choose_stack", "in round 10 choose 3 yuan or a card first (s_reward move)")
    if stage.get("looking") is not None:
        illegal("choose_stack", f"you are already looking through stack {stage['looking']}")
    if stack not in stack_choices(state):
        why = "is empty" if not state["stacks"][stack] else "was chosen by another seat this event"
        illegal("choose_stack", f"stack {stack} {why}; choose one of {stack_choices(state)}")
    stage["looking"] = stack
    if stage["kind"] == "s_event":
        stage["chosen"].append(stack)
    else:
        stage["step"] = "take"


def take_card(state: dict, seat: int, kind: str) -> None:
    """Keep one card of the stack being looked through; the stack goes back, one card fewer."""
    stage = state["stage"]
    stack = stage.get("looking")
    if stack is None:
        illegal("take_card", "choose a stack to look through first (choose_stack move)")
    if kind not in state["stacks"][stack]:
        illegal("take_card", f"stack {stack} holds no {kind!r} card; it holds "
                f"{sorted(set(state['stacks'][stack]))}")
    state["stacks"][stack].remove(kind)
    keep_card(state, seat, kind, stack)
    if stage["kind"] == "s_event":
        flow.enter_s_event(state, stage["event"], stage["i"] + 1, stage["chosen"])
    else:
        flow.continue_poker(state)


def keep_card(state: dict, seat: int, kind: str, stack: int) -> None:
    """Record the card with where and when it was taken (the seat's look happens then too)."""
    moment = state["clock"]
    state["clock"] += 1
    record = {"card": kind, "stack": stack, "at": moment, "round": state["round"]}
    seat_state = state["seats"][seat]
    seat_state["looks"][stack].append(moment)
    (seat_state["open"] if is_open_card(kind) else seat_state["cards"]).append(record)


def enter_s_reward(state: dict, seat: int) -> None:
    """The sole highest bidder on an S colour takes a special card (round 10: or 3 yuan)."""
    last = state["round"] >= ROUNDS
    if not last and not any(state["stacks"]):
        flow.continue_poker(state)  # no card left anywhere: nothing to take
        return
    state["stage"] = {"kind": "s_reward", "seat": seat, "step": "choose" if last else "stack",
                      "looking": None}


def s_reward_choices(state: dict) -> list[str]:
    """Round 10's choice: 3 yuan, or a card while any stack has one."""
    return ["yuan", "card"] if any(state["stacks"]) else ["yuan"]


def choose_reward(state: dict, seat: int, choice: str) -> None:
    """Round 10: take the 3 yuan, or go on to choose a stack (before looking, FAQ Q7)."""
    stage = state["stage"]
    if stage["step"] != "choose":
        illegal("s_reward", "the choice between 3 yuan and a card is only made in round 10, "
                "before looking")
    if choice not in s_reward_choices(state):
        illegal("s_reward", "every special-card stack is empty; take the 3 yuan")
    if choice == "yuan":
        state["seats"][seat]["cash"] += SCORING["last_round_s_yuan"]
        flow.continue_poker(state)
    else:
        stage["step"] = "stack"
