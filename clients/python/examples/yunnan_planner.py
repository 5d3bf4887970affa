"""Yunnan's Build & Travel planner for the heuristic bot: a model of where travelling traders
end up (`TravelModel`) and the search over one turn's journeys for the best end position
(`Planner`), on the seat model of yunnan_strategy.py beside this file."""

from __future__ import annotations

import time

from yunnan_strategy import EXPOSURE, INCOME, INFLUENCE_MAX, MARKET, NPROV, PRESENT_VP, Position

# ---- Build & Travel: evaluating an end-of-turn position ---------------------------------

class TravelModel:
    """Scores a position of my traders at the end of my Build & Travel turn.

    It replays what happens before income with everyone else's pieces as they stand: my
    displacements, the route check, the Inspector, presents, then income. Value is in coins:
    income, 3 per present, and what my displacements cost the other seats.
    """

    def __init__(self, pos: Position):
        self.pos = pos
        v, me = pos.v, pos.me
        self.others = [list(row) for row in pos.traders]
        self.others[me] = [0] * NPROV
        self.guards = v["guards"] + [None] * (pos.total - pos.n)
        # what a seat's lost income is worth to us; tuned in self-play (2 players: 1.0 lost to
        # 0.6; 3-5 players: 0.3 lost clearly to 0.5, 0.8 was no better)
        self.victim_weight = 0.6 if pos.n == 2 else 0.5
        score = [pos.projected(p) for p in pos.seats()]
        # when displacing, hurt the strongest seat first; Dúlì scores nothing, so last
        self.victim_rank = {p: (0 if p == pos.duli else 1, score[p] if p < pos.n else 0)
                            for p in range(pos.total)}
        self.cache: dict = {}
        # pieces on the board besides my traders, per province, for the Inspector
        self.fixed = [sum(row[i] for row in self.others) + sum(p[i] for p in pos.posts)
                      for i in range(NPROV)]
        # seats still to travel this round with more influence than us may displace our
        # traders anywhere their horse has reached: one each per province, down the road
        self.threat = [0] * NPROV
        if v["phase"] == "travel" and me in pos.grey:
            for o in pos.grey[pos.grey.index(me) + 1:]:
                if o < pos.n and pos.influence[o] > pos.influence[me]:
                    for i in range(v["horse"][o] + 1):
                        self.threat[i] += 1

    def victims(self, others, j: int) -> list[int]:
        """Participants whose traders in `j` my arriving trader may displace."""
        pos = self.pos
        mine = pos.influence[pos.me]
        return [o for o in range(pos.total) if o != pos.me and others[o][j] > 0
                and pos.influence[o] < mine and self.guards[o] != j]

    def best_victim(self, others, j: int) -> int | None:
        """The participant I would displace in `j`, if any."""
        cands = self.victims(others, j)
        return max(cands, key=lambda o: self.victim_rank[o]) if cands else None

    def value(self, traders: tuple, market: int, arrivals: tuple) -> float:
        """Coins-equivalent value of ending my turn with these traders; `arrivals` counts
        the journeys ending in each province (each may displace one trader)."""
        key = (traders, market, arrivals)
        if key not in self.cache:
            self.cache[key] = self._value(list(traders), market, arrivals)
        return self.cache[key]

    def _value(self, mine: list[int], market: int, arrivals) -> float:
        pos = self.pos
        me, v = pos.me, pos.v
        others = self.others
        bonus = 0.0
        if any(arrivals):
            others = [list(row) for row in others]
            for j in range(NPROV):
                for _ in range(arrivals[j]):
                    o = self.best_victim(others, j)
                    if o is None:
                        break
                    others[o][j] -= 1
                    if j > 0:
                        others[o][j - 1] += 1
                    if o < pos.n:
                        bonus += self.victim_weight * (INCOME[j] - (INCOME[j - 1] if j else 0))
        # route check at the end of my turn: isolated traders go to the Market
        gap = pos.gaps(me, mine)
        for i in range(NPROV):
            if mine[i] and gap[i]:
                market += mine[i]
                mine[i] = 0
        banished = self._inspector(mine, others)
        if banished is not None:
            o, i = banished
            if o == me:
                mine[i] -= 1
                market += 1
            else:
                others = [list(row) for row in others] if others is self.others else others
                others[o][i] -= 1
        gifts = self._presents(mine, others)
        # traders left far up stay there next round: a small premium for reach
        reach = 0.3 * sum(mine[i] * i for i in range(NPROV))
        exposed = sum(EXPOSURE * (INCOME[i] - (INCOME[i - 1] if i else 0))
                      for i in range(NPROV) if mine[i] and self.threat[i])
        return pos.income(me, mine, market) + PRESENT_VP * gifts + bonus + reach - exposed

    def _inspector(self, mine, others):
        """(owner, province) of the trader the Inspector would banish, or None."""
        pos, v = self.pos, self.pos.v
        best, target = -1, 0
        for i in range(NPROV):
            if others is self.others:
                count = mine[i] + self.fixed[i]
            else:
                count = mine[i] + sum(row[i] for row in others) + sum(p[i] for p in pos.posts)
            revenue = count * INCOME[i]
            if revenue >= best:
                best, target = revenue, i
        cands = [o for o in range(pos.total)
                 if (mine[target] if o == pos.me else others[o][target]) > 0
                 and v["teahouses"][target] != o and pos.influence[o] < INFLUENCE_MAX]
        if not cands:
            return None
        grey = pos.grey
        return min(cands, key=lambda o: (-pos.influence[o], grey.index(o))), target

    def _presents(self, mine, others) -> int:
        """How many presents my traders would receive."""
        pos, v = self.pos, self.pos.v
        got = 0
        for i in range(NPROV):
            left = v["presents"][i]
            if not left or not mine[i]:
                continue
            count = {o: (mine[i] if o == pos.me else others[o][i]) for o in pos.grey}
            holders = [o for o in pos.grey if count[o] > 0]
            for level in sorted({pos.influence[o] for o in holders}, reverse=True):
                group = [o for o in holders if pos.influence[o] == level]
                want = {o: count[o] for o in group}
                while left and any(want.values()):
                    for o in group:
                        if left and want[o]:
                            want[o] -= 1
                            left -= 1
                            if o == pos.me:
                                got += 1
        return got


