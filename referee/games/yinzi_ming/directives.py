"""Phase C: choosing a Directive, a half of one of your three revealed Order cards.

Handlers follow `common`'s convention: `(s, seat, move, dry)`.
"""

from __future__ import annotations

from referee.games.yinzi_ming import data
from referee.core.kit import Rule, rule_error
from referee.games.yinzi_ming.flow import new_directive


def revealed(s, seat: int, card: int) -> dict:
    """The revealed card entry, or fail: only the three revealed Order cards can be used."""
    for entry in s["seats"][seat]["cards"]:
        if entry["card"] == card:
            return entry
    shown = [c["card"] for c in s["seats"][seat]["cards"]]
    raise rule_error(
        "directive.not_revealed",
        f"card {card} is not one of your revealed Order cards {shown}")


def command(s, seat, move, dry) -> None:
    """Top half: tuck the card under an empty action space; its lines give the actions."""
    entry = revealed(s, seat, move["card"])
    if entry["top"]:
        raise rule_error(
            "command.half_used",
            f"the top half of card {move['card']} was already used")
    action = move["action"]
    under = s["seats"][seat]["spaces"][action]
    if under is not None:
        raise rule_error(
            "command.repeat",
            f"your {action} space already holds card {under}: you may not "
            f"use the same Command action twice in a round")
    if dry:
        return
    entry["top"] = True
    s["seats"][seat]["spaces"][action] = move["card"]
    lines = data.CARDS[move["card"]][0]
    s["turn"] = new_directive(seat, move["card"], "top", action, lines)
    s["stage"] = "act"


def trade(s, seat, move, dry) -> None:
    """Bottom half (completion 5.6): Trade Directive with as many actions as its value."""
    entry = revealed(s, seat, move["card"])
    if entry["bottom"]:
        raise rule_error(
            "trade.half_used",
            f"the bottom half of card {move['card']} was already used")
    if not entry["top"] and not s["options"]["command_after_trade"]:
        raise rule_error(
            "trade.top_first",
            f"option command_after_trade is off: use the top half of card "
            f"{move['card']} before its bottom half")
    if dry:
        return
    entry["bottom"] = True
    value = data.CARDS[move["card"]][1]
    s["turn"] = new_directive(seat, move["card"], "bottom", None, value)
    s["stage"] = "act"


def _command_candidates(s, seat):
    st = s["seats"][seat]
    free = [a for a in data.ACTIONS if st["spaces"][a] is None]
    return [{"type": "command", "card": c["card"], "action": a}
            for c in st["cards"] if not c["top"] for a in free]


def _trade_candidates(s, seat):
    return [{"type": "trade", "card": c["card"]}
            for c in s["seats"][seat]["cards"] if not c["bottom"]]


RULES = {r.type: r for r in (Rule.dry("command", command, _command_candidates),
                            Rule.dry("trade", trade, _trade_candidates))}
"""Choosing a Directive: candidates, each checked by its handler."""
