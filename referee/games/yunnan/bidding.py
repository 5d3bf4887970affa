"""Bidding & Progress, placing traders: bids, the Bank, the Market of Pu'er, passing, outbidding.

Players act in blue-track order, one trader per turn, until everyone has passed; a passed
player whose small-space bid is outbid rejoins at the old place on the blue track.
"""

from __future__ import annotations

from referee.core import IllegalMove
from referee.core.kit import rule_error
from referee.games.yunnan import board, resolution
from referee.games.yunnan.data import (BANK_SPACES, DULI_BANK_COVERED, NPROV, PROGRESS,
                                       PROV_INDEX, PROVINCES, SMALL, SPACES, SUPPLY, TEMPLE)


def sources(s, p: int) -> list[str]:
    """Where `p` may take a trader from: the personal supply or a province (never the Market)."""
    out = [SUPPLY] if s["supply"][p] > 0 else []
    return out + [PROVINCES[i] for i in range(NPROV) if s["traders"][p][i] > 0]


def bank_spaces(s) -> int:
    """Bank spaces open to players (Dúlì's income marker covers one in a 2-player game)."""
    return BANK_SPACES - (DULI_BANK_COVERED if s["duli"] is not None else 0)


def bid_problem(s, p: int, building: str, value: int,
                spent: int | None = None) -> IllegalMove | None:
    """Why seat `p` may not bid `value` in `building` now, or None if it may.

    Codes are `bid.<rule>`, and the message names the rule itself (rule 'space', ...).
    `spent` is `board.own_bid_total(s, p)` when the caller has it already (listing).
    The rules in the order they are told: the space, the building (`_building_problem`),
    then the bid on that space (`_space_problem`).
    """
    values = SPACES[building]
    if value not in values:
        return rule_error("bid.space", f"{building} has no space {value}; its spaces are "
                          f"{list(values)}", rule="space")
    row = s["bids"][building]
    if row[values.index(value)] is not None:
        return rule_error("bid.occupied", f"space {value} of {building} is taken",
                          rule="occupied")
    mine = row.count(p)
    return _building_problem(s, building, mine) or \
        _space_problem(s, p, building, value, spent, _facts(s, p, building, mine))


def _building_problem(s, building: str, mine: int) -> IllegalMove | None:
    """Why a seat with `mine` traders in `building` may bid on none of its free spaces."""
    double = s["options"]["double_bidding"] and building != TEMPLE
    if mine and not double:
        return rule_error("bid.one_per_building", f"you already have a trader in {building}",
                          rule="one_per_building")
    if mine >= 2:
        return rule_error("bid.two_per_building", f"you already have two traders in "
                          f"{building}", rule="two_per_building")
    return None


def _facts(s, p: int, building: str, mine: int) -> tuple[int, int, int]:
    """What `_space_problem` reads of `building` for any of its spaces: `p`'s traders there,
    the highest bid there, and how many more times `p` can take its progress."""
    return mine, board.highest_bid(s, building), board.capacity(s, p, building)


def _space_problem(s, p: int, building: str, value: int, spent: int | None,
                   facts: tuple[int, int, int]) -> IllegalMove | None:
    """Why `p` may not bid on the free space `value` of `building` (`facts`: `_facts`)."""
    values, row = SPACES[building], s["bids"][building]
    mine, top, cap = facts
    if value in SMALL[building] and value <= top:
        return rule_error("bid.small_space", f"the small space {value} of {building} "
                          f"takes only the highest bid there, and {top} is bid",
                          rule="small_space")
    outbid = board.outbid_by(s, building, value)
    own_out = [i for i in outbid if row[i] == p]
    left = mine + 1 - len(own_out)
    if left > cap:
        return rule_error("bid.progress_cap", f"you can take the progress of {building} only "
                          f"{cap} more time(s), and this bid would leave {left} trader(s) of "
                          f"yours there", rule="progress_cap")
    spent = board.own_bid_total(s, p) if spent is None else spent
    cost = spent + value - sum(values[i] for i in own_out)
    if cost > s["coins"][p]:
        return rule_error("bid.payment_cap", f"your bids would total {cost} coins, but you "
                          f"have only {s['coins'][p]}", rule="payment_cap")
    return None


