"""A heuristic bot for Yunnan: bids for the progress it can use and afford, plans each Build &
Travel turn as a whole (where every trader should end up, with the route check, the Inspector,
presents and displacements scored), builds where structures pay, and converts income into
victory points only beyond the coins it needs next round (all of it in the last round).

    python clients/python/examples/yunnan_bot.py --port 9001 \
        --register http://127.0.0.1:8000 --games yunnan

Game knowledge lives in yunnan_strategy.py and yunnan_planner.py beside this file.
"""

from __future__ import annotations

import pathlib
import random
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # yunnan_strategy & co, when this file is imported from elsewhere
try:
    from referee_client.botkit import run
except ImportError:  # run from a checkout without `pip install -e .`: use the copy beside us
    sys.path.insert(0, str(HERE.parent))
    from referee_client.botkit import run

from yunnan_planner import Planner, TravelModel
from yunnan_strategy import (END_VP, INCOME, MARKET, NPROV, TEAHOUSE_VP, Position, bridge_value,
                             indexed, post_value)
import yunnan_bidding as bidding


def choose(request: dict) -> dict:
    """The heuristic's move for this request: always one of request["legal_moves"]."""
    legal = request["legal_moves"]
    if len(legal) == 1:
        return legal[0]
    pos = Position(indexed(request["view"]), request["seat"])
    kind = request["decision"]["kind"]
    handler = HANDLERS.get(kind)
    move = handler(pos, legal) if handler else None
    # no opinion (or a move the service would refuse): any legal move
    return move if move in legal else random.choice(legal)


# ---- Build & Travel -------------------------------------------------------------------------

def travel(pos: Position, legal: list[dict]) -> dict:
    """Build what pays first, then start the first journey of the best plan, else `done`."""
    builds = [m for m in legal if m["type"] == "build"]
    if builds:
        return choose_build(pos, builds)
    v, me = pos.v, pos.me
    movable = [v["traders"][me][i] - v["arrived"][i] for i in range(NPROV)]
    planner = Planner(pos)
    _, journeys = planner.best(tuple(v["traders"][me]), v["market"][me], movable,
                               pos.passes - v["passes_used"])
    if not journeys:
        return {"type": "done"}
    origin, dest, _ = max(journeys, key=lambda x: (x[1], x[2]))
    first = planner.path(origin, dest)[0]
    frm = "market" if origin == MARKET else pos.provinces[origin]
    return {"type": "step", "from": frm, "to": pos.provinces[first]}


def journey(pos: Position, legal: list[dict]) -> dict:
    """The trader under way: stop here or go on, whichever makes the best whole plan."""
    v, me = pos.v, pos.me
    at, visited = v["journey"]["at"], v["journey"]["visited"]
    left = pos.passes - v["passes_used"]
    dist = pos.distances(at, avoid=[x for x in visited if x != at])
    movable = [v["traders"][me][i] - v["arrived"][i] for i in range(NPROV)]
    dests = [d for d in range(NPROV) if dist[d] is not None and dist[d] <= left]
    # the searches share one move's time budget
    planner = Planner(pos, time_limit=Planner.TIME_LIMIT / len(dests))
    best, target = float("-inf"), at
    for dest in dests:
        cost = dist[dest]
        traders = list(v["traders"][me])
        traders[dest] += 1
        value, _ = planner.best(tuple(traders), v["market"][me], movable, left - cost,
                                fixed=[(at, dest, cost)])
        value -= 1e-6 * cost  # equal plans: the shorter journey keeps passes in hand
        if value > best:
            best, target = value, dest
    if target == at:
        return {"type": "stop"}
    hop = planner.path(at, target, avoid=visited)[0]
    return {"type": "step", "from": pos.provinces[at], "to": pos.provinces[hop]}


def displace(pos: Position, legal: list[dict]) -> dict:
    """Displace whoever it hurts most and us least (the model scores each choice)."""
    v, me = pos.v, pos.me
    at = v["displace_at"]
    mine, market = tuple(v["traders"][me]), v["market"][me]
    best, choice = None, {"type": "no_displace"}
    for move in legal:
        model = TravelModel(pos)
        if move["type"] == "displace":
            o = move["owner"]
            model.others[o][at] -= 1
            if at > 0:
                model.others[o][at - 1] += 1
        gain = model.value(mine, market, (0,) * NPROV)
        if move["type"] == "displace" and o < pos.n:
            gain += model.victim_weight * (INCOME[at] - (INCOME[at - 1] if at else 0))
        if best is None or gain > best:
            best, choice = gain, move
    return choice


