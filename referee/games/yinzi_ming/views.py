"""What a seat may see, and re-dealing what it may not (for the leak check and for search bots).

Hidden from everybody alike: the order of every deck (each player's Order cards, the Crop
tiles, Workshops, Local Market tiles and Ships) and future die rolls. Everything else
(money, pieces, revealed cards, discards) is open. A deck's contents stay visible as a sorted
list, since they follow from public information anyway. With external chance a deck has no
order (it is kept sorted) and every outcome is public, so nothing is left to re-deal.
"""

from __future__ import annotations

from referee.core import Rng, suspend
from referee.core.copying import json_copy
from referee.core.rng import MAX_SEED
from referee.games.yinzi_ming import board, data

_DECKS = ("crop_deck", "workshop_deck", "market_deck", "ship_deck")
_HIDDEN = (*_DECKS, "seed", "seats", "occupants", "tiles", "covered", suspend.KEY)
"""Keys not shown as they are: the decks (sorted, in `decks`), the seats (`_seat_view`), the
board's three (in `board`), the seed, and the core's chance record (the core shows it)."""


def _seat_view(st: dict) -> dict:
    view = dict(st)   # the seat's keys in order, but its deck (a copy, then one deletion)
    del view["deck"]
    view["deck_size"] = len(st["deck"])
    view["deck_cards"] = sorted(st["deck"])
    view["cards"] = [{**c, "lines": lines, "value": value}
                     for c in st["cards"] for lines, value in (data.CARDS[c["card"]],)]
    return view


_PRINTED_CROPS = tuple((sid, data.SPACES[sid]["crop"]) for sid in data.SPACE_IDS)
"""Each board space in board order with its printed crop (`board.crop` without a Crop tile)."""


_EMPTY_BOARD = {sid: {"crop": printed, "owner": None, "count": 0}
                for sid, printed in _PRINTED_CROPS}
"""Every board space's entry while it holds no Peasant, Crop tile or Workshop: shared by the
views (`served_view` is only serialised; `view` copies it)."""


def _board(s) -> dict:
    """Every board space's crop and Peasants (plus its Crop tile and Workshop, if any)."""
    board_view = dict(_EMPTY_BOARD)   # in board order; the few spaces in use rewritten
    for sid, held in s["occupants"].items():
        empty = board_view.get(sid)
        if empty is not None:   # only board spaces are listed
            board_view[sid] = {"crop": empty["crop"], "owner": held["owner"],
                               "count": held["count"]}
    covered = s["covered"]
    for sid, tile in s["tiles"].items():
        entry = board_view.get(sid)
        if entry is not None:   # the tile's crop replaces the printed one, keys in order
            board_view[sid] = entry = {"crop": data.CROP_TILES[tile], "owner": entry["owner"],
                                       "count": entry["count"], "tile": tile}
            if sid in covered:
                entry["workshop"] = covered[sid]
    for sid, shop in covered.items():
        entry = board_view.get(sid)
        if entry is not None and "workshop" not in entry:
            board_view[sid] = {**entry, "workshop": shop}
    return board_view


MAP = {"provinces": {p: [sid for sid in data.SPACE_IDS if data.SPACES[sid]["province"] == p]
                     for p in data.PROVINCES},
       "salt_mines": [sid for sid in data.SPACE_IDS if data.SPACES[sid]["kind"] == "salt"]}
"""The static map: each Province's spaces (Fields, then Salt Mines) and the Salt Mines."""


COMPONENTS = {"workshops": dict(data.WORKSHOP_TILES), "inputs": dict(data.GOOD_INPUT),
              "ships": {sid: {"flag": ship["flag"], "goods": list(ship["goods"])}
                        for sid, ship in data.SHIPS.items()}}
"""The printed components a view names by id: the Good each Workshop tile makes, the crop each
Good takes, the Goods each Ship's slots want. In the view so clients never copy the tables."""


_SLOT_FACTS = tuple((i + 1, data.SLOT_COST[i + 1], slot["name"], data.SLOT_EFFECT[i + 1])
                    for i, slot in enumerate(data.SLOTS))
"""Each register slot's number, Crop tile cost, name and effect, in slot order."""


def view(s, seat: int | None) -> dict:
    """The state as `seat` (None: a spectator) may see it."""
    return json_copy(served_view(s, seat))


def served_view(s, seat: int | None) -> dict:
    """`view` sharing objects with `s` and the tables (MAP, COMPONENTS): for a caller that
    only serialises it (the copy that makes `view` independent was half its cost)."""
    out = {"game": "yinzi-ming", **s}   # the state's keys in order, less the hidden (a copy
    for key in _HIDDEN:   # and a few deletions cost a third of filtering every key)
        out.pop(key, None)
    out["you"] = seat
    out["board"] = _board(s)
    out["map"] = MAP
    out["components"] = COMPONENTS
    out["exchange"] = {"space": s["dial"], "rate": board.rate(s), "last_roll": s["roll"]}
    out["decks"] = {k: sorted(s[k]) for k in _DECKS}
    out["markets"] = {p: {**m, "demands": data.MARKETS[m["tile"]]["spaces"],
                          "high_demand": data.MARKETS[m["tile"]]["high_demand"]}
                      for p, m in s["markets"].items()}
    out["register"] = [{**r, "slot": slot, "cost": cost, "crop": data.CROP_TILES.get(r["tile"]),
                        "name": name, "effect": effect}
                       for r, (slot, cost, name, effect) in zip(s["register"], _SLOT_FACTS)]
    out["seats"] = [_seat_view(st) for st in s["seats"]]
    return out


def redetermine(s, seat: int | None, rng: Rng):
    """A state `seat` cannot tell from `s`: every deck reshuffled, future rolls re-seeded
    (external chance: `s` itself, since no deck has an order and every outcome is public).
    It shares the parts it leaves alone with `s`."""
    if suspend.is_external(s):
        return s
    # new decks and seats, the rest shared with `s` (a state is never changed once made; a
    # copy of all of it was most of this function's time), the draws in the same order
    other = dict(s)
    for key in _DECKS:
        other[key] = rng.shuffled(s[key])
    other["seats"] = [{**st, "deck": rng.shuffled(st["deck"])} for st in s["seats"]]
    other["seed"] = rng.below(MAX_SEED)
    return other
