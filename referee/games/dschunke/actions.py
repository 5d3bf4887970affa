"""Phase 2: one action per seat with a merchant or an assistant, plus own-turn special cards.

Each move type has a check (reads the state, raises the refusal) and a play (changes the
kit's private copy, the check having passed); candidates are listed in the order bots see.
"""

from __future__ import annotations

from referee.core import IllegalMove
from referee.core.kit import rule_error
from referee.games.dschunke import flow
from referee.games.dschunke.board import (load_strip, remove_top_strip, top_owners,
                                          visible_crates)
from referee.games.dschunke.common import (describe_source, goods_sources, play_card,
                                           take_card_from)
from referee.games.dschunke.data import (ACTIONS, ANY_JUNK, CARDS, JUNKS, MERCHANT_ORDER,
                                         MERCHANTS, TRACKS, TWO_PLAYER)
from referee.games.dschunke.setup import free_merchant_junks


def assistant_action(state: dict, track: str) -> str:
    """The action printed on the space the assistant of `track` stands on this round."""
    return TRACKS[track]["spaces"][state["round"] - 1]


def load_count(state: dict, seat: int, action: str) -> int:
    """Strips a load action would place for this seat (0: it may not load)."""
    wanted, left = ACTIONS[action]["strips"], state["seats"][seat]["strips"]
    if left >= wanted:
        return wanted
    if left >= 1 and state["options"]["load_single_last_strip"]:
        return left
    return 0


def possible(state: dict, seat: int, action: str) -> bool:
    """Whether the seat can carry out `action` at all (only a load can be impossible)."""
    return ACTIONS[action]["kind"] != "load" or load_count(state, seat, action) > 0


def _action_candidates(state: dict) -> list[dict]:
    """Every merchant, and every assistant in play on every junk without a merchant."""
    moves = [{"type": "merchant", "merchant": m} for m in MERCHANT_ORDER]
    free = free_merchant_junks(state)
    for track in sorted(state["assistants"]):
        moves += [{"type": "assistant", "assistant": track, "junk": j} for j in free]
    return moves


def action_moves(state: dict, seat: int) -> list[dict]:
    """The merchant and assistant actions open to the seat now (their checks decide)."""
    checks = {"merchant": check_merchant, "assistant": check_assistant}
    return [m for m in _action_candidates(state) if _allowed(checks[m["type"]], state, seat, m)]


def _allowed(check, state: dict, seat: int, move: dict) -> bool:
    try:
        check(state, seat, move)
    except IllegalMove:
        return False
    return True


def card_candidates(state: dict, seat: int) -> list[dict]:
    """Special-card moves of the seat's own turn, for the cards it holds (checks decide)."""
    kinds = {r["card"] for r in state["seats"][seat]["cards"]}
    moves = []
    if "move_strip" in kinds:
        for source in JUNKS:
            for owner in top_owners(state["junks"][source]["layers"]):
                moves += [{"type": "move_strip", "from": source, "owner_seat": owner, "to": to}
                          for to in JUNKS if to != source]
    moves += [{"type": "extra_action", "card": k} for k in sorted(kinds)
              if CARDS[k]["effect"] == "extra_action"]
    return moves


def turn_candidates(state: dict, seat: int) -> list[dict]:
    """A phase-2 turn's candidates, in listing order: the actions its checks allow, else
    pass; then the special cards."""
    if state["stage"]["acted"]:
        return [{"type": "done"}] + card_candidates(state, seat)
    return (action_moves(state, seat) or [{"type": "pass"}]) + card_candidates(state, seat)


def check_merchant(state: dict, seat: int, move: dict) -> None:
    """An unused merchant whose action the seat can carry out."""
    merchant = move["merchant"]
    if state["merchants"][merchant]["used"]:
        raise rule_error("merchant", f"the {merchant} merchant has already acted this round")
    if not possible(state, seat, MERCHANTS[merchant]["action"]):
        raise rule_error("load", f"seat {seat} has no cargo strip left to load")


def use_merchant(state: dict, seat: int, move: dict) -> None:
    """Carry out an unused merchant's action on the junk it stands on."""
    merchant = move["merchant"]
    figure = state["merchants"][merchant]
    figure["used"] = True
    state["stage"]["acted"] = True
    if TWO_PLAYER["relocate_used_merchant"] and state["options"]["two_player_variant"]:
        state["stage"]["relocate"] = merchant
    perform(state, seat, MERCHANTS[merchant]["action"], figure["junk"])


def check_assistant(state: dict, seat: int, move: dict) -> None:
    """An assistant in play, unused, on a junk without a merchant, with a possible action."""
    track, junk = move["assistant"], move["junk"]
    if track not in state["assistants"]:
        raise rule_error("assistant", f"the {track} assistant is not in play with "
                         f"{state['players']} players" + (
                             " in the 2-player variant"
                             if state["options"]["two_player_variant"] else ""))
    if state["assistants"][track]["used"]:
        raise rule_error("assistant", f"the {track} assistant has already acted this round")
    if junk not in free_merchant_junks(state):
        raise rule_error("assistant", f"an assistant acts only on a junk without a merchant, "
                         f"{free_merchant_junks(state)}, not on {junk}")
    if not possible(state, seat, assistant_action(state, track)):
        raise rule_error("load", f"seat {seat} has no cargo strip left to load")


def use_assistant(state: dict, seat: int, move: dict) -> None:
    """Carry out an assistant's printed action on a junk without a merchant."""
    track = move["assistant"]
    state["assistants"][track]["used"] = True
    state["stage"]["acted"] = True
    perform(state, seat, assistant_action(state, track), move["junk"])


