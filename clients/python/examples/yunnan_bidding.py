"""Bidding & Progress for the Yunnan heuristic bot: what each building's progress is worth to
us (in coins: income converts to victory points 1:1), which bid to place, when the Bank pays
better than any progress, and how many coins to keep for the next round.

A progress is worth its end-game points plus what it adds to a round's income, measured with
the Build & Travel planner on the board as it stands (one more pass, horse step, trader,
influence or trading post), counted for the rounds that remain.
"""

from __future__ import annotations

import json

from yunnan_planner import Planner
from yunnan_strategy import (HORSE_VP, INFLUENCE_MAX, PASSES_MAX, PROGRESS_VP, TEAHOUSE_VP,
                             TOP, Position, bank_payout, bridge_value)

TRADER_COST = 2.0
"""A trader bidding from the supply is one fewer travelling this round."""
OUTLOOK_NODES = 400
OUTLOOK_SECONDS = 0.01
"""Planner positions and time per outlook (a bid decision runs up to ten; cached per round)."""
KEEP = 1.3
"""Weight of a progress's one-round income gain for each round left: above 1, because the
one-round outlook understates what a progress adds as traders pile up over the rounds
(tuned in self-play: 0.45 and 0.7 lost clearly to 1.0 and 1.3; 1.7 was no better)."""

HORIZON = 1
"""Extra passes and traders the outlook assumes: the board a round or two from now."""

_cache: dict = {}
_KEYED = ("round", "traders", "posts", "bridges", "teahouses", "presents", "influence", "horse",
          "passes", "reserve", "yard", "blocker", "report", "previous")


def outlook(pos: Position, passes=0, horse=0, traders=0, influence=0, post=None,
            bridge=None) -> float:
    """Value of our best Build & Travel this round with our traders in hand all travelling,
    after the given progress (as if it were already taken)."""
    v, me = pos.v, pos.me
    view = dict(v)
    view["passes"] = _bump(v["passes"], me, passes)
    view["horse"] = _bump(v["horse"], me, horse)
    view["influence"] = _bump(v["influence"], me, influence)
    if post is not None:
        view["posts"] = [list(row) for row in v["posts"]]
        view["posts"][me][post] = 1
    if bridge is not None:
        view["bridges"] = [list(row) for row in v["bridges"]]
        view["bridges"][me].append(bridge)
    after = Position(view, me)
    # traders in hand: some will bid (and not travel), the rest reach the Market; a progress
    # pays over several rounds, so look a little further: a pass and a trader more
    hand = v["market"][me] + max(0, v["supply"][me] - 1) + traders + HORIZON
    value, _ = Planner(after, node_limit=OUTLOOK_NODES, time_limit=OUTLOOK_SECONDS).best(
        tuple(v["traders"][me]), hand, list(v["traders"][me]), after.passes + HORIZON)
    return value


def _bump(values: list, me: int, by: int) -> list:
    out = list(values)
    out[me] += by
    return out


def progress_values(pos: Position) -> dict[str, float]:
    """Coins-equivalent value of one more step of each progress we can still take."""
    v, me = pos.v, pos.me
    # the same position (a bid changes only bids and supplies) gives the same values: bidding
    # turns of one round share them; the key holds everything they depend on
    key = json.dumps([me, v["market"][me] + v["supply"][me], v["vp"], v["income"]]
                     + [v[k] for k in _KEYED], sort_keys=True)
    if key not in _cache:
        if len(_cache) > 256:
            _cache.clear()
        _cache[key] = _progress_values(pos)
    return _cache[key]


def track_step(table, level: int, top: int, steps: int) -> float:
    """End-game points of one step up a convex track (0/1/4/9/16), averaged over the steps we
    still have rounds to climb: the first steps earn little alone but lead to the big ones."""
    goal = min(top, level + max(1, steps))
    return (table[goal] - table[level]) / (goal - level)


def _progress_values(pos: Position) -> dict[str, float]:
    v, me = pos.v, pos.me
    later = (pos.rounds_left() + 1) * KEEP  # progress won now already pays this round
    h, passes, infl = pos.horse, pos.passes, pos.influence[me]
    base = outlook(pos)
    climbs = pos.rounds_left() + 1  # one step per building and round
    values = {}
    if h < TOP:
        gain = outlook(pos, horse=1) - base
        # a second pass's worth of movement: traders climb over several rounds
        values["horse_trader"] = (track_step(HORSE_VP, h, TOP, climbs)
                                  + max(gain, 1.0) * later)
    if v["reserve"][me] > 0:
        values["trading_school"] = (outlook(pos, traders=1) - base) * later
    if passes < PASSES_MAX:
        values["customs_office"] = (track_step(PROGRESS_VP, passes - 2, 4, climbs)
                                    + (outlook(pos, passes=1) - base) * later)
    if infl < INFLUENCE_MAX:
        above = sum(pos.influence[o] > infl for o in range(pos.total) if o != me)
        # safer from those above us (Dúlì displaces every round), the Inspector spares 4
        safety = 1.0 * above + (1.5 if infl + 1 == INFLUENCE_MAX else 0.0)
        values["traders_guild"] = (track_step(PROGRESS_VP, infl, INFLUENCE_MAX, climbs)
                                   + (outlook(pos, influence=1) - base + safety) * later)
    structures = structure_values(pos, base, later)
    if structures:
        values["building_yard"] = max(structures)
    return values


