"""What a seat may see, and re-dealing what it may not (the order of Dúlì's draw pile).

Yunnan is open information except that order; the match seed is withheld too, because Dúlì's
reshuffles are drawn from it. With external chance the pile is an unordered (sorted) set whose
content follows from the cards seen, so nothing is hidden; the core's chance record
(`state["chance"]`) is not part of a view either.
"""

from __future__ import annotations

from referee.core import suspend
from referee.core.copying import json_copy
from referee.games.yunnan.data import GORGE_IDS, PROVINCES

_PRIVATE = ("seed", "duli_cards", suspend.KEY)


def view(s, seat: int | None) -> dict:
    """The state as `seat` (None: a spectator) may see it: all but the seed and the deck order.

    Single places (a horse, a guard, the Gorge Blocker, bridges, the journey, where to
    displace) are named as in moves; counts per province stay lists in `provinces` order.
    """
    return json_copy(served_view(s, seat))


def served_view(s, seat: int | None) -> dict:
    """`view` sharing objects with `s`: for a caller that only serialises it (the copy that
    makes `view` independent was most of its cost). Only its own top level is written."""
    out = {"game": "yunnan"}
    out.update((k, v) for k, v in s.items() if k not in _PRIVATE)
    _name_places(out, s)
    out["you"] = seat
    out["provinces"] = list(PROVINCES)
    out["gorges"] = list(GORGE_IDS)
    cards = out["duli_cards"] = s["duli_cards"]  # None without Dúlì: the key is always there
    if cards is not None:
        out["duli_cards"] = {"draw_pile": len(cards["deck"]), "discard": sorted(cards["discard"]),
                             "shown": list(cards["shown"]), "shuffles": cards["shuffles"]}
    return out


def _name(names, index):
    return None if index is None else names[index]


def _name_places(out: dict, s) -> None:
    """Provinces and gorges by name where a player reads one place (as moves name them)."""
    out["horse"] = [PROVINCES[h] for h in s["horse"]]
    out["guards"] = [_name(PROVINCES, g) for g in s["guards"]]
    out["blocker"] = _name(GORGE_IDS, s["blocker"])
    out["bridges"] = [[GORGE_IDS[g] for g in row] for row in s["bridges"]]
    out["displace_at"] = _name(PROVINCES, s["displace_at"])
    journey = s["journey"]
    if journey is not None:
        out["journey"] = {"at": PROVINCES[journey["at"]],
                          "visited": [PROVINCES[i] for i in journey["visited"]]}


def redetermine(s, seat, rng):
    """A state `seat` cannot tell from `s`: Dúlì's unseen draw pile reshuffled (an external
    pile has no order to re-deal: it stays sorted)."""
    if s["duli_cards"] is None or suspend.is_external(s):
        return s
    out = json_copy(s)
    out["duli_cards"]["deck"] = rng.shuffled(out["duli_cards"]["deck"])
    return out
