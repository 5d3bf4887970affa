"""Board drawings by game: each game's module draws the spectator's (or a seat's) view as SVG.

A drawing module exposes `draw(view, ctx) -> Markup` (the board), `seat_rows(view, ctx)` (each
seat's public state as (heading, [cells]) rows) and may expose `hand(view, ctx)` (what only the
viewing seat sees). Printed numbers (incomes, bid spaces, slot effects) come from the game's
`board()` tables through `Context.table`, never from copies kept here; a table the game does not
publish yet is simply not drawn.

A module may also expose `places(move) -> [place]`: where on the board a move acts (a
province, a junk, a Field). The drawing wraps those parts in `<g class="place"
data-place="…">` (svg.place): the last move's places are marked (`Context.last`), and a
seat page lets its player click one to pick the move.
"""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass, field

from markupsafe import Markup, escape

from referee.core.seeds import untag

MODULES = {"yunnan": "yunnan", "dschunke": "dschunke", "yinzi-ming": "yinzi_ming"}
"""Game name -> drawing module under referee.web.boards."""


@dataclass
class Context:
    """What a drawing needs besides the view: seat names, the viewer and the printed tables."""

    seats: list = field(default_factory=list)
    viewer: int | None = None
    tables: dict = field(default_factory=dict)
    last: frozenset = frozenset()
    """The places of the last move (marked on the board)."""

    def table(self, *names):
        """The first of `names` the game publishes in board(), untagged; None if none is."""
        for name in names:
            if name in self.tables:
                entry = self.tables[name]
                value = entry.get("value", entry) if isinstance(entry, dict) else entry
                return untag(value)
        return None

    def name(self, seat: int) -> str:
        """`seat 1 (builtin:random)`."""
        info = self.seats[seat] if isinstance(seat, int) and 0 <= seat < len(self.seats) else {}
        who = info.get("name") or info.get("kind") or ""
        you = ", you" if seat == self.viewer else ""
        return f"seat {seat}" + (f" ({who}{you})" if who else "")


def module_for(game: str):
    """The drawing module of `game`, or None for a game without one."""
    name = MODULES.get(game)
    return importlib.import_module(f"{__name__}.{name}") if name else None


def draw(game: str, view: dict, ctx: Context) -> Markup:
    """The board as SVG, or the view as an outline for a game without a drawing."""
    module = module_for(game)
    if module is None:
        return Markup('<pre class="view">{}</pre>').format(json.dumps(view, indent=1))
    return module.draw(view, ctx)


def places(game: str, move) -> list[str]:
    """Where on `game`'s board `move` acts (none for a hidden move or a game without any)."""
    module = module_for(game)
    if module is None or not hasattr(module, "places") or not isinstance(move, dict):
        return []
    return module.places(move)


def seat_rows(game: str, view: dict, ctx: Context) -> tuple[list, list]:
    """Each seat's public state: (column headings, rows of cells), first cell the seat."""
    module = module_for(game)
    if module is None:
        return [], []
    return module.seat_rows(view, ctx)


def hand(game: str, view: dict, ctx: Context) -> Markup | None:
    """What only the viewing seat sees (its hand, its sealed stake), if the game hides any."""
    module = module_for(game)
    if module is None or ctx.viewer is None or not hasattr(module, "hand"):
        return None
    return module.hand(view, ctx)


def colours(game: str, view: dict, players: int) -> list:
    """Each seat's colour on this game's board (the game's own colour words where it has them)."""
    from referee.web.boards.svg import SEAT_COLOURS

    module = module_for(game)
    if module is not None and hasattr(module, "colours") and view:
        return module.colours(view)
    return [SEAT_COLOURS[s % len(SEAT_COLOURS)] for s in range(players)]


def words(name: str) -> str:
    """`traders_guild` -> `Traders guild`."""
    text = str(name).replace("_", " ")
    return text[:1].upper() + text[1:]


__all__ = ["Context", "draw", "escape", "hand", "places", "seat_rows", "words"]