def destinations(s, p: int) -> list[tuple[str, int]]:
    """Every (building, space value) seat `p` may bid on now: `bid_problem`'s own checks,
    the building's once for all its free spaces. Without a trader of `p`'s there, a bid
    outbids none of its own: it leaves one trader (the progress cap needs room for one) and
    costs its value (within what `p` has left after its other bids)."""
    out, spent = [], board.own_bid_total(s, p)
    for building in (*PROGRESS, TEMPLE):
        row = s["bids"][building]
        mine = row.count(p)
        if _building_problem(s, building, mine) is not None:
            continue   # every free space of it is refused so
        facts = _facts(s, p, building, mine)
        if not mine:   # no own trader to outbid: `_space_problem` in short, for every space
            _, top, cap = facts
            if cap >= 1:
                small, most = SMALL[building], s["coins"][p] - spent
                out += [(building, value) for i, value in enumerate(SPACES[building])
                        if row[i] is None and value <= most and
                        (value > top or value not in small)]
            continue
        for i, value in enumerate(SPACES[building]):
            if row[i] is None and _space_problem(s, p, building, value, spent, facts) is None:
                out.append((building, value))
    return out


def bid_candidates(s, p: int) -> list[dict]:
    """Bids on every space `bid_problem` allows, from every source `source_problem` allows.

    Built from the two checks themselves, so trusted as listed (LEGAL; audited in the tests).
    """
    srcs = sources(s, p)
    return [{"type": "bid", "building": building, "space": value, "from": src}
            for building, value in destinations(s, p) for src in srcs]


def from_candidates(move_type: str):
    """Candidates of a move with only a source: one per place holding a trader of `p`."""
    return lambda s, p: [{"type": move_type, "from": src} for src in sources(s, p)]


def source_problem(s, p: int, source: str) -> IllegalMove | None:
    """Why `p` may not take a trader from `source` (supply or a province), or None."""
    if source == SUPPLY:
        if s["supply"][p] <= 0:
            return rule_error("bid.source", "your personal supply has no trader",
                              rule="source")
    elif s["traders"][p][PROV_INDEX[source]] <= 0:
        return rule_error("bid.source", f"you have no trader in {source}", rule="source")
    return None


def check_bid(s, p: int, move: dict) -> IllegalMove | None:
    """The space first, then the source (the order of the refusals players see)."""
    return (bid_problem(s, p, move["building"], move["space"])
            or source_problem(s, p, move["from"]))


def check_bank(s, p: int, move: dict) -> IllegalMove | None:
    """A free Bank space, then the source."""
    if len(s["bank"]) >= bank_spaces(s):
        return rule_error("bid.bank_full", f"all {bank_spaces(s)} Bank space(s) are taken",
                          rule="bank_full")
    return source_problem(s, p, move["from"])


def check_market(s, p: int, move: dict) -> IllegalMove | None:
    """The Market always has room: only the source is checked."""
    return source_problem(s, p, move["from"])


def _take(s, p: int, source: str) -> None:
    """Take one of `p`'s traders from its supply or a province (already checked)."""
    if source == SUPPLY:
        s["supply"][p] -= 1
    else:
        s["traders"][p][PROV_INDEX[source]] -= 1


def play_bid(s, p: int, move: dict) -> None:
    """Place the trader on its space, then pass the turn on."""
    _take(s, p, move["from"])
    place_bid(s, p, move["building"], move["space"])
    next_bidder(s)


def play_bank(s, p: int, move: dict) -> None:
    """Place the trader in the Bank (a pass), then pass the turn on."""
    _take(s, p, move["from"])
    go_to_bank(s, p)
    next_bidder(s)


def play_market(s, p: int, move: dict) -> None:
    """Place the trader in the Market of Pu'er, then pass the turn on."""
    _take(s, p, move["from"])
    s["market"][p] += 1
    next_bidder(s)


def play_pass(s, p: int, move: dict) -> None:
    """Pass, then hand the turn on."""
    do_pass(s, p)
    next_bidder(s)


def place_bid(s, p: int, building: str, value: int) -> None:
    """Put `p`'s trader (already taken) on the space, outbidding small spaces below it."""
    row = s["bids"][building]
    for i in board.outbid_by(s, building, value):
        owner = row[i]
        row[i] = None
        s["supply"][owner] += 1
        s["passed"][owner] = False  # an outbid player who had passed rejoins
    row[SPACES[building].index(value)] = p


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
