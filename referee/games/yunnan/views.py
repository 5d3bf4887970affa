"""What a seat may see, and re-dealing what it may not (the order of Dúlì's draw pile).

Yunnan is open information except that order; the match seed is withheld too, because Dúlì's
reshuffles are drawn from it.
"""

from __future__ import annotations

from referee.core.copying import deep_copy
from referee.games.yunnan.data import GORGE_IDS, PROVINCES

_PRIVATE = ("seed", "duli_cards")


def view(s, seat: int | None) -> dict:
    """The state as `seat` (None: a spectator) may see it: all but the seed and the deck order."""
    out = {k: v for k, v in s.items() if k not in _PRIVATE}
    out = deep_copy(out)
    out["you"] = seat
    out["provinces"] = list(PROVINCES)
    out["gorges"] = list(GORGE_IDS)
    cards = out["duli_cards"] = s["duli_cards"]  # None without Dúlì: the key is always there
    if cards is not None:
        out["duli_cards"] = {"draw_pile": len(cards["deck"]), "discard": sorted(cards["discard"]),
                             "shown": list(cards["shown"]), "shuffles": cards["shuffles"]}
    return out


def redetermine(s, seat, rng):
    """A state `seat` cannot tell from `s`: Dúlì's unseen draw pile reshuffled."""
    if s["duli_cards"] is None:
        return s
    out = deep_copy(s)
    out["duli_cards"]["deck"] = rng.shuffled(out["duli_cards"]["deck"])
    return out
