"""Resolving the buildings: the Bank payout, then each player's bids in blue-track order.

A player with bids in several buildings chooses which to resolve next (the order matters: a
horse moved first lets a Building Yard structure be placed farther). The Temple's Gorge
Blocker and each Building Yard structure are decisions of their own.
"""

from __future__ import annotations

from referee.core import IllegalMove
from referee.core.kit import rule_error
from referee.games.yunnan import build
from referee.games.yunnan.data import (BIDDABLE, BUILDING_YARD, CUSTOMS_OFFICE, GORGE_IDS,
                                       GORGE_INDEX, GUARD, HORSE_TRADER, INFLUENCE_MAX,
                                       PROV_INDEX, PROVINCES, SPACES, TEMPLE, TRADERS_GUILD,
                                       TRADING_SCHOOL, bank_payout)


def bank(s) -> None:
    """Pay each Bank trader by the total of all bids, then return the Bank traders to supply."""
    if not s["bank"]:
        return
    total = sum(SPACES[b][i] for b in BIDDABLE for i, owner in enumerate(s["bids"][b])
                if owner is not None)
    pay = bank_payout(total)
    for p in s["bank"]:
        s["coins"][p] += pay
        s["supply"][p] += 1
    s["report"]["bank"] = {"total_bid": total, "payout": pay, "bankers": list(s["bank"])}
    s["bank"] = []


def buildings_of(s, p: int) -> list[str]:
    """The buildings where participant `p` has bids to resolve."""
    return [b for b in BIDDABLE if p in s["bids"][b]]


def order_matters(todo: list[str]) -> bool:
    """Whether resolving the buildings of `todo` in different orders can end differently.

    Only the Building Yard's choices read what another resolution changes: where a structure
    may go depends on the horse (Horse Trader) and the Gorge Blocker (Temple). Every other
    pair commutes: their effects touch disjoint fields (reserve and Market, passes, horse,
    influence; coins and supply only add up), and the Temple's and the Yard's choices read
    none of those fields. So without the Yard beside the Horse Trader or the Temple every
    order gives the same states, and the building order is not asked.
    """
    return BUILDING_YARD in todo and (HORSE_TRADER in todo or TEMPLE in todo)


def resolve_candidates(s, p: int) -> list[dict]:
    """A resolve move per building holding `p`'s bids."""
    return [{"type": "resolve", "building": b} for b in buildings_of(s, p)]


def check_resolve(s, p: int, move: dict) -> IllegalMove | None:
    """Only a building where `p` has bids left to resolve."""
    if move["building"] not in buildings_of(s, p):
        return rule_error("resolve.no_bid", f"you have no bid to resolve in "
                          f"{move['building']}; yours are in {buildings_of(s, p)}")
    return None


def play_resolve(s, p: int, move: dict) -> None:
    """Resolve `p`'s bids in the building chosen."""
    resolve_building(s, p, move["building"])


def block_candidates(s, p: int) -> list[dict]:
    """The Gorge Blocker may go across any gorge."""
    return [{"type": "block", "gorge": g} for g in GORGE_IDS]


def play_block(s, p: int, move: dict) -> None:
    """Block the gorge for this round; the resolution goes on."""
    s["blocker"] = GORGE_INDEX[move["gorge"]]
    s["step"] = "resolve"


def yard_candidates(s, p: int) -> list[dict]:
    """Every Building Yard choice of a structure `p` has there: kept, or placed anywhere."""
    moves = []
    for kind, count in s["yard"][p].items():
        if count <= 0:
            continue
        if kind == GUARD:
            moves += [{"type": "yard", "structure": GUARD, "place": name} for name in PROVINCES]
            continue
        moves.append({"type": "yard", "structure": kind})
        moves += [{"type": "yard", "structure": kind, "place": place}
                  for place in build.anywhere(kind)]
    return moves


def check_yard(s, p: int, move: dict) -> IllegalMove | None:
    """A structure left for `p` in the Yard; a guard placed in a province; a build allowed."""
    kind, place = move["structure"], move.get("place")
    if s["yard"][p].get(kind, 0) <= 0:
        return rule_error("yard.none_left", f"no {kind} of yours is left in the general supply")
    if kind == GUARD:
        if place not in PROV_INDEX:
            return rule_error("yard.guard_place", f"the Guards marker is placed at once in a "
                              f"province, not {place!r}", rule="guards")
    elif place is not None:
        return build.problem(s, p, kind, place, rule="yard")
    return None


def play_yard(s, p: int, move: dict) -> None:
    """Take the structure: a guard placed, a structure built or kept in the personal supply."""
    kind, place = move["structure"], move.get("place")
    if kind == GUARD:
        s["guards"][p] = PROV_INDEX[place]
        s["guard_spent"][p] = True
    elif place is not None:
        build.place(s, p, kind, place)
    else:
        s["stock"][p][kind] += 1
    s["yard"][p][kind] -= 1
    s["yard_left"] -= 1
    if s["yard_left"] == 0:
        s["step"] = "resolve"


def resolve_building(s, p: int, building: str) -> None:
    """Pay for `p`'s bids in `building`, return the traders to supply and take the progress."""
    row, values = s["bids"][building], SPACES[building]
    won = [i for i, owner in enumerate(row) if owner == p]
    for i in won:
        row[i] = None
    s["coins"][p] -= sum(values[i] for i in won)
    s["supply"][p] += len(won)
    times = len(won)
    s["step"] = "resolve"
    if building == TEMPLE:
        s["step"] = "block"
    elif building == TRADING_SCHOOL:
        s["reserve"][p] -= times
        s["market"][p] += times
    elif building == CUSTOMS_OFFICE:
        s["passes"][p] += times
    elif building == HORSE_TRADER:
        s["horse"][p] += times
    elif building == TRADERS_GUILD:
        s["influence"][p] += times
    elif building == BUILDING_YARD:
        s["step"], s["yard_left"] = "yard", times


def resolve_duli(s, p: int) -> None:
    """Dúlì pays nothing and gains only the Traders Guild's influence; her traders stay put."""
    if p in s["bids"][TRADERS_GUILD]:
        s["influence"][p] = min(INFLUENCE_MAX, s["influence"][p] + 1)


def clear_duli(s) -> None:
    """After all buildings are resolved, Dúlì's bidding traders return to her supply."""
    d = s["duli"]
    for row in s["bids"].values():
        for i, owner in enumerate(row):
            if owner == d:
                row[i] = None
                s["supply"][d] += 1
