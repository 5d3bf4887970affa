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
from referee.web import rules_md
from referee.web.boards.svg import chip
from referee.web.data import ACTIVE, log_entries, match_lists, service
from referee.web.drawn import board_parts
from referee.web.drawn import decision_words as _decision_words  # noqa: F401 (controls, tests)

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
    drawn = board_parts(meta, live, summary, None, step, None, moves)
    return render_template("web/match.html", m=summary, step=step, events=_events_url(match_id),
                           moves=moves, board=drawn, debug=_debug_url(meta))


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
                           board=board_parts(meta, live, summary, viewer, None, None, moves))
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
                           board=board_parts(meta, live, summary, None, step, seats, moves))


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
