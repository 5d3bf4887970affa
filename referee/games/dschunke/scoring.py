"""End of game: cash, special-card bonuses and the ship bonus; ties by goods cards kept."""

from __future__ import annotations

from referee.core import Outcome, ranks_from_keys
from referee.games.dschunke.board import visible_table
from referee.games.dschunke.common import hand_size
from referee.games.dschunke.data import CARDS, JUNKS, SCORING


def ship_bonus(visible: dict, seat: int) -> int:
    """4 yuan per junk showing an own crate, or 25 if all five do."""
    ships = sum(1 for j in JUNKS if visible[j][seat] > 0)
    return SCORING["all_ships_bonus"] if ships == len(JUNKS) else SCORING["ship_bonus"] * ships


def card_bonus(visible: dict, seat: int, kind: str) -> int:
    """An end-game card's yuan: its junk must show strictly more of the seat's crates."""
    card = CARDS[kind]
    if card["effect"] != "majority_bonus":
        return 0
    mine = visible[card["junk"]][seat]
    others = [v for s, v in enumerate(visible[card["junk"]]) if s != seat]
    return card["yuan"] if mine > 0 and all(mine > v for v in others) else 0


def breakdown(state: dict) -> list[dict]:
    """Each seat's final total and its parts."""
    visible = visible_table(state["junks"], state["players"])
    rows = []
    for seat, info in enumerate(state["seats"]):
        cards = sum(card_bonus(visible, seat, r["card"]) for r in info["cards"] + info["open"])
        ships = ship_bonus(visible, seat)
        rows.append({"cash": info["cash"], "card_bonus": cards, "ship_bonus": ships,
                     "total": info["cash"] + cards + ships, "goods_cards": hand_size(info)})
    return rows


def outcome(state: dict) -> Outcome:
    """Scores are totals; equal totals are ranked by goods cards kept, then shared."""
    rows = breakdown(state)
    keys = [(r["total"], r["goods_cards"]) for r in rows]
    return Outcome(tuple(r["total"] for r in rows), ranks_from_keys(keys),  # ints: one type
                   details={"breakdown": rows})
