"""Phase 3: goods resupply, one card per resupply card, start player first."""

from __future__ import annotations

from referee.games.dschunke import flow
from referee.games.dschunke.common import (describe_source, goods_sources, illegal,
                                           source_available, take_card_from)


def resupply_moves(state: dict) -> list[dict]:
    """One card from any available pile, or stop (the rules say a player *may* take them)."""
    return [{"type": "resupply", "goods": g, "junk": j} for g, j in goods_sources(state)] + \
        [{"type": "done"}]


def resupply(state: dict, seat: int, goods: str, junk: str) -> None:
    """Take one goods card; the seat's turn ends when its cards are used or nothing is left."""
    if not source_available(state, goods, junk):
        illegal("resupply", f"no {describe_source(goods, junk)} is left")
    take_card_from(state, seat, goods, junk)
    stage = state["stage"]
    stage["left"] -= 1
    if stage["left"] == 0 or not goods_sources(state):
        flow.enter_resupply(state, stage["i"] + 1)


def resupply_done(state: dict, seat: int) -> None:
    """Stop taking resupply goods (the rest of the entitlement is forgone)."""
    flow.enter_resupply(state, state["stage"]["i"] + 1)
