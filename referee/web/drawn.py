"""A match's board as its pages draw it: svg, seat table, hand, who is to act and the last move,
live or at a step of a finished match, from one viewer's or several seats' side (pages.py serves
the routes; this module composes what they show)."""

from __future__ import annotations

from markupsafe import Markup

from referee.web import boards
from referee.web.data import FRAMES, context, renderer, service

WITHHELD = Markup('<p class="withheld" id="withheld">The board is not shown while other '
                  'matches dealt from the same seed are running (a duplicate event): it '
                  'would tell their future. It appears when they are all over.</p>')


DEALING = Markup('<p class="withheld" id="withheld">The table is being set up: the board '
                 'appears once the organiser has entered the set-up\'s chance outcomes.</p>')


def board_parts(meta, live, summary: dict, viewer, step, seats=None, moves=None) -> dict:
    """The drawn parts of a match at `step` (None: now): svg, seat table, hand, to act, the
    last move in words and marked on the board (`moves`: the log as the viewer may see it: a
    sealed move still hidden names no place); for a finished match's frame, `seats` whose
    hidden parts are shown (one: drawn as that seat saw it)."""
    if seats:
        viewer = seats[0] if len(seats) == 1 else None
        view = FRAMES.view(service(), meta, step, viewer)
    else:
        view = summary["view"] if step is None or step == live.version else \
            FRAMES.view(service(), meta, step)
    if view is None:  # withheld (shared seed), or a set-up still waiting for its chance
        notice = DEALING if meta.chance == "external" else WITHHELD  # never seed-shared
        return {"svg": notice, "heads": [], "rows": [], "hand": None, "to_act": [],
                "step": step, "final": True,
                "colours": boards.colours(meta.game, {}, meta.players)}
    ctx = context(summary, viewer)
    done = live.version if step is None else step
    last = moves[done - 1] if moves and 0 < done <= len(moves) else None
    ctx.last = frozenset(boards.places(meta.game, last.get("move"))) if last else frozenset()
    heads, rows = boards.seat_rows(meta.game, view, ctx)
    if seats and len(seats) > 1:  # reveal all: each seat's row as that seat saw itself
        rows = [_own_row(meta, step, summary, s, row) for s, row in enumerate(rows)]
    to_act = [] if step not in (None, live.version) else [
        {**d, "name": ctx.name(d["seat"]), "words": decision_words(meta.game, d)}
        for d in summary["to_act"]]
    return {"svg": boards.draw(meta.game, view, ctx), "heads": heads, "rows": rows,
            "hand": boards.hand(meta.game, view, ctx), "to_act": to_act, "step": step,
            "final": step is None or step == live.version,
            "colours": boards.colours(meta.game, view, meta.players),
            "revealed": _revealed(meta, step, seats, summary, viewer), "last": last}


def _own_row(meta, step, summary, seat: int, row: list) -> list:
    """Seat `seat`'s row of the seats table as its own view gives it (its cash, say), for
    a finished match's reveal-all frame; a row that is no seat's (Dúlì) stays as it is."""
    if seat >= meta.players:
        return row
    view = FRAMES.view(service(), meta, step, seat)
    _, rows = boards.seat_rows(meta.game, view, context(summary, None))
    return rows[seat] if seat < len(rows) else row


def _revealed(meta, step, seats, summary, viewer) -> list:
    """(seat, its own part) of each seat in `seats` but the one drawn: what only it saw."""
    if not seats or len(seats) == 1:
        return []
    shown = []
    for seat in seats:
        ctx = context(summary, seat)
        part = boards.hand(meta.game, FRAMES.view(service(), meta, step, seat), ctx)
        if part:
            shown.append((seat, context(summary, None).name(seat), part))
    return shown


def decision_words(game: str, decision: dict) -> str:
    """`bid`, or the renderer's words for the decision: `start_peasants: put your 2 ...`."""
    try:
        text = renderer(game).decision({"kind": decision["decision"], "move_types": []})
    except Exception:  # a renderer that cannot word it: the kind is still shown
        return decision["decision"]
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    head = lines[0].removeprefix("decide: ").replace(" (moves: )", "")
    # the words after the head are one sentence wrapped for a terminal: all of it, joined
    rest = " ".join(lines[1:])
    return f"{head}: {rest}" if rest and not rest.startswith(":") else head
