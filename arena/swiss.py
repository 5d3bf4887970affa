"""The `swiss` tournament format: many entrants, few rounds. Each round seats entrants of
similar points together; a round starts when the one before is over.

Points: a match gives the seat at rank r of n players (n - r) / (n - 1): 1 for the winner,
0 for the last, shared ranks alike. When the entrants do not fill whole tables, the rest sit
the round out (a *bye*, worth 1/2, a match's mean): those with the fewest byes so far, the
lowest on points among them, so byes spread out and games played differ by one at most.
The others are ordered by points (ties by a draw from the round's seed) and cut into tables
in that order; for two-player tables each entrant is paired with the next in order it has not
met yet, when there is one. Seat order turns with the round, so nobody keeps the first seat.

Pure planning: the tournament code (arena/tournaments.py) creates and counts the matches.
"""

from __future__ import annotations

import math

from referee.core.rng import Rng

BYE_POINTS = 0.5


def default_rounds(entrants: int, players: int) -> int:
    """Enough rounds to tell a winner apart: log base `players` of the entrants, rounded up,
    plus one."""
    return max(1, math.ceil(math.log(max(entrants, 2), max(players, 2)))) + 1


def match_points(ranks: list[int]) -> list[float]:
    """Each seat's points from one match's ranks."""
    last = len(ranks) - 1
    return [(len(ranks) - r) / last if last else 1.0 for r in ranks]


def tally(entrants: list[str], played: list[dict], byes: dict) -> dict:
    """Per entrant: points, matches played, byes; `played` holds {entrants, ranks} records."""
    table = {e: {"points": BYE_POINTS * byes.get(e, 0), "matches": 0, "byes": byes.get(e, 0),
                 "opponents": set()} for e in entrants}
    for record in played:
        for entrant, points in zip(record["entrants"], match_points(record["ranks"])):
            row = table[entrant]
            row["points"] += points
            row["matches"] += 1
            row["opponents"].update(e for e in record["entrants"] if e != entrant)
    return table


def plan_round(entrants: list[str], players: int, table: dict, rng: Rng,
               round_index: int) -> tuple[list[list[str]], list[str]]:
    """(tables of seats, entrants with a bye) for the next round."""
    draw = {e: rng.random() for e in entrants}
    sitting_out = len(entrants) % players
    by_bye = sorted(entrants, key=lambda e: (table[e]["byes"], table[e]["points"], draw[e]))
    byes = by_bye[:sitting_out]
    order = sorted((e for e in entrants if e not in byes),
                   key=lambda e: (-table[e]["points"], draw[e]))
    groups = _pairs(order, table) if players == 2 else [
        order[i:i + players] for i in range(0, len(order), players)]
    turn = round_index % players
    return [g[turn:] + g[:turn] for g in groups], byes


def _pairs(order: list[str], table: dict) -> list[list[str]]:
    """Two-player tables: each takes the next in order it has not met (else the next)."""
    left, groups = list(order), []
    while left:
        first = left.pop(0)
        fresh = [e for e in left if e not in table[first]["opponents"]]
        second = fresh[0] if fresh else left[0]
        left.remove(second)
        groups.append([first, second])
    return groups


def standings(table: dict) -> list[dict]:
    """The entrants by points (the ratings table beside it orders by skill)."""
    rows = sorted(table.items(), key=lambda kv: -kv[1]["points"])
    return [{"entrant": e, "points": round(r["points"], 4), "matches": r["matches"],
             "byes": r["byes"]} for e, r in rows]
