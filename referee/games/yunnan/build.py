"""Building structures: trading posts, bridges and teahouses, from the Building Yard or supply.

Only where the horse has reached; one trading post per player per province (never in Pu'er);
one teahouse per province whoever owns it; a bridge only across an unblocked gorge whose two
provinces the horse has reached (one bridge of a player per gorge: a second adds nothing).
"""

from __future__ import annotations

from referee.core import IllegalMove
from referee.core.kit import rule_error
from referee.games.yunnan.data import GORGE_IDS, GORGE_INDEX, GORGES, PROV_INDEX, PROVINCES


def anywhere(kind: str) -> tuple[str, ...]:
    """Every place a `kind` could ever go: the gorges for a bridge, else the provinces."""
    return GORGE_IDS if kind == "bridge" else PROVINCES


def problem(s, p: int, kind: str, place: str, rule: str = "build") -> IllegalMove | None:
    """Why seat `p` may not build `kind` at `place` now (code `<rule>.<kind>`), or None."""
    code = f"{rule}.{kind}"
    reach = s["horse"][p]
    if kind == "bridge":
        if place not in GORGE_INDEX:
            return rule_error(code, f"a bridge goes across a gorge ({list(GORGE_IDS)}), not "
                              f"{place!r}")
        g = GORGE_INDEX[place]
        if GORGES[g][1] > reach:
            return rule_error(code, f"your horse ({PROVINCES[reach]}) has not reached both "
                              f"provinces of the gorge {place}")
        if g == s["blocker"]:
            return rule_error(code, f"the gorge {place} is blocked this round")
        if g in s["bridges"][p]:
            return rule_error(code, f"you already have a bridge across {place}")
        return None
    if place not in PROV_INDEX:
        return rule_error(code, f"a {kind} goes in a province, not {place!r}")
    i = PROV_INDEX[place]
    if i > reach:
        return rule_error(code, f"your horse has reached {PROVINCES[reach]}, not {place}")
    if kind == "trading_post" and s["posts"][p][i]:
        return rule_error(code, f"you already have a trading post in {place}")
    if kind == "teahouse" and s["teahouses"][i] is not None:
        return rule_error(code, f"{place} already has a teahouse (participant "
                          f"{s['teahouses'][i]})")
    return None


def place(s, p: int, kind: str, where: str) -> None:
    """Put `p`'s `kind` on the board at `where` (already checked)."""
    if kind == "bridge":
        s["bridges"][p].append(GORGE_INDEX[where])
        s["bridges"][p].sort()
    elif kind == "trading_post":
        s["posts"][p][PROV_INDEX[where]] = 1
    else:
        s["teahouses"][PROV_INDEX[where]] = p


def build_candidates(s, p: int) -> list[dict]:
    """A build of each structure kind `p` has in supply, at every place it could go."""
    return [{"type": "build", "structure": kind, "place": where}
            for kind, count in s["stock"][p].items() if count > 0 for where in anywhere(kind)]


def check_build(s, p: int, move: dict) -> IllegalMove | None:
    """A structure of that kind in `p`'s personal supply, and a place it may be built now."""
    kind = move["structure"]
    if s["stock"][p][kind] <= 0:
        return rule_error("build.none_in_supply", f"you have no {kind} in your personal supply")
    return problem(s, p, kind, move["place"])


def play_build(s, p: int, move: dict) -> None:
    """Build a structure from seat `p`'s personal supply (already checked)."""
    place(s, p, move["structure"], move["place"])
    s["stock"][p][move["structure"]] -= 1


def can_build(s, p: int) -> bool:
    """True if seat `p` has a structure in supply it may build somewhere now."""
    return any(count > 0 and problem(s, p, kind, where) is None
               for kind, count in s["stock"][p].items() for where in anywhere(kind))
