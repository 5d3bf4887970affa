"""Phase 2: one action per seat with a merchant or an assistant, plus own-turn special cards."""

from __future__ import annotations

from referee.games.dschunke import flow
from referee.games.dschunke.board import (load_strip, remove_top_strip, top_owners,
                                          visible_crates)
from referee.games.dschunke.common import (describe_source, goods_sources, illegal,
                                           play_card, take_card_from)
from referee.games.dschunke.data import (ACTIONS, ANY_JUNK, CARDS, JUNKS, MERCHANTS, TRACKS,
                                         TWO_PLAYER)
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


def action_moves(state: dict, seat: int) -> list[dict]:
    """The merchant and assistant actions open to the seat now."""
    moves = [{"type": "merchant", "merchant": m} for m in sorted(state["merchants"])
             if not state["merchants"][m]["used"]
             and possible(state, seat, MERCHANTS[m]["action"])]
    free = free_merchant_junks(state)
    for track in sorted(state["assistants"]):
        if not state["assistants"][track]["used"] \
                and possible(state, seat, assistant_action(state, track)):
            moves += [{"type": "assistant", "assistant": track, "junk": j} for j in free]
    return moves


def card_moves(state: dict, seat: int) -> list[dict]:
    """Special cards the seat may play on its own turn: Move Cargo Strip, Extra Actions."""
    kinds = {r["card"] for r in state["seats"][seat]["cards"]}
    moves = []
    if "move_strip" in kinds:
        for source in JUNKS:
            for owner in top_owners(state["junks"][source]["layers"]):
                moves += [{"type": "move_strip", "from": source, "owner": owner, "to": to}
                          for to in JUNKS if to != source]
    moves += [{"type": "extra_action", "card": k} for k in sorted(kinds)
              if CARDS[k]["effect"] == "extra_action"]
    return moves


def turn_moves(state: dict, seat: int) -> list[dict]:
    """Legal moves of a phase-2 turn before or after the action."""
    if state["stage"]["acted"]:
        return [{"type": "done"}] + card_moves(state, seat)
    actions = action_moves(state, seat)
    return (actions or [{"type": "pass"}]) + card_moves(state, seat)


def use_merchant(state: dict, seat: int, merchant: str) -> None:
    """Carry out an unused merchant's action on the junk it stands on."""
    _must_not_have_acted(state, "merchant")
    figure = state["merchants"][merchant]
    action = MERCHANTS[merchant]["action"]
    if figure["used"]:
        illegal("merchant", f"the {merchant} merchant has already acted this round")
    if not possible(state, seat, action):
        illegal("load", f"seat {seat} has no cargo strip left to load")
    figure["used"] = True
    state["stage"]["acted"] = True
    if TWO_PLAYER["relocate_used_merchant"] and state["options"]["two_player_variant"]:
        state["stage"]["relocate"] = merchant
    perform(state, seat, action, figure["junk"])


def use_assistant(state: dict, seat: int, track: str, junk: str) -> None:
    """Carry out an assistant's printed action on a junk without a merchant."""
    _must_not_have_acted(state, "assistant")
    if track not in state["assistants"]:
        illegal("assistant", f"the {track} assistant is not in play with "
                f"{state['players']} players" + (" in the 2-player variant"
                                                 if state["options"]["two_player_variant"]
                                                 else ""))
    if state["assistants"][track]["used"]:
        illegal("assistant", f"the {track} assistant has already acted this round")
    if junk not in free_merchant_junks(state):
        illegal("assistant", f"an assistant acts only on a junk without a merchant, "
                f"{free_merchant_junks(state)}, not on {junk}")
    action = assistant_action(state, track)
    if not possible(state, seat, action):
        illegal("load", f"seat {seat} has no cargo strip left to load")
    state["assistants"][track]["used"] = True
    state["stage"]["acted"] = True
    perform(state, seat, action, junk)


def _must_not_have_acted(state: dict, rule: str) -> None:
    if state["stage"]["acted"]:
        illegal(rule, "you have already taken your one action this round")


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


def take_goods(state: dict, seat: int, goods: str, junk: str) -> None:
    """Choose one card of the take in progress."""
    if (goods, junk) not in take_options(state):
        illegal("take_goods", f"cannot take {describe_source(goods, junk)} now; choose one of "
                f"{[describe_source(*o) for o in take_options(state)]}")
    take_card_from(state, seat, goods, junk)
    state["stage"]["take"]["left"] -= 1
    auto_take(state, seat)


def relocate(state: dict, seat: int, junk: str) -> None:
    """2-player variant: move the used merchant, face down, to a junk without a merchant."""
    if junk not in free_merchant_junks(state):
        illegal("relocate_merchant", f"junk {junk} already has a merchant; free junks are "
                f"{free_merchant_junks(state)}")
    state["merchants"][state["stage"]["relocate"]]["junk"] = junk
    state["stage"]["relocate"] = None


def relocate_moves(state: dict) -> list[dict]:
    """Where the used merchant may go (2-player variant)."""
    return [{"type": "relocate_merchant", "junk": j} for j in free_merchant_junks(state)]


def move_strip(state: dict, seat: int, source: str, owner: int, to: str) -> None:
    """Play Move Cargo Strip: a top-layer strip goes onto another junk's top (FAQ Q5)."""
    if "move_strip" not in {r["card"] for r in state["seats"][seat]["cards"]}:
        illegal("move_strip", f"seat {seat} holds no Move Cargo Strip card")
    if owner not in top_owners(state["junks"][source]["layers"]):
        illegal("move_strip", f"no strip of seat {owner} lies in the top layer of the "
                f"{source} junk (top owners {top_owners(state['junks'][source]['layers'])})")
    if to == source:
        illegal("move_strip", "the strip must go to another junk")
    play_card(state, seat, "move_strip")
    remove_top_strip(state["junks"][source]["layers"], owner)
    load_strip(state["junks"][to]["layers"], owner)


def extra_action(state: dict, seat: int, kind: str) -> None:
    """Play an Extra Action card: its action on its junk, in addition to the turn's action."""
    if kind not in {r["card"] for r in state["seats"][seat]["cards"]}:
        illegal("extra_action", f"seat {seat} holds no {kind!r} card")
    play_card(state, seat, kind)
    perform(state, seat, CARDS[kind]["action"], CARDS[kind]["junk"])


def turn_done(state: dict, seat: int) -> None:
    """End the phase-2 turn (after its action)."""
    if not state["stage"]["acted"]:
        illegal("done", "take your action first (merchant or assistant)")
    flow.enter_actions(state, state["stage"]["i"] + 1)


def turn_pass(state: dict, seat: int) -> None:
    """Pass the action when no merchant or assistant action is possible for the seat."""
    if state["stage"]["acted"]:
        illegal("pass", "you have already acted; end your turn with done")
    if action_moves(state, seat):
        illegal("pass", f"an action is possible ({len(action_moves(state, seat))} options); "
                "you must take one")
    state["stage"]["acted"] = True
