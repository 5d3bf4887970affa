"""The ladder's matchmaker (pure, no I/O): who sits next, and the queue the API and page show.

Games per entrant are the seats it holds in the ladder's matches so far, running ones
included (a seat is counted when it is given, so matches started together do not all pick
the same few entrants). The next table takes the entrants with the fewest games; among
equal counts the one seated longest ago first (never seated: first of all), and only
entrants equal on both are drawn from the tournament's seed. Seating the fewest first keeps
games per entrant within one of each other at every moment (a table only ever raises the
lowest counts), so no entrant is starved however long the ladder runs (aichallenge#179).
"""

from __future__ import annotations


def queue(entrants: list[str], seatings: list[list[str]], running: set[int]) -> list[dict]:
    """Every entrant in the order the matchmaker will seat them: games (seats held so far),
    running (of them, in matches not over), last (index of its latest match, None if
    never seated), place (1 = next); entrants tied on games and last share a place (drawn
    at seating)."""
    rows = {e: {"entrant": e, "games": 0, "running": 0, "last": None} for e in entrants}
    for index, seats in enumerate(seatings):
        for entrant in seats:
            row = rows.setdefault(entrant, {"entrant": entrant, "games": 0, "running": 0,
                                            "last": None})
            row["games"] += 1
            row["running"] += int(index in running)
            row["last"] = index
    ordered = sorted(rows.values(), key=_order)
    place, previous = 0, None
    for position, row in enumerate(ordered, 1):
        if _order(row)[:2] != previous:
            place, previous = position, _order(row)[:2]
        row["place"] = place
    return ordered


def _order(row: dict) -> tuple:
    return (row["games"], -1 if row["last"] is None else row["last"], row["entrant"])


def next_table(rows: list[dict], players: int, rng) -> list[str]:
    """The next match's entrants from `queue`'s rows, in seat order: the first `players`,
    ties (same games and last) drawn with `rng`, then the seats shuffled with it."""
    draws = {row["entrant"]: rng.random() for row in rows}
    chosen = sorted(rows, key=lambda r: (_order(r)[:2], draws[r["entrant"]]))[:players]
    return rng.shuffled([row["entrant"] for row in chosen])


def spread(rows: list[dict]) -> int:
    """Most games minus fewest games among the entrants (at most 1 while the ladder runs)."""
    games = [row["games"] for row in rows]
    return max(games) - min(games) if games else 0
