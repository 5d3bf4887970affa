"""Resolving the buildings: the Bank payout, then each player's bids in blue-track order.

A player with bids in several buildings chooses which to resolve next (the order matters: a
horse moved first lets a Building Yard structure be placed farther). The Temple's Gorge
Blocker and each Building Yard structure are decisions of their own.
"""

from __future__ import annotations

from referee.core import IllegalMove
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


def legal(s, p: int) -> list[dict]:
    """Moves of seat `p`'s pending resolution decision (resolve, block or yard)."""
    step = s["step"]
    if step == "resolve":
        return [{"type": "resolve", "building": b} for b in buildings_of(s, p)]
    if step == "block":
        return [{"type": "block", "gorge": g} for g in GORGE_IDS]
    return yard_moves(s, p)


def yard_moves(s, p: int) -> list[dict]:
    """Every Building Yard choice: a structure kept, or placed where it may be built now."""
    moves = []
    for kind, count in s["yard"][p].items():
        if count <= 0:
            continue
        if kind == GUARD:
            moves += [{"type": "yard", "structure": GUARD, "place": name} for name in PROVINCES]
            continue
        moves.append({"type": "yard", "structure": kind})
        moves += [{"type": "yard", "structure": kind, "place": place}
                  for place in build.places(s, p, kind)]
    return moves


def apply(s, p: int, move: dict) -> None:
    """Apply a resolution move of seat `p`."""
    kind = move["type"]
    if kind == "resolve":
        if move["building"] not in buildings_of(s, p):
            raise IllegalMove("resolve.no_bid", f"rule 'resolve': you have no bid to resolve in "
                              f"{move['building']}; yours are in {buildings_of(s, p)}")
        resolve_building(s, p, move["building"])
    elif kind == "block":
        s["blocker"] = GORGE_INDEX[move["gorge"]]
        s["step"] = "resolve"
    else:
        _yard(s, p, move)


def _yard(s, p: int, move: dict) -> None:
    kind, place = move["structure"], move.get("place")
    if s["yard"][p].get(kind, 0) <= 0:
        raise IllegalMove("yard.none_left", f"rule 'yard': no {kind} of yours is left in the "
                          f"general supply")
    if kind == GUARD:
        if place not in PROV_INDEX:
            raise IllegalMove("yard.guard_place", "rule 'guards': the Guards marker is placed at "
                              f"once in a province, not {place!r}")
        s["guards"][p] = PROV_INDEX[place]
        s["guard_spent"][p] = True
    elif place is not None:
        build.check(s, p, kind, place, rule="yard")
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
