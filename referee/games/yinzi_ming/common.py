"""Moves open during your own turn: exchanges, Administration benefits, extra Overseers, done.

Every handler has the signature `(s, seat, move, dry)` (the kit's `Rule.dry`): it raises a
`rule_error` naming the rule when the move is not allowed, returns at `dry` without touching
the state (that is how the kit's `legal_moves` checks candidates, so the listed moves are
exactly the accepted ones), and otherwise changes `s`, the kit's private copy.
"""

from __future__ import annotations

from referee.games.yinzi_ming import board, data, flow, scoring
from referee.core.kit import Rule, one, rule_error

MINT = data.benefit_with("mint")


def _swap(s, seat: int, direction: str, buy: int, sell: int, rule: str, dry: bool) -> None:
    """Buy 1 Yinzi for `buy` Sapeques, or sell 1 Yinzi for `sell` Sapeques (whole units)."""
    st = s["seats"][seat]
    if direction == "buy" and st["sapeques"] < buy:
        raise rule_error(
            f"{rule}.sapeques",
            f"1 Yinzi costs {buy} Sapeques, you have {st['sapeques']}")
    if direction == "sell" and st["yinzi"] < 1:
        raise rule_error(f"{rule}.yinzi", "you have no Yinzi to exchange")
    if dry:
        return
    if direction == "buy":
        st["sapeques"], st["yinzi"] = st["sapeques"] - buy, st["yinzi"] + 1
    else:
        st["sapeques"], st["yinzi"] = st["sapeques"] + sell, st["yinzi"] - 1


def exchange(s, seat, move, dry) -> None:
    """Sapeques for Yinzi at the displayed rate R, or Yinzi for Sapeques at the inverse (R)."""
    r = board.rate(s)
    _swap(s, seat, move["direction"], r, r, "exchange", dry)


def check_usable(s, seat: int, benefit: str, rule: str) -> None:
    """Fail unless `seat` holds `benefit` and placed it in an earlier phase (fragment)."""
    taken = s["admin"].get(benefit)
    name = data.BENEFITS[benefit]["name"]
    if taken is None or taken["owner"] != seat:
        raise rule_error(f"{rule}.not_held", f"you have no Overseer on {benefit} {name}")
    if taken["round"] == s["round"] and taken["phase"] == s["phase"]:
        raise rule_error(
            f"{rule}.same_phase",
            f"{benefit} {name} was placed in this {s['phase']} phase "
            f"(round {s['round']}); it may be used only in a later phase")


def release(s, seat: int, benefit: str) -> None:
    """A used benefit's Overseer returns to its owner's supply and the space reopens."""
    s["admin"][benefit] = None
    s["seats"][seat]["overseers"] += data.CORRUPT_OVERSEERS


def mint(s, seat, move, dry) -> None:
    """Mint Contact (B4): one exchange at R-1 when buying (at least 1), R+1 when selling."""
    if MINT is None:
        raise rule_error("mint.none", "there is no Mint Contact benefit")
    check_usable(s, seat, MINT, "mint")
    effect, r = data.BENEFITS[MINT]["effect"], board.rate(s)
    buy = max(r + effect["buy_delta"], effect["min_rate"])
    _swap(s, seat, move["direction"], buy, r + effect["sell_delta"], "mint", dry)
    if not dry:
        release(s, seat, MINT)


def benefit(s, seat, move, dry) -> None:
    """Use a one-shot benefit: Tax Waiver, River Permit, Quarry Grant or Prefect's Seal."""
    b = move["benefit"]
    check_usable(s, seat, b, "benefit")
    effect = data.BENEFITS[b]["effect"]
    kind, stage = effect["kind"], s["stage"]
    if kind == "tax_waiver":
        if stage != "step":
            raise rule_error("benefit.timing", f"{b} Tax Waiver is used in your Regulation step")
        if scoring.tax_owed(s, seat, s["turn"]["waived"]) == 0:
            raise rule_error(
                "benefit.no_tax",
                f"you owe no tax in this Regulation, {b} would be wasted")
    elif kind in ("transport", "extra_action") and stage != "act":
        raise rule_error(
            "benefit.timing",
            f"{b} {data.BENEFITS[b]['name']} is used during a Directive")
    if kind == "extra_action" and s["turn"]["allowed"] >= data.MAX_ACTIONS:
        raise rule_error(
            "benefit.cap",
            f"this Directive already has {s['turn']['allowed']} actions, "
            f"the most is {data.MAX_ACTIONS}")
    if dry:
        return
    release(s, seat, b)
    _benefit_effect(s, seat, kind, effect)


def _benefit_effect(s, seat: int, kind: str, effect: dict) -> None:
    turn = s["turn"]
    if kind == "tax_waiver":
        turn["waived"] = True
    elif kind == "transport":
        turn["permit"] += effect["amount"]
    elif kind == "stone":
        s["seats"][seat]["stone"] += effect["amount"]
    elif kind == "extra_action":
        turn["allowed"] += effect["amount"]


def overseer(s, seat, move, dry) -> None:
    """An extra Overseer from your supply on this Directive's card: one more action (max 4)."""
    turn = s["turn"]
    if turn["allowed"] >= data.MAX_ACTIONS:
        raise rule_error("overseer.cap", f"this Directive already has {turn['allowed']} actions, "
                                         f"the most is {data.MAX_ACTIONS}")
    if s["seats"][seat]["overseers"] < 1:
        raise rule_error("overseer.supply", "you have no Overseer left in your supply")
    if dry:
        return
    st = s["seats"][seat]
    st["overseers"] -= 1
    next(c for c in st["cards"] if c["card"] == turn["card"])["overseers"] += 1
    turn["allowed"] += 1


def done(s, seat, move, dry) -> None:
    """End your Directive turn, or your Regulation step (paying the tax)."""
    if dry:
        return
    if s["phase"] == "regulation":
        scoring.pay_tax(s, seat, s["turn"]["waived"])
        flow.end_regulation_step(s)
    else:
        flow.end_directive_turn(s)


def _holds(s, seat: int, benefit: str) -> bool:
    taken = s["admin"][benefit]
    return taken is not None and taken["owner"] == seat


def _directions(type_: str) -> list[dict]:
    return [{"type": type_, "direction": d} for d in ("buy", "sell")]


RULES = {r.type: r for r in (
    Rule.dry("exchange", exchange, lambda s, seat: _directions("exchange")),
    Rule.dry("mint", mint,
             lambda s, seat: _directions("mint") if MINT and _holds(s, seat, MINT) else []),
    Rule.dry("benefit", benefit,
             lambda s, seat: [{"type": "benefit", "benefit": b} for b in data.USABLE_BENEFITS
                              if _holds(s, seat, b)]),
    Rule.dry("overseer", overseer, one("overseer")),
    Rule.dry("done", done, one("done")),
)}
"""The moves of your own turn: candidates, each checked by its handler."""
