"""Building structures: trading posts, bridges and teahouses, from the Building Yard or supply.

Only where the horse has reached; one trading post per player per province (never in Pu'er);
one teahouse per province whoever owns it; a bridge only across an unblocked gorge whose two
provinces the horse has reached (one bridge of a player per gorge: a second adds nothing).
"""

from __future__ import annotations

from referee.core import IllegalMove
from referee.games.yunnan.data import GORGE_IDS, GORGE_INDEX, GORGES, PROV_INDEX, PROVINCES


def places(s, p: int, kind: str) -> list[str]:
    """Where seat `p` may build a `kind` now."""
    reach = s["horse"][p]
    if kind == "bridge":
        return [GORGE_IDS[g] for g, (a, b) in enumerate(GORGES)
                if b <= reach and g != s["blocker"] and g not in s["bridges"][p]]
    if kind == "trading_post":
        return [PROVINCES[i] for i in range(reach + 1) if not s["posts"][p][i]]
    return [PROVINCES[i] for i in range(reach + 1) if s["teahouses"][i] is None]


def check(s, p: int, kind: str, place: str, rule: str = "build") -> None:
    """Raise IllegalMove unless seat `p` may build `kind` at `place` now."""
    code = f"{rule}.{kind}"
    reach = s["horse"][p]
    if kind == "bridge":
        if place not in GORGE_INDEX:
            raise IllegalMove(code, f"rule '{rule}': a bridge goes across a gorge "
                              f"({list(GORGE_IDS)}), not {place!r}")
        g = GORGE_INDEX[place]
        if GORGES[g][1] > reach:
            raise IllegalMove(code, f"rule '{rule}': your horse ({PROVINCES[reach]}) has not "
                              f"reached both provinces of the gorge {place}")
        if g == s["blocker"]:
            raise IllegalMove(code, f"rule '{rule}': the gorge {place} is blocked this round")
        if g in s["bridges"][p]:
            raise IllegalMove(code, f"rule '{rule}': you already have a bridge across {place}")
        return
    if place not in PROV_INDEX:
        raise IllegalMove(code, f"rule '{rule}': a {kind} goes in a province, not {place!r}")
    i = PROV_INDEX[place]
    if i > reach:
        raise IllegalMove(code, f"rule '{rule}': your horse has reached {PROVINCES[reach]}, "
                          f"not {place}")
    if kind == "trading_post" and s["posts"][p][i]:
        raise IllegalMove(code, f"rule '{rule}': you already have a trading post in {place}")
    if kind == "teahouse" and s["teahouses"][i] is not None:
        raise IllegalMove(code, f"rule '{rule}': {place} already has a teahouse "
                          f"(participant {s['teahouses'][i]})")


def place(s, p: int, kind: str, where: str) -> None:
    """Put `p`'s `kind` on the board at `where` (already checked)."""
    if kind == "bridge":
        s["bridges"][p].append(GORGE_INDEX[where])
        s["bridges"][p].sort()
    elif kind == "trading_post":
        s["posts"][p][PROV_INDEX[where]] = 1
    else:
        s["teahouses"][PROV_INDEX[where]] = p


def legal_builds(s, p: int) -> list[dict]:
    """Every build move from seat `p`'s personal supply."""
    moves = []
    for kind, count in s["stock"][p].items():
        if count > 0:
            moves += [{"type": "build", "structure": kind, "place": where}
                      for where in places(s, p, kind)]
    return moves


def apply_build(s, p: int, move: dict) -> None:
    """Build a structure from seat `p`'s personal supply."""
    kind = move["structure"]
    if s["stock"][p][kind] <= 0:
        raise IllegalMove("build.none_in_supply", f"rule 'build': you have no {kind} in your "
                          f"personal supply")
    check(s, p, kind, move["place"])
    place(s, p, kind, move["place"])
    s["stock"][p][kind] -= 1

