"""Phase 1 decisions: the Trade Goods window (swaps with the junks)."""

from __future__ import annotations

from referee.games.dschunke import flow
from referee.games.dschunke.common import (describe_source, goods_sources, illegal, play_card,
                                           return_cards, source_available,
                                           take_card_from)
from referee.games.dschunke.data import CARDS, GOODS

_TRADE = "trade_goods"


def usable_trade_card(state: dict, seat: int) -> bool:
    """True if the seat holds a Trade Goods card won before this round (FAQ Q1)."""
    return any(r["card"] == _TRADE and r["round"] < state["round"]
               for r in state["seats"][seat]["cards"])


def swaps(state: dict, seat: int) -> list[dict]:
    """Every swap the seat could make now: give a held colour, take another available one."""
    hand = state["seats"][seat]["hand"]
    sources = goods_sources(state)
    return [{"type": "swap", "give": give, "take": take, "junk": junk}
            for give in GOODS if hand[give] > 0 for take, junk in sources if take != give]


def window_moves(state: dict, seat: int) -> list[dict]:
    """Legal moves in the Trade Goods window."""
    moves = [{"type": "pass"}]
    if usable_trade_card(state, seat) and swaps(state, seat):
        moves.append({"type": _TRADE})
    return moves


def trade_moves(state: dict, seat: int) -> list[dict]:
    """Legal moves while trading: another swap, or done once one swap is made."""
    moves = swaps(state, seat)
    if state["stage"]["swaps"] >= 1:
        moves.append({"type": "done"})
    return moves


def window_pass(state: dict, seat: int) -> None:
    """Decline Trade Goods; the window moves on to the next seat."""
    if state["stage"]["kind"] != "trade_window":
        illegal("pass", "finish your trade with a swap or done")
    flow.enter_trade_window(state, state["stage"]["i"] + 1)


def play_trade(state: dict, seat: int) -> None:
    """Play a Trade Goods card: 1 or 2 swaps follow."""
    if not usable_trade_card(state, seat):
        illegal(_TRADE, f"seat {seat} holds no Trade Goods card won before round "
                f"{state['round']} (a card won this round waits, FAQ Q1)")
    if not swaps(state, seat):
        illegal(_TRADE, "no swap is possible: you need a goods card and another colour on "
                "the junks")
    play_card(state, seat, _TRADE)
    state["stage"] = {"kind": "trade", "i": state["stage"]["i"], "swaps": 0}


def swap(state: dict, seat: int, give: str, take: str, junk: str) -> None:
    """Return one card of `give` to its junk and take one of `take` from `junk`."""
    stage = state["stage"]
    if state["seats"][seat]["hand"][give] == 0:
        illegal("swap", f"you hold no {give} card to give back")
    if take == give:
        illegal("swap", f"giving and taking {give} is no swap")
    if not source_available(state, take, junk):
        illegal("swap", f"no {describe_source(take, junk)} is left to take")
    state["seats"][seat]["hand"][give] -= 1
    return_cards(state, give, 1)
    take_card_from(state, seat, take, junk)
    stage["swaps"] += 1
    if stage["swaps"] >= CARDS[_TRADE]["max_swaps"]:
        flow.enter_trade_window(state, stage["i"])


def trade_done(state: dict, seat: int) -> None:
    """End a trade after at least one swap; the seat is asked again (it may hold another)."""
    if state["stage"]["swaps"] < 1:
        illegal("done", "a played Trade Goods card swaps at least one card")
    flow.enter_trade_window(state, state["stage"]["i"])
