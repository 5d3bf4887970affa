"""Special cards: looking through a stack, keeping a card, and the S rewards and events."""

from __future__ import annotations

from referee.core.kit import rule_error
from referee.games.dschunke import flow
from referee.games.dschunke.data import ROUNDS, SCORING, STACKS, is_open_card


def stack_choices(state: dict) -> list[int]:
    """The stacks the deciding seat may look through now."""
    stage = state["stage"]
    chosen = stage.get("chosen", []) if stage["kind"] == "s_event" else []
    return [k for k in range(STACKS) if state["stacks"][k] and k not in chosen]


def stack_candidates(state: dict, seat: int) -> list[dict]:
    """The stacks the seat may look through."""
    return [{"type": "choose_stack", "stack": k} for k in stack_choices(state)]


def check_choose_stack(state: dict, seat: int, move: dict) -> None:
    """A stack with cards that no earlier seat chose in this S event."""
    stack = move["stack"]
    if stack not in stack_choices(state):
        why = "is empty" if not state["stacks"][stack] else "was chosen by another seat this event"
        raise rule_error("choose_stack", f"stack {stack} {why}; choose one of "
                         f"{stack_choices(state)}")


def choose_stack(state: dict, seat: int, move: dict) -> None:
    """Start looking through `stack` (the seat now sees its contents)."""
    stage = state["stage"]
    stage["looking"] = move["stack"]
    if stage["kind"] == "s_event":
        stage["chosen"].append(move["stack"])
    else:
        stage["step"] = "take"


def card_candidates(state: dict, seat: int) -> list[dict]:
    """Each kind of card in the stack looked through."""
    return [{"type": "take_card", "card": c}
            for c in sorted(set(state["stacks"][state["stage"]["looking"]]))]


def check_take_card(state: dict, seat: int, move: dict) -> None:
    """The card must be in the stack being looked through."""
    stack = state["stage"]["looking"]
    if move["card"] not in state["stacks"][stack]:
        raise rule_error("take_card", f"stack {stack} holds no {move['card']!r} card; it holds "
                         f"{sorted(set(state['stacks'][stack]))}")


def take_card(state: dict, seat: int, move: dict) -> None:
    """Keep one card of the stack being looked through; the stack goes back, one card fewer."""
    stage = state["stage"]
    stack = stage["looking"]
    state["stacks"][stack].remove(move["card"])
    keep_card(state, seat, move["card"], stack)
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


def reward_candidates(state: dict, seat: int) -> list[dict]:
    """The round-10 rewards open now."""
    return [{"type": "s_reward", "choice": c} for c in s_reward_choices(state)]


def check_reward(state: dict, seat: int, move: dict) -> None:
    """A card can be chosen only while a stack holds one."""
    if move["choice"] not in s_reward_choices(state):
        raise rule_error("s_reward", "every special-card stack is empty; take the 3 yuan")


def choose_reward(state: dict, seat: int, move: dict) -> None:
    """Round 10: take the 3 yuan, or go on to choose a stack (before looking, FAQ Q7)."""
    if move["choice"] == "yuan":
        state["seats"][seat]["cash"] += SCORING["last_round_s_yuan"]
        flow.continue_poker(state)
    else:
        state["stage"]["step"] = "stack"
