"""Bidding & Progress, placing traders: bids, the Bank, the Market of Pu'er, passing, outbidding.

Players act in blue-track order, one trader per turn, until everyone has passed; a passed
player whose small-space bid is outbid rejoins at the old place on the blue track.
"""

from __future__ import annotations

from referee.core import IllegalMove
from referee.games.yunnan import board, resolution
from referee.games.yunnan.data import (BANK_SPACES, DULI_BANK_COVERED, NPROV, PROGRESS,
                                       PROV_INDEX, PROVINCES, SMALL, SPACES, SUPPLY, TEMPLE)


def _error(rule: str, message: str) -> IllegalMove:
    return IllegalMove(f"bid.{rule}", f"rule '{rule}': {message}")


def sources(s, p: int) -> list[str]:
    """Where `p` may take a trader from: the personal supply or a province (never the Market)."""
    out = [SUPPLY] if s["supply"][p] > 0 else []
    return out + [PROVINCES[i] for i in range(NPROV) if s["traders"][p][i] > 0]


def bank_spaces(s) -> int:
    """Bank spaces open to players (Dúlì's income marker covers one in a 2-player game)."""
    return BANK_SPACES - (DULI_BANK_COVERED if s["duli"] is not None else 0)


def bid_problem(s, p: int, building: str, value: int) -> IllegalMove | None:
    """Why seat `p` may not bid `value` in `building` now, or None if it may."""
    values = SPACES[building]
    if value not in values:
        return _error("space", f"{building} has no space {value}; its spaces are {list(values)}")
    row = s["bids"][building]
    if row[values.index(value)] is not None:
        return _error("occupied", f"space {value} of {building} is taken")
    mine = sum(1 for owner in row if owner == p)
    double = s["options"]["double_bidding"] and building != TEMPLE
    if mine and not double:
        return _error("one_per_building", f"you already have a trader in {building}")
    if mine >= 2:
        return _error("two_per_building", f"you already have two traders in {building}")
    if value in SMALL[building] and value <= board.highest_bid(s, building):
        return _error("small_space", f"the small space {value} of {building} takes only the "
                      f"highest bid there, and {board.highest_bid(s, building)} is bid")
    outbid = board.outbid_by(s, building, value)
    own_out = [i for i in outbid if row[i] == p]
    left = mine + 1 - len(own_out)
    cap = board.capacity(s, p, building)
    if left > cap:
        return _error("progress_cap", f"you can take the progress of {building} only {cap} "
                      f"more time(s), and this bid would leave {left} trader(s) of yours there")
    cost = board.own_bid_total(s, p) + value - sum(values[i] for i in own_out)
    if cost > s["coins"][p]:
        return _error("payment_cap", f"your bids would total {cost} coins, but you have only "
                      f"{s['coins'][p]}")
    return None


def destinations(s, p: int) -> list[tuple[str, int]]:
    """Every (building, space value) seat `p` may bid on now."""
    out = []
    for building in (*PROGRESS, TEMPLE):
        row = s["bids"][building]
        for i, value in enumerate(SPACES[building]):
            if row[i] is None and bid_problem(s, p, building, value) is None:
                out.append((building, value))
    return out


def legal(s, p: int) -> list[dict]:
    """Every legal move of seat `p` on its bidding turn."""
    moves = []
    srcs = sources(s, p)
    for building, value in destinations(s, p):
        moves += [{"type": "bid", "building": building, "space": value, "from": src}
                  for src in srcs]
    if len(s["bank"]) < bank_spaces(s):
        moves += [{"type": "bank", "from": src} for src in srcs]
    moves += [{"type": "market", "from": src} for src in srcs]
    moves.append({"type": "pass"})
    return moves


def _take(s, p: int, source: str) -> None:
    """Take one of `p`'s traders from its supply or a province, or raise."""
    if source == SUPPLY:
        if s["supply"][p] <= 0:
            raise _error("source", "your personal supply has no trader")
        s["supply"][p] -= 1
        return
    i = PROV_INDEX[source]
    if s["traders"][p][i] <= 0:
        raise _error("source", f"you have no trader in {source}")
    s["traders"][p][i] -= 1


def place_bid(s, p: int, building: str, value: int) -> None:
    """Put `p`'s trader (already taken) on the space, outbidding small spaces below it."""
    row = s["bids"][building]
    for i in board.outbid_by(s, building, value):
        owner = row[i]
        row[i] = None
        s["supply"][owner] += 1
        s["passed"][owner] = False  # an outbid player who had passed rejoins
    row[SPACES[building].index(value)] = p


def apply(s, p: int, move: dict) -> None:
    """Apply a bidding-turn move of seat `p` to `s` (a copy), then pass the turn on."""
    kind = move["type"]
    if kind == "pass":
        do_pass(s, p)
    elif kind == "bid":
        problem = bid_problem(s, p, move["building"], move["space"])
        if problem is not None:
            raise problem
        _take(s, p, move["from"])
        place_bid(s, p, move["building"], move["space"])
    elif kind == "bank":
        if len(s["bank"]) >= bank_spaces(s):
            raise _error("bank_full", f"all {bank_spaces(s)} Bank space(s) are taken")
        _take(s, p, move["from"])
        go_to_bank(s, p)
    else:
        _take(s, p, move["from"])
        s["market"][p] += 1
    next_bidder(s)


def go_to_bank(s, p: int) -> None:
    """Bank: `p`'s bidding traders and supply go to the Market, and `p` passes."""
    s["bank"].append(p)
    for row in s["bids"].values():
        for i, owner in enumerate(row):
            if owner == p:
                row[i] = None
                s["market"][p] += 1
    do_pass(s, p)


def do_pass(s, p: int) -> None:
    """Pass: a player's remaining supply goes to the Market (Dúlì keeps hers)."""
    s["passed"][p] = True
    if not board.is_duli(s, p):
        s["market"][p] += s["supply"][p]
        s["supply"][p] = 0


def next_bidder(s) -> None:
    """Hand the turn to the next participant on the blue track who has not passed, if any."""
    order = s["blue"]
    start = order.index(s["actor"])
    for k in range(1, len(order) + 1):
        p = order[(start + k) % len(order)]
        if not s["passed"][p]:
            s["actor"] = p
            return
    # everyone has passed: the buildings are resolved, the Bank first
    s["phase"], s["cursor"], s["step"] = "resolution", 0, "resolve"
    resolution.bank(s)


def forced_pass(s, p: int) -> bool:
    """True when seat `p` has no trader to place, so passing is its only move."""
    return s["supply"][p] == 0 and not any(s["traders"][p])
