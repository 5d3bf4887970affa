"""Final scoring and ranking (completion 5.15), and Regulation's tax (5.13)."""

from __future__ import annotations

from referee.core import Outcome, ranks_from_keys
from referee.games.yinzi_ming import board, data


def workshops_of(s, seat: int) -> list[dict]:
    """The Workshops `seat` owns."""
    return [w for w in s["workshops"].values() if w["owner"] == seat]


def taxed(s, seat: int) -> list[dict]:
    """The Workshops `seat` pays tax for: those that made a Good this round (rules 5), or
    every one (scoring.json taxed_workshops 'all', rules 1-4)."""
    shops = workshops_of(s, seat)
    if data.TAXED_WORKSHOPS == "produced":
        return [w for w in shops if w["produced"] > 0]
    return shops


def tax_owed(s, seat: int, waived: bool = False) -> int:
    """Yinzi due in Regulation: 1 per taxed Workshop, none with a waiver (B1); the Tax
    Exemption slot's Merchant pays for none of their first `amount` of them."""
    if waived:
        return 0
    slot, shops = data.EXEMPT_SLOT, len(taxed(s, seat))
    if slot is not None and s["register"][slot - 1]["merchant"] == seat:
        shops = max(0, shops - data.SLOT_EFFECT[slot]["amount"])
    return data.TAX_PER_WORKSHOP * shops


def pay_tax(s, seat: int, waived: bool) -> None:
    """Pay what you can in Yinzi; each Yinzi still unpaid costs 2 VP (VP may go negative)."""
    owed = tax_owed(s, seat, waived)
    seat_state = s["seats"][seat]
    paid = min(owed, seat_state["yinzi"])
    seat_state["yinzi"] -= paid
    seat_state["tax_vp"] -= (owed - paid) * data.UNPAID_TAX_VP


def breakdown(s, seat: int) -> dict:
    """Every part of `seat`'s final score."""
    seat_state = s["seats"][seat]
    held = [b for b, taken in s["admin"].items()
            if taken is not None and taken["owner"] == seat
            and data.BENEFITS[b]["effect"]["kind"] == "final_vp"]
    parts = {
        "ships": seat_state["ship_vp"],
        "unpaid_tax": seat_state["tax_vp"],
        "yinzi": data.VP_PER_YINZI * seat_state["yinzi"],
        "sapeques": data.VP_PER_CONVERTED * (seat_state["sapeques"] // board.rate(s)),
        "workshops": sum(data.WORKSHOP_VP[w["level"]] for w in workshops_of(s, seat)),
        "ambassador": seat_state["ambassador"] - data.AMBASSADOR_OFFSET,
        "commendation": sum(data.BENEFITS[b]["effect"]["amount"] for b in held),
    }
    parts["total"] = sum(parts.values())
    return parts


def final_scores(s) -> dict:
    """Totals, breakdowns and ranks; ties go to more Sapeques, then earlier turn order."""
    parts = [breakdown(s, seat) for seat in range(s["players"])]
    totals = [p["total"] for p in parts]
    keys = [(totals[seat], s["seats"][seat]["sapeques"], -s["order"].index(seat))
            for seat in range(s["players"])]
    return {"scores": totals, "ranks": list(ranks_from_keys(keys)), "breakdown": parts,
            "final_rate": board.rate(s)}


def outcome(s) -> Outcome | None:
    """The Outcome once the game is over."""
    final = s["final"]
    if final is None:
        return None
    return Outcome(tuple(final["scores"]), tuple(final["ranks"]),
                   details={"breakdown": final["breakdown"], "final_rate": final["final_rate"]})
