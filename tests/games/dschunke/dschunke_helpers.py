"""Scenario helpers for the Dschunke tests: build a state, patch it, play moves via the engine."""

from __future__ import annotations

import random

import pytest

from referee.core import RefereeError, engine
from referee.games.dschunke import GAME, flow
from referee.games.dschunke.data import GOODS, JUNKS

__all__ = ["GAME", "new", "play", "rejects", "pending_seats", "decision", "moves", "bid",
           "set_hand", "set_supply", "round_start", "set_strips_left", "phase2", "at_poker",
           "layers", "hidden_card", "JUNKS", "GOODS"]


def new(players: int = 3, seed: int = 0, **options) -> dict:
    """A fresh match state through the engine's start (options checked)."""
    _, state = engine.start(GAME, players, options, seed)
    return state


def playout(players: int, seed: int, **options) -> list[dict]:
    """Every state of one random playout to its end (any pending seat's random legal move)."""
    state, rnd = new(players, seed, **options), random.Random(seed)
    states = [state]
    while GAME.pending(state):
        decision = rnd.choice(GAME.pending(state))
        state = GAME.apply(state, decision.seat,
                           rnd.choice(GAME.legal_moves(state, decision.seat)))
        states.append(state)
    return states


def play(state: dict, seat: int, move: dict) -> dict:
    """Play one move through every generic check; returns the new state.

    The state is validated first, so a patched scenario state must be a consistent one.
    """
    GAME.from_dict(GAME.to_dict(state))
    new_state, _ = engine.play(GAME, state, 0, seat, move)
    return new_state


def rejects(state: dict, seat: int, move: dict, code: str = "move.illegal") -> RefereeError:
    """Assert the move is refused with a code starting with `code`; returns the error."""
    GAME.from_dict(GAME.to_dict(state))
    with pytest.raises(RefereeError) as err:
        engine.play(GAME, state, 0, seat, move)
    assert err.value.code.startswith(code), err.value
    return err.value


def pending_seats(state: dict) -> list[int]:
    """Seats that must act now."""
    return [d.seat for d in GAME.pending(state)]


def decision(state: dict, seat: int | None = None):
    """The (first, or `seat`'s) pending decision."""
    for d in GAME.pending(state):
        if seat is None or d.seat == seat:
            return d
    return None


def moves(state: dict, seat: int) -> list[dict]:
    """The seat's legal moves."""
    return GAME.legal_moves(state, seat)


def bid(state: dict, seat: int, cards: dict) -> dict:
    """Lay a whole sealed bid: one bid move per colour, in order (0 for colours not named)."""
    for goods in GOODS:
        state = play(state, seat, {"type": "bid", "goods": goods, "count": cards.get(goods, 0)})
    return state


def set_hand(state: dict, seat: int, hand: dict) -> None:
    """Give a seat exactly this hand; the difference goes to / comes from the junk piles."""
    for goods in GOODS:
        want = hand.get(goods, 0)
        state["supply"][goods] += state["seats"][seat]["hand"][goods] - want
        assert state["supply"][goods] >= 0, f"not enough {goods} cards for that hand"
        state["seats"][seat]["hand"][goods] = want


def set_supply(state: dict, supply: dict, sink: int) -> None:
    """Set the junk piles; the difference goes to / comes from seat `sink`'s hand."""
    for goods, count in supply.items():
        state["seats"][sink]["hand"][goods] += state["supply"][goods] - count
        assert state["seats"][sink]["hand"][goods] >= 0, f"seat {sink} lacks {goods} cards"
        state["supply"][goods] = count


def set_strips_left(state: dict, seat: int, left: int, junk: str = "orange") -> None:
    """Leave `left` strips in the seat's supply, laying the others on `junk`."""
    from referee.games.dschunke.board import load_strip
    info = state["seats"][seat]
    assert left <= info["strips"]
    while info["strips"] > left:
        load_strip(state["junks"][junk]["layers"], seat)
        info["strips"] -= 1


def phase2(players: int = 3, seed: int = 0, **options) -> dict:
    """Round 1, phase 2, seat 0 to act first (start player patched to seat 0)."""
    state = new(players, seed, **options)
    state["start"] = 0
    assert state["stage"]["kind"] == "action" and state["stage"]["i"] == 0
    return state


def round_start(players: int, rnd: int, seed: int = 0, prepare=None, **options) -> dict:
    """The state right after round `rnd`'s market card, seat 0 the start player.

    `prepare(state)` runs just before the round starts (to hand out cards and the like).
    """
    state = new(players, seed, **options)
    state["round"], state["start"] = rnd - 1, players - 1
    if prepare is not None:
        prepare(state)
    flow.end_round(state)
    return state


def at_poker(players: int, card: int, hands: dict, seed: int = 0, rnd: int = 1) -> dict:
    """Phase 4 of round `rnd` with market card `card` and these hands (others emptied)."""
    state = new(players, seed)
    state["start"], state["round"] = 0, rnd
    market = state["market"]
    market["deck"] = [c for c in range(10) if c != card]
    market["seen"], market["card"] = [card], card
    for seat in range(players):
        set_hand(state, seat, hands.get(seat, {}))
    flow.enter_poker(state)
    return state


def layers(state: dict, junk: str, value: list) -> None:
    """Replace a junk's cargo (keeping each seat's strip total at 20)."""
    from referee.games.dschunke.board import strips_of
    old = state["junks"][junk]["layers"]
    for seat, info in enumerate(state["seats"]):
        info["strips"] += strips_of(old, seat)
        info["strips"] -= sum(layer.count(seat) for layer in value)
    state["junks"][junk]["layers"] = [sorted(layer) for layer in value]


def hidden_card(state: dict, seat: int, kind: str, rnd: int = 0) -> None:
    """Move one `kind` card from its stack into the seat's cards, as if taken in round `rnd`."""
    from referee.games.dschunke.specials import keep_card
    for k, cards in enumerate(state["stacks"]):
        if kind in cards:
            cards.remove(kind)
            saved = state["round"]
            state["round"] = rnd
            keep_card(state, seat, kind, k)
            state["round"] = saved
            return
    raise AssertionError(f"no {kind} left in the stacks")