def choose_build(pos: Position, builds: list[dict]) -> dict:
    """Trading posts where they earn most, then bridges, then teahouses as far up as can be."""
    by_kind: dict[str, list[dict]] = {}
    for m in builds:
        by_kind.setdefault(m["structure"], []).append(m)
    if "trading_post" in by_kind:
        return max(by_kind["trading_post"], key=lambda m: post_value(pos, m["place"]))
    if "bridge" in by_kind:
        return max(by_kind["bridge"], key=lambda m: bridge_value(pos, m["place"]))
    return max(by_kind["teahouse"], key=lambda m: pos.index[m["place"]])


# ---- Resolution -------------------------------------------------------------------------

RESOLVE_ORDER = ("horse_trader", "customs_office", "trading_school", "traders_guild",
                 "temple", "building_yard")
"""The horse first so a Building Yard structure can be placed in the new province."""


def resolve(pos: Position, legal: list[dict]) -> dict:
    """Resolve the buildings in RESOLVE_ORDER."""
    return min(legal, key=lambda m: RESOLVE_ORDER.index(m["building"]))


def block(pos: Position, legal: list[dict]) -> dict:
    """Block the gorge most opponents' bridges cross, never one of ours."""
    mine = set(pos.v["bridges"][pos.me])

    def harm(move):
        g = pos.gorge_ids.index(move["gorge"])
        theirs = sum(g in pos.v["bridges"][p] for p in pos.seats() if p != pos.me)
        return (g not in mine, theirs)
    return max(legal, key=harm)


def yard(pos: Position, legal: list[dict]) -> dict:
    """The structure worth most: a far teahouse, a trading post that pays, or a bridge."""
    rounds = pos.rounds_left() + 1

    def value(move):
        kind, place = move["structure"], move.get("place")
        if place is None:  # kept for later: only worth it when nothing can be placed now
            return 0.0
        if kind == "teahouse":
            return TEAHOUSE_VP[pos.index[place]] + 2.0
        if kind == "trading_post":
            return post_value(pos, place, rounds)
        if kind == "bridge":
            return bridge_value(pos, place)
        # a guard: where most of our traders stand
        return 1.0 + pos.traders[pos.me][pos.index[place]]
    return max(legal, key=value)


# ---- End of round -----------------------------------------------------------------------

def convert(pos: Position, legal: list[dict]) -> dict:
    """Keep the coins next round's bids need and convert the rest; convert everything when
    the game ends this round (coins then score a third); never end a game we would lose."""
    v, me = pos.v, pos.me
    income = v["income"][me]
    if game_ends_anyway(pos) or pos.rounds_left() == 0 or final_lead(pos, me, income) > 0:
        points = income
    else:
        keep = max(0, bidding.coins_wanted(pos) - pos.coins)
        points = max(0, income - keep)
        if v["vp"][me] + points >= END_VP:
            points = END_VP - 1 - v["vp"][me]  # reaching 80 would end it with us behind
    return {"type": "convert", "points": max(0, min(points, income))}


def final_score(pos: Position, p: int, points: int) -> int:
    """Seat `p`'s final score if the game ended after it converts `points` of its income."""
    v = pos.v
    income = v["income"][p] or 0
    return pos.projected(p, points) - v["coins"][p] // 3 + (v["coins"][p] + income - points) // 3


def final_lead(pos: Position, p: int, points: int) -> int:
    """By how much seat `p` would lead if converting `points` ended the game (<= 0: it would
    not lead, or it would not reach 80 VP)."""
    v = pos.v
    if v["vp"][p] + points < END_VP:
        return 0
    mine = final_score(pos, p, points)
    rivals = [final_score(pos, o, v["income"][o] or 0) for o in pos.seats() if o != p]
    return mine - max(rivals)


def game_ends_anyway(pos: Position) -> bool:
    """True if this round is the last whatever we do: no presents left, a seat already at
    80 VP, or a seat still to convert that can reach 80 and would win by it."""
    v = pos.v
    if not any(v["presents"]):
        return True
    for p in pos.seats():
        if p == pos.me:
            continue
        if v["vp"][p] >= END_VP:
            return True
        if v["income"][p] is not None and final_lead(pos, p, v["income"][p]) > 0:
            return True
    return False


HANDLERS = {
    "bid": bidding.bid, "resolve": resolve, "block": block, "yard": yard,
    "travel": travel, "journey": journey, "displace": displace, "convert": convert,
}


if __name__ == "__main__":
    run(choose, name="yunnan-heuristic", games=["yunnan"])
