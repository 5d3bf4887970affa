"""Phase 1 decisions: the Trade Goods window (swaps with the junks)."""

from __future__ import annotations

from referee.core.kit import rule_error
from referee.games.dschunke import flow
from referee.games.dschunke.common import (describe_source, goods_sources, play_card,
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


def window_candidates(state: dict, seat: int) -> list[dict]:
    """The Trade Goods window: pass, or play the card (its check decides)."""
    return [{"type": "pass"}, {"type": _TRADE}]


def trade_candidates(state: dict, seat: int) -> list[dict]:
    """While trading: every swap, then done (its check needs one swap made)."""
    return swaps(state, seat) + [{"type": "done"}]


def window_pass(state: dict, seat: int, move: dict) -> None:
    """Decline Trade Goods; the window moves on to the next seat."""
    flow.enter_trade_window(state, state["stage"]["i"] + 1)


def check_trade(state: dict, seat: int, move: dict) -> None:
    """A Trade Goods card won before this round, and a swap it can make."""
    if not usable_trade_card(state, seat):
        raise rule_error(_TRADE, f"seat {seat} holds no Trade Goods card won before round "
                         f"{state['round']} (a card won this round waits, FAQ Q1)")
    if not swaps(state, seat):
        raise rule_error(_TRADE, "no swap is possible: you need a goods card and another "
                         "colour on the junks")


def play_trade(state: dict, seat: int, move: dict) -> None:
    """Play a Trade Goods card: 1 or 2 swaps follow."""
    play_card(state, seat, _TRADE)
    state["stage"] = {"kind": "trade", "i": state["stage"]["i"], "swaps": 0}


def check_swap(state: dict, seat: int, move: dict) -> None:
    """Give a held card, take another colour that is available from `junk`."""
    give, take, junk = move["give"], move["take"], move["junk"]
    if state["seats"][seat]["hand"][give] == 0:
        raise rule_error("swap", f"you hold no {give} card to give back")
    if take == give:
        raise rule_error("swap", f"giving and taking {give} is no swap")
    if not source_available(state, take, junk):
        raise rule_error("swap", f"no {describe_source(take, junk)} is left to take")


def swap(state: dict, seat: int, move: dict) -> None:
    """Return one card of `give` to its junk and take one of `take` from `junk`."""
    stage = state["stage"]
    state["seats"][seat]["hand"][move["give"]] -= 1
    return_cards(state, move["give"], 1)
    take_card_from(state, seat, move["take"], move["junk"])
    stage["swaps"] += 1
    if stage["swaps"] >= CARDS[_TRADE]["max_swaps"]:
        flow.enter_trade_window(state, stage["i"])


def check_trade_done(state: dict, seat: int, move: dict) -> None:
    """A played Trade Goods card swaps at least once."""
    if state["stage"]["swaps"] < 1:
        raise rule_error("done", "a played Trade Goods card swaps at least one card")


def trade_done(state: dict, seat: int, move: dict) -> None:
    """End a trade; the seat is asked again (it may hold another)."""
    flow.enter_trade_window(state, state["stage"]["i"])
