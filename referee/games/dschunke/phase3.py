"""Phase 3: goods resupply, one card per resupply card, start player first."""

from __future__ import annotations

from referee.core.kit import rule_error
from referee.games.dschunke import flow
from referee.games.dschunke.common import (describe_source, goods_sources, source_available,
                                           take_card_from)


def resupply_candidates(state: dict, seat: int) -> list[dict]:
    """One card from any available pile (the rules say a player *may* take them)."""
    return [{"type": "resupply", "goods": g, "junk": j} for g, j in goods_sources(state)]


def check_resupply(state: dict, seat: int, move: dict) -> None:
    """The pile the card comes from must hold one."""
    if not source_available(state, move["goods"], move["junk"]):
        raise rule_error("resupply", f"no {describe_source(move['goods'], move['junk'])} "
                         "is left")


def resupply(state: dict, seat: int, move: dict) -> None:
    """Take one goods card; the seat's turn ends when its cards are used or nothing is left."""
    take_card_from(state, seat, move["goods"], move["junk"])
    stage = state["stage"]
    stage["left"] -= 1
    if stage["left"] == 0 or not goods_sources(state):
        flow.enter_resupply(state, stage["i"] + 1)


def resupply_done(state: dict, seat: int, move: dict) -> None:
    """Stop taking resupply goods (the rest of the entitlement is forgone)."""
    flow.enter_resupply(state, state["stage"]["i"] + 1)
