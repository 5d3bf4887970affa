"""Shared rules helpers over the state dict: participants, progress capacity, routes, gaps.

A participant is a seat (0..n-1) or, in a 2-player game, Dúlì (index n), who is no seat.
"""

from __future__ import annotations

from referee.games.yunnan.data import (BUILDING_YARD, CUSTOMS_OFFICE, GAP_COST, GORGES_AT,
                                       HORSE_TRADER, INCOME, INFLUENCE_MAX, MARKET_INCOME,
                                       NPROV, PASSES_MAX, ROAD, SMALL, SPACES, TEMPLE, TOP,
                                       TRADERS_GUILD, TRADING_SCHOOL)

UNREACHABLE = 99


def participants(s) -> int:
    """How many participants take turns: the seats, plus Dúlì in a 2-player game."""
    return s["n"] + (1 if s["duli"] is not None else 0)


def is_duli(s, p: int) -> bool:
    """True if participant `p` is the Dúlì automaton."""
    return p == s["duli"]


def presents_only_end(s) -> bool:
    """Expert rules (either option): only an empty present supply ends the game."""
    return s["options"]["double_bidding"] or s["options"]["guards"]


def capacity(s, p: int, building: str) -> int:
    """How many more times seat `p` can take `building`'s progress (the Temple: always once)."""
    if building == TRADING_SCHOOL:
        return s["reserve"][p]
    if building == CUSTOMS_OFFICE:
        return PASSES_MAX - s["passes"][p]
    if building == HORSE_TRADER:
        return TOP - s["horse"][p]
    if building == TRADERS_GUILD:
        return INFLUENCE_MAX - s["influence"][p]
    if building == BUILDING_YARD:
        return sum(s["yard"][p].values())
    return 1 if building == TEMPLE else 0


def own_bid_total(s, p: int) -> int:
    """The coins participant `p` would pay for all its current bids."""
    total = 0
    for building, row in s["bids"].items():
        values = SPACES[building]
        total += sum(values[i] for i, owner in enumerate(row) if owner == p)
    return total


def highest_bid(s, building: str) -> int:
    """The highest occupied space value in `building` (0 if empty)."""
    values = SPACES[building]
    return max((values[i] for i, owner in enumerate(s["bids"][building]) if owner is not None),
               default=0)


def outbid_by(s, building: str, value: int) -> list[int]:
    """Space indices of the small-space traders a bid of `value` in `building` would outbid."""
    values, small = SPACES[building], SMALL[building]
    return [i for i, owner in enumerate(s["bids"][building])
            if owner is not None and values[i] in small and values[i] < value]


def neighbours(s, p: int, i: int, reach: int | None = None):
    """Provinces next to `i` for `p`: by road, or over `p`'s own bridges across unblocked gorges.

    With `reach`, only provinces up to that index (the horse's) are listed.
    """
    out = [j for j in ROAD[i] if reach is None or j <= reach]
    bridges, blocked = s["bridges"][p], s["blocker"]
    for gorge, j in GORGES_AT[i]:
        if gorge in bridges and gorge != blocked and (reach is None or j <= reach):
            out.append(j)
    return out


def presence(s, p: int) -> list[bool]:
    """Per province: does `p` have a trader or a trading post there."""
    traders, posts = s["traders"][p], s["posts"][p]
    return [traders[i] > 0 or posts[i] > 0 for i in range(NPROV)]


def gaps(s, p: int) -> list[int]:
    """Per province: the fewest provinces without `p`'s presence on a route from it to Pu'er.

    A route runs over the road and `p`'s unblocked bridges down to Yunnan (Pu'er is a city in
    Yunnan); the province itself is not counted, every other province on the route is.
    """
    here = presence(s, p)
    cost = [0 if here[i] else 1 for i in range(NPROV)]
    # best[i]: fewest gaps from i to Pu'er counting i itself (Bellman-Ford over 5 nodes)
    best = [UNREACHABLE] * NPROV
    best[0] = cost[0]
    for _ in range(NPROV):
        changed = False
        for i in range(1, NPROV):
            via = min(best[j] for j in neighbours(s, p, i)) + cost[i]
            if via < best[i]:
                best[i], changed = via, True
        if not changed:
            break
    return [0] + [min(best[j] for j in neighbours(s, p, i)) for i in range(1, NPROV)]


def income(s, p: int) -> int:
    """Seat `p`'s round income: traders and posts by province less gap costs, plus the Market."""
    gap = gaps(s, p)
    total = MARKET_INCOME if s["market"][p] > 0 else 0
    for i in range(NPROV):
        count = s["traders"][p][i]
        if count:
            total += count * max(0, INCOME[i] - GAP_COST * gap[i])
        if s["posts"][p][i] and gap[i] == 0:
            total += INCOME[i]
    return total


def province_revenue(s, i: int) -> int:
    """Revenue of province `i` for the Inspector: every trader and post there, gaps ignored."""
    count = sum(t[i] for t in s["traders"]) + sum(posts[i] for posts in s["posts"])
    return count * INCOME[i]


def guarded(s, p: int, i: int) -> bool:
    """True if `p`'s Guards marker protects its traders in province `i` this round."""
    return p < s["n"] and s["guards"][p] == i


def displace_one(s, owner: int, i: int) -> None:
    """Move one of `owner`'s traders from province `i` down the road (from Yunnan: the Market)."""
    s["traders"][owner][i] -= 1
    if i == 0:
        s["market"][owner] += 1
    else:
        s["traders"][owner][i - 1] += 1


def order_index(order: list[int], p: int) -> int:
    """Position of participant `p` on a turn-order track."""
    return order.index(p)
