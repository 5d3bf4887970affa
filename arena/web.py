"""The arena's pages: leaderboards, tournaments, bots and the bot protocol.

Who may call what: every page here is public and shows what the public API shows (the
leaderboard, tournament and bot records). A bot's failures are listed by code, version and
match by everyone. Failure details (messages, the bot's own bytes) are the owner's only: the
bot page asks for them with the owner's account key as a header (`/bots/<id>/owner`).
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

from flask import Blueprint, abort, current_app, g, render_template, request

from arena import confidence
from arena.botcheck import last_check
from arena.botdebug import DebugTexts
from arena.bots import SECRET_GRACE_S
from arena.botversions import BotVersions
from arena.protocol_spec import protocol_openapi
from arena.ratings import standings
from arena.web_plot import plot
from referee.core.errors import RefereeError
from referee.service.access import ANYONE, PLAYER, check_owner, requires
from referee.web import rules_md

blp = Blueprint("arena_web", __name__, template_folder="templates", static_folder="static",
                static_url_path="/static/arena")

RECENT_SCAN = 300
"""How many of the newest matches a bot page looks through for that bot's matches."""


def service():
    """The MatchService this app serves."""
    return current_app.extensions["referee"]


def arena():
    """The arena attached to this app's service."""
    return service().extensions["arena"]


def _or_404(read, *args):
    try:
        return read(*args)
    except RefereeError as err:  # unknown game, bot or tournament: a page that is not there
        if err.status == 404:
            abort(404)
        raise


@blp.get("/leaderboards/<game>")
@requires(ANYONE)
def leaderboard(game):
    """A game's ratings table and each entrant's rating over time."""
    name = _or_404(service().games.get, game).spec.name
    boards = arena().leaderboards
    boards.catch_up(name)  # as the API's read does: a match past its deadline is passed over
    table, status = boards.snapshot(name)  # one moment: the rows and their status agree
    rows = standings(table)
    confidence.annotate(rows, boards.batch(name))
    BotVersions(arena().bots).annotate(rows)
    names = {r["entrant"]: arena().entrant_name(r["entrant"]) for r in rows}
    for row in rows:
        row["name"] = names[row["entrant"]]
    chart = plot(boards.history(name), names)
    return render_template("arena/leaderboard.html", game=name, chart=chart, status=status,
                           rows=[r for r in rows if not r["provisional"]
                                 and not r["superseded_by"]],
                           provisional=[r for r in rows if r["provisional"]
                                        and not r["superseded_by"]],
                           earlier=[r for r in rows if r["superseded_by"]],
                           min_games=confidence.MIN_GAMES)


@blp.get("/tournaments")
@requires(ANYONE)
def tournaments():
    """The newest 100 tournaments: game, format, when, status and, once over, the winner
    (the top of its standings, as the tournament's own page shows them)."""
    tours = arena().tournaments
    listed = tours.list()
    for tour in listed:
        tour["created"] = _when(tour.get("created_at"))
        tour["winner"] = None
        if tour["status"] != "running":
            table = tours.get(tour["id"])["standings"]
            tour["winner"] = table[0]["name"] if table else None
    return render_template("arena/tournaments.html", tours=listed)