def structure_values(pos: Position, base: float, later: float) -> list[float]:
    """Values of the structures the Building Yard could still give us."""
    v, me = pos.v, pos.me
    left, reach = v["yard"][me], pos.horse
    out = []
    if left["teahouse"]:
        free = [i for i in range(reach + 1) if v["teahouses"][i] is None]
        if free:
            out.append(TEAHOUSE_VP[max(free)] + 2.0)
    if left["trading_post"]:
        spots = [i for i in range(reach + 1) if not pos.posts[me][i]]
        out += [(outlook(pos, post=i) - base) * later for i in spots[-2:]]
    if left["bridge"]:
        out += [bridge_value(pos, gid) for g, gid in enumerate(pos.gorge_ids)
                if pos.gorges[g][1] <= reach and g not in v["bridges"][me]]
    return out


def coin_worth(pos: Position, coins: int) -> float:
    """What one more coin is worth to us, holding `coins`: a victory point while we can
    spend it on bids (or it frees income for conversion), a third of one beyond that."""
    return 1.0 if coins < coins_wanted(pos) + 10 * pos.rounds_left() else 1 / 3


def source_cost(pos: Position, source: str) -> float:
    """What taking a trader from `source` for a bid costs us this round."""
    if source == "supply":
        return TRADER_COST
    i = pos.index[source]
    mine = list(pos.traders[pos.me])
    before = pos.income(pos.me, mine, 0)
    mine[i] -= 1
    return before - pos.income(pos.me, mine, 0) + TRADER_COST


def bank_estimate(pos: Position) -> int:
    """What a Bank trader would likely be paid: today's bids and a few more to come."""
    v = pos.v
    total = sum(value for row in v["bids"].values() for value in _bid_values(row))
    active = sum(not v["passed"][p] for p in range(pos.total))
    return bank_payout(total + 6 * max(0, active - 1))


def _bid_values(row: list) -> list[int]:
    spaces = (2, 4, 6) if len(row) == 3 else (5, 7, 9, 12, 15)
    return [spaces[i] for i, owner in enumerate(row) if owner is not None]


def my_bids(pos: Position) -> dict[str, int]:
    """Our current bids: building -> space value."""
    out = {}
    for building, row in pos.v["bids"].items():
        for value in _bid_values([o if o == pos.me else None for o in row]):
            out[building] = value
    return out


def bid(pos: Position, legal: list[dict]) -> dict:
    """The bid with the best value for its price, the Bank when it pays better, else pass."""
    values = progress_values(pos)
    worth = coin_worth(pos, pos.coins - sum(my_bids(pos).values()))
    scored = []
    for move in legal:
        if move["type"] != "bid" or move["building"] not in values:
            continue
        net = (values[move["building"]] - worth * move["space"]
               - source_cost(pos, move["from"]))
        scored.append((net, -move["space"], move["from"] == "supply", move))
    scored.sort(key=lambda x: x[:3], reverse=True)
    banks = [m for m in legal if m["type"] == "bank"]
    if banks:
        bank = min(banks, key=lambda m: source_cost(pos, m["from"]))
        held = sum(values.get(b, 0.0) - worth * price for b, price in my_bids(pos).items())
        gain = coin_worth(pos, pos.coins) * bank_estimate(pos) - source_cost(pos, bank["from"])
        if gain > held + _plan_value(pos, scored):
            return bank
    if scored and scored[0][0] > 0:
        return scored[0][3]
    return {"type": "pass"}


def _plan_value(pos: Position, scored: list) -> float:
    """Net value of the bids we would still place this round (one per building, affordable)."""
    coins = pos.coins - sum(my_bids(pos).values())
    traders = pos.v["supply"][pos.me] + sum(pos.traders[pos.me])
    seen, total = set(), 0.0
    for net, _, _, move in scored:
        if net <= 0 or move["building"] in seen:
            continue
        if move["space"] <= coins and traders > 0:
            seen.add(move["building"])
            total += net
            coins -= move["space"]
            traders -= 1
    return total


def coins_wanted(pos: Position) -> int:
    """Coins we want in hand for the next round's bids (fewer as the game nears its end)."""
    rounds = pos.rounds_left()
    if rounds <= 0:
        return 0
    return min(30, 9 * min(3, rounds))
