"""Ratings: OpenSkill Plackett-Luce over an ordered list of match results (pure, no I/O).

A result is {"match", "entrants": [entrant id per seat], "ranks", "scores", "failed": [seats
that failed]}. Folding the same list in the same order always gives the same table, which is
how the leaderboard is recomputed and checked.
"""

from __future__ import annotations

import math

from openskill.models import PlackettLuce

MODEL = PlackettLuce()


def rateable(entrants: list) -> bool:
    """A match can be rated when no entrant holds two seats."""
    return len(set(entrants)) == len(entrants) and len(entrants) >= 2


def fold(results: list[dict], model=MODEL) -> dict:
    """The leaderboard after applying `results` in order: entrant -> figures."""
    table: dict[str, dict] = {}
    for result in results:
        apply(table, result, model)
    return table


def apply(table: dict, result: dict, model=MODEL) -> None:
    """Apply one result to `table` in place (ratings and the running figures)."""
    entrants = result["entrants"]
    carry = result.get("carry") or {}   # a new bot version's first result: arena/botversions
    rows = [table.setdefault(e, _carried_row(e, table.get(carry.get(e)), model))
            for e in entrants]
    ratings = [[model.create_rating([row["mu"], row["sigma"]], name=e)]
               for e, row in zip(entrants, rows)]
    new = model.rate(ratings, ranks=list(result["ranks"]))
    failed = set(result.get("failed", []))
    for seat, (row, team) in enumerate(zip(rows, new)):
        row["mu"], row["sigma"] = team[0].mu, team[0].sigma
        row["matches"] += 1
        row["wins"] += int(result["ranks"][seat] == 1)
        row["rank_sum"] += result["ranks"][seat]
        row["score_sum"] += float(result["scores"][seat])
        row["failures"] += int(seat in failed)


def inflated(sigma: float, default_sigma: float) -> float:
    """The sigma a new bot version starts from under `inflate`: sqrt(sigma^2 + (default
    sigma / 2)^2), at most the default."""
    return min(default_sigma, math.sqrt(sigma ** 2 + (default_sigma / 2) ** 2))


def _carried_row(entrant: str, previous: dict | None, model) -> dict:
    """A new entrant's row: the default rating, or a previous version's mu with sigma
    inflated (arena/botversions.py)."""
    row = _new_row(entrant, model)
    if previous is not None:
        row["mu"], row["sigma"] = previous["mu"], inflated(previous["sigma"], model.sigma)
    return row


def _new_row(entrant: str, model) -> dict:
    return {"entrant": entrant, "mu": model.mu, "sigma": model.sigma, "matches": 0, "wins": 0,
            "rank_sum": 0, "score_sum": 0.0, "failures": 0}


def standings(table: dict) -> list[dict]:
    """The table as sorted rows: ordinal (mu - 3 sigma) first, then mu, then entrant id."""
    rows = []
    for row in table.values():
        n = row["matches"]
        rows.append({
            "entrant": row["entrant"], "mu": round(row["mu"], 4), "sigma": round(row["sigma"], 4),
            "ordinal": round(row["mu"] - 3 * row["sigma"], 4), "matches": n,
            "wins": row["wins"], "average_rank": round(row["rank_sum"] / n, 3) if n else None,
            "average_score": round(row["score_sum"] / n, 3) if n else None,
            "failure_rate": round(row["failures"] / n, 3) if n else None})
    rows.sort(key=lambda r: (-r["ordinal"], -r["mu"], r["entrant"]))
    for place, row in enumerate(rows, 1):
        row["place"] = place
    return rows