def _when(stamp) -> str:
    """A Unix time as `2026-12-07 08:30 UTC`."""
    from datetime import datetime, timezone

    if not stamp:
        return "—"
    return datetime.fromtimestamp(stamp, timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


@blp.get("/bots")
@requires(ANYONE)
def bots_list():
    """Every registered bot as the public API lists it (name, author, games, health), with
    its rating on each game's leaderboard; no secret, no address, not the bot's own answer."""
    bots = arena().bots
    records = bots.public_many(bots.get_many(bots.ids(0, 500)))
    ratings = _ratings({g for r in records for g in r.get("games", [])})
    rows = [{"id": r["id"], "name": r["name"], "author": r.get("author") or "",
             "games": r.get("games", []), "status": r["health"].get("status") or "active",
             "matches": r["health"].get("matches", 0),
             "ratings": [(g, ratings.get((g, r["id"]))) for g in r.get("games", [])]}
            for r in records]
    return render_template("arena/bots.html", rows=rows, total=bots.count())


def _ratings(games: set) -> dict:
    """(game, entrant) -> ordinal on that game's leaderboard."""
    found = {}
    for game in sorted(games):
        table, _ = arena().leaderboards.snapshot(game)
        for row in standings(table):
            found[(game, row["entrant"])] = row["ordinal"]
    return found


@blp.get("/tournaments/<tid>")
@requires(ANYONE)
def tournament(tid):
    """Progress, standings, the cross-table and every match of a tournament."""
    tours = arena().tournaments
    tour = _or_404(tours.get, tid)
    # read together, in a few round trips (one by one, a page of 1,000 matches made 3,000);
    # the cross-table counts the results the standings fold, by tournament entrant
    loaded = service().load_many(tour["matches"])
    done = [meta.id for meta, live in loaded if live.status != "active"]
    results = [r for r in tours.results(tid, done) if r]
    matches = [{"index": index, "id": meta.id, "status": live.status, "version": live.version,
                "entrants": tours.entrants_of(meta.id), "ranks": (live.result or {}).get("ranks")}
               for index, (meta, live) in enumerate(loaded)]
    names = {e: arena().entrant_name(e) for e in tour["entrants"]}
    return render_template("arena/tournament.html", t=tour, matches=matches, names=names,
                           cross=cross_table(tour["entrants"], results))


@blp.get("/tournaments/<tid>/sprt")
@requires(ANYONE)
def sprt_live(tid):
    """An sprt tournament's test as it stands (the tournament page's SPRT block, which its
    script fetches every 2 s while the test runs): what the tournament record shows anyone,
    no seed, no match's hidden information; 404 for another format."""
    tour = _or_404(arena().tournaments.get, tid)
    if tour["format"] != "sprt":
        abort(404)
    names = {e: arena().entrant_name(e) for e in tour["entrants"]}
    return render_template("arena/_sprt.html", t=tour, names=names), 200, \
        {"Cache-Control": "no-store"}


def cross_table(entrants: list, results: list[dict]) -> dict:
    """(row entrant, column entrant) -> [wins, losses, draws] of row against column, counting
    every pair of seats at each finished table by their ranks."""
    cells = {(a, b): [0, 0, 0] for a in entrants for b in entrants if a != b}
    for result in results:
        seats = list(zip(result["entrants"], result["ranks"]))
        for a, rank_a in seats:
            for b, rank_b in seats:
                if a != b and (a, b) in cells:
                    cells[(a, b)][0 if rank_a < rank_b else 1 if rank_a > rank_b else 2] += 1
    return cells


@blp.get("/bots/<bot_id>")
@requires(ANYONE)
def bot(bot_id):
    """A bot's health figures, latency percentiles and recent matches with results."""
    bots = arena().bots
    record = bots.public(_or_404(bots.get, bot_id))
    record.pop("info", None)  # the bot's own GET / answer is not ours to republish
    last = record["health"].get("last_error")
    if last:
        record["health"]["last_error"] = {k: last.get(k) for k in ("code", "match", "version",
                                                                  "at")}
    return render_template("arena/bot.html", bot=record, matches=_bot_matches(bot_id),
                           check=last_check(bots, bot_id), checked_at=_when,
                           grace_minutes=SECRET_GRACE_S // 60)


def _bot_matches(bot_id: str) -> list[dict]:
    """The bot's last 30 matches among the RECENT_SCAN newest, read together."""
    svc, kind = service(), f"bot:{bot_id}"
    metas = svc.store.metas(svc.store.list_ids(0, RECENT_SCAN))
    seat_of = {m: seats[0] for m, meta in metas.items()
               if (seats := [i for i, s in enumerate(meta.seats) if s["kind"] == kind])}
    ids = [m for m in metas if m in seat_of][:30]
    found = []
    for meta, live in svc.load_many(ids):
        seat, result = seat_of[meta.id], live.result or {}
        failure = (live.forfeits or {}).get(str(seat))
        found.append({"id": meta.id, "game": meta.game, "seat": seat,
                      "status": live.status, "version": live.version,
                      "rank": (result.get("ranks") or [None] * meta.players)[seat],
                      "players": meta.players,
                      "failure": failure.get("code") if isinstance(failure, dict) else None})
    return found


@blp.get("/bots/<bot_id>/owner")
@requires(PLAYER)
def bot_owner(bot_id):
    """The owner's view of the bot's last failure (what the bot sent with it).

    Who may call: the bot's owner (or an organiser), by the account key in the Authorization
    header, which the access plug-in reads before any route (the bot page's script sends it;
    it is never part of a URL)."""
    bot = _or_404(arena().bots.get, bot_id)
    try:
        check_owner(g.get("caller"), bot.get("owner"), f"bot {bot_id}")
    except RefereeError as err:
        abort(err.status, err.message)
    private = arena().bots.private(bot_id)["last_error"]
    text = json.dumps(private, indent=1, ensure_ascii=False) if private else None
    return render_template("arena/_owner.html", failure=text), 200, \
        {"Cache-Control": "no-store"}


@blp.get("/matches/<match_id>/debug")
@requires(ANYONE)
def match_debug(match_id):
    """The bots' debug texts of a match, move by move, beside its replay or live page.

    Who may call: anyone; each caller sees only its own bots' texts (the account key in the
    Authorization header, sent by a script or client, never in the URL) and, once the match
    is over, those of bots whose owner set `debug_public`; nothing else while it runs.
    `?part=1`: the table alone, which the page's owner form fetches with the key."""
    _, live = _or_404(service().load, match_id)
    bots, who = arena().bots, g.get("caller")
    entries = DebugTexts(bots.redis, bots.prefix).visible(
        match_id, live.status != "active", who.id if who is not None else None,
        lambda b: bots.get(b).get("owner"))
    page = "arena/_debug.html" if request.args.get("part") else "arena/debug.html"
    return render_template(page, match_id=match_id, entries=entries,
                           running=live.status == "active"), 200, {"Cache-Control": "no-store"}


@blp.get("/bot-protocol")
@requires(ANYONE)
def protocol():
    """Bot protocol v1, the endpoints a bot serves, read from its OpenAPI document."""
    doc = protocol_openapi()
    paths = [{"path": path, "method": method.upper(), "summary": op.get("summary", ""),
              "description": op.get("description", ""),
              "headers": [(p["name"], p.get("description", "")) for p in op.get("parameters", [])
                          if isinstance(p, dict) and p.get("in") == "header"]}
             for path, item in doc.get("paths", {}).items()
             for method, op in item.items() if isinstance(op, dict)]
    return render_template("arena/protocol.html", doc=doc, paths=paths,
                           examples=protocol_examples())


PROTOCOL_README = "protocol_files/README.md"
"""clients/protocol/README.md as a wheel carries it (setup.py copies it into arena/)."""


def protocol_readme() -> Path:
    """clients/protocol/README.md: in the checkout beside the package, else the built copy."""
    checkout = Path(__file__).resolve().parents[1] / "clients" / "protocol" / "README.md"
    return checkout if checkout.is_file() else Path(__file__).parent / PROTOCOL_README


@functools.lru_cache(maxsize=1)
def protocol_examples() -> list[dict]:
    """clients/protocol/examples/<game>.json, each kind's decision and answer as indented
    JSON for the /bot-protocol page (the files are static: read once)."""
    folder = protocol_readme().parent / "examples"
    shown = []
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        shown.append({"game": data["game"], "file": f"clients/protocol/examples/{path.name}",
                      "start": json.dumps(data["start"]["request"], indent=1),
                      "kinds": [(kind, json.dumps(ex["request"]["decision"], indent=1),
                                 json.dumps(ex["answer"], indent=1))
                                for kind, ex in data["kinds"].items()]})
    return shown


@blp.get("/bot-protocol/readme")
@requires(ANYONE)
def protocol_page():
    """The protocol's language-neutral page (signatures, registration, refusals, keep-alive),
    rendered from clients/protocol/README.md; static, the same for everyone."""
    path = protocol_readme()
    if not path.is_file():
        abort(404)
    html, contents = rules_md.render(path.read_text(encoding="utf-8"))
    return render_template("arena/protocol_readme.html", html=html, contents=contents)

