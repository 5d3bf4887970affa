"""The house's pages: home, rules summaries, matches (live, replayed, and a seat's own view).

Who may call what: every page and fragment here is public and shows the spectator's view,
except a board fragment requested with a seat token in the Authorization header, which shows
that seat's view (the token never travels in a URL: the seat page keeps it in the fragment
and its script sends it as a header). Replay frames are served only for finished matches.
"""

from __future__ import annotations

import re

from flask import Blueprint, abort, current_app, render_template, request, url_for
from markupsafe import Markup

from referee.core.errors import RefereeError
from referee.core.seeds import seeds_dir
from referee.service.access import ANYONE, requires
from referee.web import boards, rules_md
from referee.web.boards.svg import chip
from referee.web.data import (ACTIVE, FRAMES, context, log_entries, match_lists, renderer,
                              service)

blp = Blueprint("web", __name__, template_folder="templates", static_folder="static",
                static_url_path="/static/web")

SEAT_IN_LABEL = re.compile(r"\bseat (\d+)")

SEAT_HIDES = {
    "dschunke": "your goods cards, your cash, your hidden special cards and your sealed bids, "
                "which the other seats do not see",
    "yunnan": "the same board everyone sees: Yunnan hides nothing from one seat that another "
              "sees (only the order of D\u00fal\u00ec's draw pile, from everyone)",
    "yinzi-ming": "the same board everyone sees: Y\u00ednzi hides nothing from one seat that "
                  "another sees (only the order of its decks, from everyone)",
}
"""What a seat's own page shows beyond the spectator's, by game (the seat page's intro)."""

LIVE_WAIT_S = 20
"""Longest a live page's poll is held before it answers "no change" (then it asks again)."""


@blp.get("/")
@requires(ANYONE)
def home():
    """The games, matches being played now, recent results and where the docs are."""
    playing, recent = match_lists()
    games = [{**g.spec.to_dict(), "rules": _rules_file(g.spec.name).is_file()}
             for g in service().games]
    links = {name: endpoint for name, endpoint in (("leaderboard", "arena_web.leaderboard"),
                                                   ("protocol", "arena_web.protocol"),
                                                   ("tournaments", "arena_web.tournaments"))
             if endpoint in current_app.view_functions}
    docs = {"swagger": _has("openapi_swagger_ui"), "redoc": _has("openapi_redoc")}
    return render_template("web/home.html", games=games, playing=playing, recent=recent,
                           links=links, docs=docs, bots=builtin_bots())


def builtin_bots() -> list[str]:
    """The seat kinds of the referee's own bots (`builtin:random`), for "Play against bots"."""
    from referee.core.bots import BUILTIN_BOTS

    return [f"builtin:{name}" for name in sorted(BUILTIN_BOTS)]


def _has(endpoint_suffix: str) -> bool:
    return any(e.endswith(endpoint_suffix) for e in current_app.view_functions)


@blp.get("/games/<game>/rules")
@requires(ANYONE)
def rules(game):
    """A game's rules summary (seeds/<game>/rules.md), rendered, with a table of contents."""
    spec = _game(game).spec
    path = _rules_file(spec.name)
    if not path.is_file():
        abort(404)
    html, contents = rules_md.render(path.read_text(encoding="utf-8"))
    return render_template("web/rules.html", spec=spec, html=html, contents=contents)


def _events_url(match_id: str) -> str | None:
    """The match's Server-Sent Events stream, if this service has one (the live page then
    redraws on its events instead of holding a request open)."""
    for rule in current_app.url_map.iter_rules():
        if rule.rule == "/v1/matches/<match_id>/events" and "GET" in rule.methods:
            return f"/v1/matches/{match_id}/events"
    return None


def _rules_file(game: str):
    return seeds_dir() / game / "rules.md"


@blp.get("/matches/<match_id>")
@requires(ANYONE)
def match(match_id):
    """A match: live while it runs; a finished one can be stepped through (`?move=N`)."""
    meta, live = _load(match_id)
    summary = service().summary(meta, live, None)
    step = request.args.get("move", type=int)
    if _replayable(meta, live):
        step = live.version if step is None else max(0, min(step, live.version))
    else:
        step = None
    moves = log_entries(match_id, meta.game, None)
    return render_template("web/match.html", m=summary, step=step, events=_events_url(match_id),
                           moves=moves, board=_board(meta, live, summary, None, step, None, moves),
                           debug=_debug_url(meta))


def _debug_url(meta) -> str | None:
    """The page of the bots' debug texts beside this match, when a plug-in serves one (the
    arena's, for matches with a registered bot seat); it shows each caller only what it may."""
    if "arena_web.match_debug" not in current_app.view_functions:
        return None
    if not any(str(seat.get("kind", "")).startswith("bot:") for seat in meta.seats):
        return None
    return url_for("arena_web.match_debug", match_id=meta.id)


@blp.get("/matches/<match_id>/seat")
@requires(ANYONE)
def seat_page(match_id):
    """A seat's own view: the page's script reads the token from the URL fragment."""
    meta, live = _load(match_id)
    summary = service().summary(meta, live, None)
    return render_template("web/seat.html", m=summary, events=_events_url(match_id),
                           hides=SEAT_HIDES.get(meta.game, "what the game hides from the others"))


