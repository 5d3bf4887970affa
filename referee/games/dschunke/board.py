"""Cargo on the junks: layers of strips, visible crates, loading and moving strips.

A junk's hold is a list of layers, bottom first, each a sorted list of owner seats. A layer is
always full (3 strips) before the next, crosswise one starts, so a strip's slot in its layer
never matters: with k strips in the top layer, each top strip shows all 3 crates, each strip
of the full layer below shows 3 - k, and everything deeper is covered.
"""

from __future__ import annotations

from referee.games.dschunke.data import CRATES, JUNKS, LAYER


def visible_crates(layers: list, seat: int) -> int:
    """The crates of `seat` that can be seen on a junk with these layers."""
    return visible_counts(layers, seat + 1)[seat]


def visible_counts(layers: list, seats: int) -> list[int]:
    """The crates of each seat below `seats` that can be seen on a junk with these layers
    (strips of higher seats are left out)."""
    # plain loops, no comprehension per seat: every view builds a row per junk, and the
    # comprehensions' frames were half its cost
    row = [0] * seats
    if layers:
        top = layers[-1]
        for owner in top:
            if owner < seats:
                row[owner] += CRATES
        under = CRATES - len(top)
        if under and len(layers) > 1:
            for owner in layers[-2]:
                if owner < seats:
                    row[owner] += under
    return row


def visible_table(junks: dict, players: int) -> dict:
    """Visible crates per junk per seat: {junk: [count per seat]} (each junk's layers looked
    up once: every view shows the table)."""
    return {junk: visible_counts(junks[junk]["layers"], players) for junk in JUNKS}


def load_strip(layers: list, seat: int) -> None:
    """Lay one strip of `seat` on the hold, starting a crosswise layer when the top is full."""
    if not layers or len(layers[-1]) >= LAYER:
        layers.append([seat])
    else:
        layers[-1].append(seat)
        layers[-1].sort()


def remove_top_strip(layers: list, owner: int) -> None:
    """Take one strip of `owner` off the top layer (the layer below becomes the top if emptied)."""
    layers[-1].remove(owner)
    if not layers[-1]:
        layers.pop()


def top_owners(layers: list) -> list[int]:
    """The distinct owners of strips in the top layer, sorted."""
    return sorted(set(layers[-1])) if layers else []


def strip_count(layers: list) -> int:
    """How many strips lie on a junk."""
    return sum(len(layer) for layer in layers)


def strips_of(layers: list, seat: int) -> int:
    """How many strips of `seat` lie on a junk."""
    return sum(layer.count(seat) for layer in layers)
