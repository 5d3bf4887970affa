"""Yunnan game knowledge for the heuristic bot: the board's numbers, a model of one seat's
position read from its view, and what a structure is worth (the Build & Travel planner is
yunnan_planner.py, the bidding yunnan_bidding.py).

Everything here works on the view the service sends (no engine import): the board numbers
are those of seeds/yunnan/rules.md, and the gorges come from the view itself.
"""

from __future__ import annotations

from collections import deque

INCOME = (4, 6, 8, 10, 12)
"""Income of one trader or trading post per province, Yunnan (nearest Pu'er) first."""
MARKET_INCOME = 3
GAP_COST = 3
PRESENT_VP = 3
EXPOSURE = 0.5
"""Share of a displacement's cost counted where a stronger seat still to travel can reach."""
TEAHOUSE_VP = (1, 3, 6, 10, 15)
HORSE_VP = (0, 1, 4, 9, 16)
PROGRESS_VP = (0, 1, 4, 9, 16)
PASSES_MIN, PASSES_MAX = 2, 6
INFLUENCE_MAX = 4
END_VP = 80
NPROV = 5
TOP = NPROV - 1
MARKET = -1
SPACES = (5, 7, 9, 12, 15)
BANK_BANDS = tuple((10 * k, 9 + 2 * k) for k in range(10))
"""(lowest total bid, coins per Bank trader): 9 + 2 per band of 10, 27 from 90 up."""


def bank_payout(total: int) -> int:
    """Coins a Bank trader gets when the round's bids add up to `total`."""
    return max(coins for low, coins in BANK_BANDS if total >= low)


def indexed(view: dict) -> dict:
    """The view with its named places as indices (the planner counts along the road).

    The service names a single province or gorge (horse, guards, Gorge Blocker, bridges,
    the journey, where to displace) as moves do; this model works with their positions in
    `provinces` and `gorges`.
    """
    prov = {name: i for i, name in enumerate(view["provinces"])}
    gorge = {gid: g for g, gid in enumerate(view["gorges"])}
    out = dict(view)
    out["horse"] = [prov[h] for h in view["horse"]]
    out["guards"] = [None if g is None else prov[g] for g in view["guards"]]
    out["blocker"] = None if view["blocker"] is None else gorge[view["blocker"]]
    out["bridges"] = [[gorge[g] for g in row] for row in view["bridges"]]
    out["displace_at"] = None if view["displace_at"] is None else prov[view["displace_at"]]
    if view["journey"] is not None:
        out["journey"] = {"at": prov[view["journey"]["at"]],
                          "visited": [prov[i] for i in view["journey"]["visited"]]}
    return out