class Planner:
    """Searches the journeys of my Build & Travel turn for the best end position.

    A journey is (origin, destination, passes); their order never changes the outcome, so
    the search enumerates multisets of journey types (bounded by the passes left), then
    sends any Market traders left to Yunnan for free (or keeps them in the Market).
    """

    NODE_LIMIT = 3000
    """Positions scored per search at most (keeps a move well under 100 ms)..."""
    TIME_LIMIT = 0.05
    """...and seconds per search, whatever the machine's load."""

    def __init__(self, pos: Position, model: TravelModel | None = None,
                 node_limit: int | None = None, time_limit: float | None = None):
        self.pos = pos
        self.model = model or TravelModel(pos)
        self.node_limit = node_limit or self.NODE_LIMIT
        self.time_limit = time_limit or self.TIME_LIMIT

    def journey_types(self, movable: list[int], market: int, passes: int):
        """(origin, dest, cost) of every journey with cost >= 1 that is possible now."""
        pos = self.pos
        out = []
        if market > 0:
            dist = pos.distances(0)
            for j in range(NPROV):
                cost = None if dist[j] is None else dist[j] + pos.exit_cost
                if cost and cost <= passes:
                    out.append((MARKET, j, cost))
        for i in range(NPROV):
            if movable[i] <= 0:
                continue
            dist = pos.distances(i)
            for j in range(NPROV):
                if j != i and dist[j] is not None and dist[j] <= passes:
                    out.append((i, j, dist[j]))
        # far, rich destinations first: good plans are found before the node limit
        out.sort(key=lambda x: (-x[1], x[2], x[0]))
        return out

    def best(self, traders, market: int, movable, passes: int, fixed=()):
        """(value, journeys) of the best plan; `fixed` journeys are already decided."""
        types = self.journey_types(movable, market, passes)
        self.nodes = 0
        start_arrivals = [0] * NPROV
        for _, j, _ in fixed:
            start_arrivals[j] += 1
        best = [float("-inf"), []]
        chosen: list = list(fixed)

        def leaf(t, m, arr):
            options = [(t, m, arr, 0)]
            if m and not self.pos.exit_cost:
                t2 = list(t)
                t2[0] += m
                arr2 = list(arr)
                arr2[0] += m
                options.append((t2, 0, arr2, m))
            for tt, mm, aa, free in options:
                value = self.model.value(tuple(tt), mm, tuple(aa))
                # prefer fewer journeys on a tie: never waste a move
                plan_len = len(chosen) + free
                score = value - 1e-6 * plan_len
                if score > best[0]:
                    best[0] = score
                    best[1] = list(chosen) + [(MARKET, 0, 0)] * free

        low = [bool(self.model.victims(self.model.others, j)) for j in range(NPROV)]

        def useful(o, d, t, m):
            """Prune journeys another one matches: from Yunnan up while a Market trader
            could go instead (it reaches Yunnan for free), and downhill moves that neither
            displace anyone nor fill a hole in our route."""
            if o == 0 and m > 0 and not self.pos.exit_cost:
                return False
            if o > d and not low[d]:
                return m == 0 and t[d] == 0 and not self.pos.posts[self.pos.me][d]
            return True

        deadline = time.perf_counter() + self.time_limit

        def spent() -> bool:
            if self.nodes >= self.node_limit:
                return True
            return self.nodes % 64 == 0 and time.perf_counter() > deadline

        def dfs(k, t, m, mov, p, arr):
            self.nodes += 1
            leaf(t, m, arr)
            if spent():
                return
            for idx in range(k, len(types)):
                o, d, c = types[idx]
                if c > p or not useful(o, d, t, m):
                    continue
                if o == MARKET:
                    if m <= 0:
                        continue
                elif mov[o] <= 0:
                    continue
                t[d] += 1
                arr[d] += 1
                if o == MARKET:
                    m -= 1
                else:
                    t[o] -= 1
                    mov[o] -= 1
                chosen.append((o, d, c))
                dfs(idx, t, m, mov, p - c, arr)
                chosen.pop()
                if o == MARKET:
                    m += 1
                else:
                    t[o] += 1
                    mov[o] += 1
                t[d] -= 1
                arr[d] -= 1
                if self.nodes >= self.node_limit or time.perf_counter() > deadline:
                    return

        dfs(0, list(traders), market, list(movable), passes, start_arrivals)
        return best[0], best[1]

    def path(self, origin: int, dest: int, avoid=()) -> list[int]:
        """The provinces a trader enters from `origin` (MARKET or a province) to `dest`."""
        pos = self.pos
        start = 0 if origin == MARKET else origin
        dist = pos.distances(dest, avoid=[a for a in avoid if a != dest])
        route, here = ([0] if origin == MARKET else []), start
        while here != dest:
            here = min((j for j in pos.neighbours(pos.me, here, pos.horse)
                        if dist[j] is not None and j not in avoid and j not in route),
                       key=lambda j: dist[j])
            route.append(here)
        return route
