"""End-of-game scoring: coins, presents, progress, teahouses and horses; ties by influence, then
turn order. Dúlì is not scored.
"""

from __future__ import annotations

from referee.core import Outcome, ranks_from_keys
from referee.games.yunnan.data import (COINS_PER_VP, HORSE_VP, INFLUENCE_MIN, NPROV, PASSES_MIN,
                                       PRESENT_VP, TEAHOUSE_VP, progress_vp)


def breakdown(s, p: int) -> dict:
    """Seat `p`'s final score, part by part."""
    parts = {
        "track": s["vp"][p],
        "coins": s["coins"][p] // COINS_PER_VP,
        "presents": PRESENT_VP * s["gifts"][p],
        "passes": progress_vp(s["passes"][p] - PASSES_MIN),
        "influence": progress_vp(s["influence"][p] - INFLUENCE_MIN),
        "teahouses": sum(TEAHOUSE_VP[i] for i in range(NPROV) if s["teahouses"][i] == p),
        "horse": HORSE_VP[s["horse"][p]],
    }
    parts["total"] = sum(parts.values())
    return parts


def final_scores(s) -> list[dict]:
    """Every seat's final breakdown."""
    return [breakdown(s, p) for p in range(s["n"])]


def outcome(s) -> Outcome:
    """Scores and ranks: most VP, then most influence, then earlier in the current turn order."""
    parts = s["final"]
    seats = [p for p in s["grey"] if p < s["n"]]
    keys = [(parts[p]["total"], s["influence"][p], -seats.index(p)) for p in range(s["n"])]
    return Outcome(tuple(parts[p]["total"] for p in range(s["n"])),  # ints, as the API
                   ranks_from_keys(keys),
                   details={"breakdown": parts, "turn_order": seats})