@blp.get("/matches/<match_id>/board")
@requires(ANYONE)
def board(match_id):
    """The board, seats, turn and moves as an HTML fragment, for live pages.

    `after=V`: hold the answer (up to LIVE_WAIT_S) until the match moves past version V.
    With `Authorization: Bearer <seat token>`, that seat's view; otherwise the spectator's.
    """
    svc = service()
    meta, live = _load(match_id)
    viewer = _viewer(meta)
    after = request.args.get("after", type=int)
    if after is not None and live.status == ACTIVE and live.version <= after:
        wait = min(LIVE_WAIT_S, svc.settings.max_wait_seconds)
        live = svc.store.wait_for_change(match_id, live.version, wait) or live
    summary = svc.summary(meta, live, viewer)
    moves = log_entries(match_id, meta.game, viewer)
    html = render_template("web/_live.html", m=summary, step=None, moves=moves,
                           board=_board(meta, live, summary, viewer, None, None, moves))
    return html, 200, {"X-Version": str(live.version), "X-Status": live.status,
                       "Cache-Control": "no-store"}


@blp.get("/matches/<match_id>/frame/<int:step>")
@blp.get("/matches/<match_id>/frame/<perspective>/<int:step>")
@requires(ANYONE)
def frame(match_id, step, perspective="spectator"):
    """The board after `step` moves of a finished match (anyone may ask), as the spectator
    saw it, as seat N saw it (`seatN`: its hand too) or with every seat's hidden part shown
    (`all`). Only once the match is over (and every match sharing its seed): its hidden
    information is then no longer secret; while it runs no frame is served at all."""
    meta, live = _load(match_id)
    if not _replayable(meta, live):
        abort(409, "replay frames are served for finished matches only (and, in a duplicate "
                   "event, once every match sharing the seed is over)")
    seats = _perspective(perspective, meta.players)
    summary = service().summary(meta, live, None)
    step = max(0, min(step, live.version))
    moves = log_entries(match_id, meta.game, None)  # over: every move is public by now
    return render_template("web/_frame.html", m=summary, step=step,
                           board=_board(meta, live, summary, None, step, seats, moves))


def _perspective(name: str, players: int) -> list | None:
    """`spectator` -> None; `seatN` -> [N]; `all` -> every seat."""
    if name == "spectator":
        return None
    if name == "all":
        return list(range(players))
    seat = name.removeprefix("seat")
    if name.startswith("seat") and seat.isdigit() and int(seat) < players:
        return [int(seat)]
    abort(404, f"no perspective {name!r}: spectator, all or seat0..seat{players - 1}")


def _replayable(meta, live) -> bool:
    """Whether anyone may step through the match: it is over, and so is every match that
    shares its seed (whose future a replay would tell: referee/service/disclosure.py)."""
    return live.status != ACTIVE and not service().twins_running(meta)


WITHHELD = Markup('<p class="withheld" id="withheld">The board is not shown while other '
                  'matches dealt from the same seed are running (a duplicate event): it '
                  'would tell their future. It appears when they are all over.</p>')


DEALING = Markup('<p class="withheld" id="withheld">The table is being set up: the board '
                 'appears once the organiser has entered the set-up\'s chance outcomes.</p>')


def _board(meta, live, summary: dict, viewer, step, seats=None, moves=None) -> dict:
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
        {**d, "name": ctx.name(d["seat"]), "words": _decision_words(meta.game, d)}
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


def _decision_words(game: str, decision: dict) -> str:
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


def _viewer(meta):
    header = request.headers.get("Authorization", "")
    token = header[7:].strip() if header.lower().startswith("bearer ") else ""
    if not token.startswith("st_"):  # no seat token (an account key is no seat): a spectator
        return None
    return service().seat_of(meta, token)  # not this match's: 403 auth.token_invalid


def _load(match_id):
    try:
        return service().load(match_id)
    except RefereeError:
        abort(404, f"no match {match_id}")


def _game(name):
    try:
        return service().games.get(name)
    except RefereeError:
        abort(404, f"no game {name}")


@blp.app_context_processor
def navigation():
    """The header's links: the pages this app has (the arena's only when it is plugged in)."""
    pages = [("Tournaments", "arena_web.tournaments"), ("Bots", "arena_web.bots_list"),
             ("Bot protocol", "arena_web.protocol")]
    links = [(label, url_for(endpoint)) for label, endpoint in pages
             if endpoint in current_app.view_functions]
    links.append(("Docs", "/docs"))
    if _has("openapi_swagger_ui"):
        links.append(("API docs", "/v1/docs"))
    return {"nav_links": links}


@blp.app_template_filter("swatch")
def swatch(cell):
    """A (colour, label) cell as a coloured chip (with the seat's number when the label names
    one) and its label; anything else as text."""
    if isinstance(cell, tuple) and len(cell) == 2:
        seat = SEAT_IN_LABEL.search(str(cell[1]))
        return chip(cell[0], seat.group(1) if seat else "") + Markup(" ") + cell[1]
    return cell


@blp.app_template_filter("chip")
def seat_chip(colour, seat=""):
    """A seat's colour chip with its number on it."""
    return chip(colour, seat)