def perform(state: dict, seat: int, action: str, junk: str) -> None:
    """Load, sell or take on `junk` by the action's table entry."""
    spec = ACTIONS[action]
    if spec["kind"] == "load":
        for _ in range(load_count(state, seat, action)):
            load_strip(state["junks"][junk]["layers"], seat)
            state["seats"][seat]["strips"] -= 1
        return
    crates = visible_crates(state["junks"][junk]["layers"], seat)
    amount = spec["flat"] if "flat" in spec else max(spec["minimum"], spec["per_crate"] * crates)
    if spec["kind"] == "sell":
        state["seats"][seat]["cash"] += amount
    else:
        state["stage"]["take"] = {"junk": junk, "left": amount}
        auto_take(state, seat)


def take_options(state: dict) -> list[tuple[str, str]]:
    """Where the next card of a take may come from: the junk's own goods while any are left,
    then (or on the grey junk) any goods still available."""
    junk = state["stage"]["take"]["junk"]
    if junk != ANY_JUNK and state["supply"][junk] > 0:
        return [(junk, junk)]
    return goods_sources(state)


def auto_take(state: dict, seat: int) -> None:
    """Take the cards that leave no choice; stop at the first real choice or when done."""
    take = state["stage"]["take"]
    while take["left"] > 0:
        options = take_options(state)
        if len(options) > 1:
            return
        if options:
            take_card_from(state, seat, *options[0])
        take["left"] = take["left"] - 1 if options else 0  # FAQ Q4: a shortfall is lost
    state["stage"]["take"] = None


def check_take_goods(state: dict, seat: int, move: dict) -> None:
    """The card must come from where the take in progress allows."""
    goods, junk = move["goods"], move["junk"]
    if (goods, junk) not in take_options(state):
        raise rule_error("take_goods", f"cannot take {describe_source(goods, junk)} now; "
                         f"choose one of {[describe_source(*o) for o in take_options(state)]}")


def take_goods(state: dict, seat: int, move: dict) -> None:
    """Choose one card of the take in progress."""
    take_card_from(state, seat, move["goods"], move["junk"])
    state["stage"]["take"]["left"] -= 1
    auto_take(state, seat)


def take_candidates(state: dict, seat: int) -> list[dict]:
    """Where the next card of the take may come from."""
    return [{"type": "take_goods", "goods": g, "junk": j} for g, j in take_options(state)]


def check_relocate(state: dict, seat: int, move: dict) -> None:
    """2-player variant: the used merchant goes to a junk without a merchant."""
    if move["junk"] not in free_merchant_junks(state):
        raise rule_error("relocate_merchant", f"junk {move['junk']} already has a merchant; "
                         f"free junks are {free_merchant_junks(state)}")


def relocate(state: dict, seat: int, move: dict) -> None:
    """2-player variant: move the used merchant, face down, to a junk without a merchant."""
    state["merchants"][state["stage"]["relocate"]]["junk"] = move["junk"]
    state["stage"]["relocate"] = None


def relocate_candidates(state: dict, seat: int) -> list[dict]:
    """Where the used merchant may go (2-player variant)."""
    return [{"type": "relocate_merchant", "junk": j} for j in free_merchant_junks(state)]


def check_move_strip(state: dict, seat: int, move: dict) -> None:
    """Move Cargo Strip held; a strip of `owner_seat` on top of `from`; another junk as target."""
    source, owner = move["from"], move["owner_seat"]
    if "move_strip" not in {r["card"] for r in state["seats"][seat]["cards"]}:
        raise rule_error("move_strip", f"seat {seat} holds no Move Cargo Strip card")
    top = top_owners(state["junks"][source]["layers"])
    if owner not in top:
        raise rule_error("move_strip", f"no strip of seat {owner} lies in the top layer of "
                         f"the {source} junk (top owners {top})")
    if move["to"] == source:
        raise rule_error("move_strip", "the strip must go to another junk")


def move_strip(state: dict, seat: int, move: dict) -> None:
    """Play Move Cargo Strip: a top-layer strip goes onto another junk's top (FAQ Q5)."""
    play_card(state, seat, "move_strip")
    remove_top_strip(state["junks"][move["from"]]["layers"], move["owner_seat"])
    load_strip(state["junks"][move["to"]]["layers"], move["owner_seat"])


def check_extra_action(state: dict, seat: int, move: dict) -> None:
    """The seat must hold the Extra Action card it plays."""
    if move["card"] not in {r["card"] for r in state["seats"][seat]["cards"]}:
        raise rule_error("extra_action", f"seat {seat} holds no {move['card']!r} card")


def extra_action(state: dict, seat: int, move: dict) -> None:
    """Play an Extra Action card: its action on its junk, in addition to the turn's action."""
    kind = move["card"]
    play_card(state, seat, kind)
    perform(state, seat, CARDS[kind]["action"], CARDS[kind]["junk"])


def turn_done(state: dict, seat: int, move: dict) -> None:
    """End the phase-2 turn (only offered after its action)."""
    flow.enter_actions(state, state["stage"]["i"] + 1)


def check_pass(state: dict, seat: int, move: dict) -> None:
    """A seat passes its action only when no merchant or assistant action is possible."""
    possible_actions = action_moves(state, seat)
    if possible_actions:
        raise rule_error("pass", f"an action is possible ({len(possible_actions)} options); "
                         "you must take one")


def turn_pass(state: dict, seat: int, move: dict) -> None:
    """Pass the action when no merchant or assistant action is possible for the seat."""
    state["stage"]["acted"] = True
