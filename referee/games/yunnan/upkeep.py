"""After everyone has travelled: the Inspector, presents, income, the new turn order, the
conversion of income into victory points, the game-end check and the next round's preparation.
"""

from __future__ import annotations

from referee.core import IllegalMove
from referee.core.kit import rule_error
from referee.games.yunnan import board, duli
from referee.games.yunnan.data import END_VP, IMMUNE_INFLUENCE, NPROV, PROVINCES


def inspector(s) -> None:
    """Visit the highest-revenue province (ties: farthest) and banish one trader there."""
    revenue = [board.province_revenue(s, i) for i in range(NPROV)]
    target = max(range(NPROV), key=lambda i: (revenue[i], i))
    cands = [o for o in range(board.participants(s)) if s["traders"][o][target] > 0
             and s["teahouses"][target] != o and s["influence"][o] < IMMUNE_INFLUENCE]
    banished = None
    if cands:
        grey = s["grey"]
        banished = min(cands, key=lambda o: (-s["influence"][o], grey.index(o)))
        s["traders"][banished][target] -= 1
        s["market"][banished] += 1
    s["report"]["inspector"] = {"province": PROVINCES[target], "revenue": revenue[target],
                                "banished": banished}


def presents(s) -> None:
    """Hand out presents: one per trader, higher influence first, ties round-robin in turn order."""
    given = [0] * board.participants(s)
    for i in range(NPROV):
        left = s["presents"][i]
        if not left:
            continue
        holders = [o for o in s["grey"] if s["traders"][o][i] > 0]
        if s["duli"] is not None and not any(o < s["n"] for o in holders):
            holders = []  # Dúlì takes presents only beside a player
        for level in sorted({s["influence"][o] for o in holders}, reverse=True):
            group = [o for o in holders if s["influence"][o] == level]
            want = {o: s["traders"][o][i] for o in group}
            while left and any(want.values()):
                for o in group:
                    if left and want[o]:
                        want[o] -= 1
                        left -= 1
                        given[o] += 1
                        s["gifts"][o] += 1
        s["presents"][i] = left
    s["report"]["presents"] = given


def income_and_order(s) -> None:
    """Each seat's round income, then the grey track re-ordered by it (stack tie-break)."""
    n = s["n"]
    grey = s["grey"]
    for p in grey:
        if p < n:
            s["income"][p] = board.income(s, p)
    seats = [p for p in grey if p < n]
    # equal incomes: the marker placed later (later in turn order) is on top, so goes first
    seats.sort(key=lambda p: (-s["income"][p], -grey.index(p)))
    s["grey"] = ([s["duli"]] if s["duli"] is not None else []) + seats


def convert_candidates(s, p: int) -> list[dict]:
    """Every amount from 0 to this round's income of seat `p`."""
    return [{"type": "convert", "points": k} for k in range(s["income"][p] + 1)]


def check_convert(s, p: int, move: dict) -> IllegalMove | None:
    """At most the round's income."""
    income = s["income"][p]
    if move["points"] > income:
        return rule_error("convert.too_much", f"you may convert at most your round income of "
                          f"{income}, not {move['points']}")
    return None


def play_convert(s, p: int, move: dict) -> None:
    """Convert, then the next participant in turn order converts."""
    apply_convert(s, p, move["points"])
    s["cursor"] += 1


def apply_convert(s, p: int, points: int) -> None:
    """Convert `points` of `p`'s round income into VP (already checked); the rest is coins."""
    income = s["income"][p]
    s["vp"][p] += points
    s["coins"][p] += income - points
    s["income"][p] = None


def game_over(s) -> bool:
    """The end check: no presents left, or (standard rules) a seat at 80 VP or more."""
    if not any(s["presents"]):
        return True
    return not board.presents_only_end(s) and any(v >= END_VP for v in s["vp"])


def prepare_round(s) -> None:
    """Market traders back to supply, Gorge Blocker and guards off, blue track reversed."""
    for p in range(board.participants(s)):
        s["supply"][p] += s["market"][p]
        s["market"][p] = 0
    if s["duli"] is not None:
        duli.end_round(s)
    s["blocker"] = None
    s["guards"] = [None] * s["n"]
    s["blue"] = list(reversed(s["grey"]))
    s["passed"] = [False] * board.participants(s)
    s["round"] += 1