class Position:
    """One seat's view, with the facts the heuristics need precomputed."""

    def __init__(self, view: dict, me: int):
        self.v = view
        self.me = me
        self.n = view["n"]
        self.duli = view["duli"]
        self.total = self.n + (1 if self.duli is not None else 0)
        self.provinces = view["provinces"]
        self.index = {name: i for i, name in enumerate(self.provinces)}
        self.gorges = [tuple(sorted(self.index[x] for x in gid.split("-")))
                       for gid in view["gorges"]]
        self.gorge_ids = list(view["gorges"])
        self.influence = view["influence"]
        self.horse = view["horse"][me]
        self.passes = view["passes"][me]
        self.coins = view["coins"][me]
        self.traders = view["traders"]
        self.posts = view["posts"]
        self.grey = view["grey"] or list(reversed(view["blue"]))
        self.exit_cost = 1 if view["options"].get("market_exit_costs_pass") else 0
        self._adjacency: dict[int, tuple] = {}
        self._gaps: dict[tuple, list[int]] = {}

    # ---- the road and my bridges ------------------------------------------------------
    def neighbours(self, p: int, i: int, reach: int = TOP) -> list[int]:
        """Provinces next to `i` for `p` (road, own unblocked bridges), up to `reach`."""
        return [j for j in self.adjacency(p)[i] if j <= reach]

    def adjacency(self, p: int) -> tuple:
        """Per province, its neighbours for `p`: the road and `p`'s unblocked bridges."""
        if p not in self._adjacency:
            out = [[j for j in (i - 1, i + 1) if 0 <= j < NPROV] for i in range(NPROV)]
            for g in self.v["bridges"][p]:
                if g != self.v["blocker"]:
                    a, b = self.gorges[g]
                    out[a].append(b)
                    out[b].append(a)
            self._adjacency[p] = tuple(tuple(row) for row in out)
        return self._adjacency[p]

    def distances(self, start: int, avoid=()) -> list[int | None]:
        """Border crossings from `start` to each province my traders may enter this turn."""
        dist: list[int | None] = [None] * NPROV
        dist[start] = 0
        todo = deque([start])
        while todo:
            i = todo.popleft()
            for j in self.neighbours(self.me, i, self.horse):
                if dist[j] is None and j not in avoid:
                    dist[j] = dist[i] + 1
                    todo.append(j)
        return dist

    def gaps(self, p: int, traders) -> list[int]:
        """Per province: fewest provinces without `p`'s presence on a route to Pu'er."""
        posts = self.posts[p]
        mask = sum(1 << i for i in range(NPROV) if traders[i] or posts[i])
        key = (p, mask)
        if key not in self._gaps:  # only 32 presence patterns: remember each
            self._gaps[key] = self._route_gaps(p, mask)
        return self._gaps[key]

    def _route_gaps(self, p: int, mask: int) -> list[int]:
        adj = self.adjacency(p)
        cost = [0 if mask >> i & 1 else 1 for i in range(NPROV)]
        # best[i]: fewest gaps from i to Pu'er counting i itself (5 nodes: relax until stable)
        best = [99] * NPROV
        best[0] = cost[0]
        changed = True
        while changed:
            changed = False
            for i in range(1, NPROV):
                via = min(best[j] for j in adj[i]) + cost[i]
                if via < best[i]:
                    best[i], changed = via, True
        return [0] + [min(best[j] for j in adj[i]) for i in range(1, NPROV)]

    def income(self, p: int, traders: list[int], market: int) -> int:
        """Round income of seat `p` with these traders (the engine's formula)."""
        gap = self.gaps(p, traders)
        total = MARKET_INCOME if market > 0 else 0
        for i in range(NPROV):
            if traders[i]:
                total += traders[i] * max(0, INCOME[i] - GAP_COST * gap[i])
            if self.posts[p][i] and gap[i] == 0:
                total += INCOME[i]
        return total

    # ---- the game as a whole ----------------------------------------------------------
    def seats(self) -> range:
        """The seats (players), without Dúlì."""
        return range(self.n)

    def projected(self, p: int, extra_vp: int = 0) -> int:
        """Seat `p`'s final score if the game ended now (plus `extra_vp` on its track)."""
        v = self.v
        teahouses = sum(TEAHOUSE_VP[i] for i in range(NPROV) if v["teahouses"][i] == p)
        return (v["vp"][p] + extra_vp + v["coins"][p] // 3 + PRESENT_VP * v["gifts"][p]
                + PROGRESS_VP[v["passes"][p] - PASSES_MIN] + PROGRESS_VP[v["influence"][p]]
                + teahouses + HORSE_VP[v["horse"][p]])

    def round_rate(self) -> int:
        """A guess at the leading seat's income per round (the pace toward 80 VP)."""
        seen = [x for rep in (self.v["report"], self.v.get("previous") or {})
                for x in (rep.get("income") or []) if x is not None]
        seen += [x for x in self.v["income"] if x is not None]
        return max([12] + seen)

    def rounds_left(self) -> int:
        """Rounds still to play after this one ends, roughly (0: this is surely the last)."""
        if not any(self.v["presents"]):
            return 0
        lead = max(self.v["vp"][p] for p in self.seats())
        by_vp = max(0, (END_VP - lead + self.round_rate() - 1) // self.round_rate() - 1)
        return min(by_vp, 8)

    def my_board_traders(self) -> int:
        """My traders that can earn income this round or later (board, Market, supply)."""
        v, me = self.v, self.me
        return sum(self.traders[me]) + v["market"][me] + v["supply"][me]


# ---- structures ------------------------------------------------------------------------

def post_value(pos: Position, place: str, rounds: int | None = None) -> float:
    """What a trading post in `place` is worth: its income while its route stays gap-free."""
    i = pos.index[place]
    posts = [list(row) for row in pos.posts]
    posts[pos.me][i] = 1
    after = Position({**pos.v, "posts": posts}, pos.me)
    connected = after.gaps(pos.me, pos.traders[pos.me])[i] == 0
    rounds = pos.rounds_left() + 1 if rounds is None else rounds
    # an unconnected post still fills a gap for traders above it later on
    return INCOME[i] * rounds * (1.0 if connected else 0.4) + 0.1 * i


def bridge_value(pos: Position, gorge: str) -> float:
    """A bridge is a shortcut: worth more the farther the province it opens from below."""
    a, b = sorted(pos.index[x] for x in gorge.split("-"))
    return 2.0 + (b - a) + (2.0 if a == 0 else 0.0)
