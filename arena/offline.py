"""Matches and tournaments without any server: the same engine, bot client, runner and log
format as the service, over a private in-process store, driven in this thread.

A bot given by URL is registered in that private store under the secret it already has, so it
accepts our signed calls: `URL@SECRET_FILE` names the file; otherwise the bot kit's own store
(`referee_client.botkit.secret_store`, `<name>.secret` for the name the bot gives at `GET /`)
is read when it holds one. A bot with no secret at all checks no signature.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from pathlib import Path

from arena.parts import arena_parts
from arena.service import Arena
from referee.service import runner
from referee.service.config import Settings
from referee.service.context import assemble
from referee.service.drivers import split_kind
from referee.service.plugins import Plugin, ServiceHooks
from referee.service.store import MatchStatus
from referee_client.botkit.secret_store import default_secret_file


@dataclass
class OfflineBot:
    """A bot entered by URL: its id in the private store, and where its secret came from."""

    id: str
    url: str
    name: str
    secret_from: str | None   # a file path, or None when no secret was found (unsigned calls)
    looked_in: str = ""       # the kit's default file, when it was looked for


def offline_arena(plugins=None) -> Arena:
    """An arena over a fresh in-process store; nothing is queued, everything runs inline
    (`plugins`: more plug-ins beside the arena, e.g. the in-process function seats)."""
    settings = Settings(redis_url=None, key_prefix=f"offline-{uuid.uuid4().hex[:8]}")
    service = assemble(settings, [arena_parts(inline=True, loopback=True), COMMITS_PLUGIN,
                                  *(plugins or [])], queued=False)
    return service.extensions["arena"]


def split_entry(entry: str) -> tuple[str, str | None]:
    """`URL@SECRET_FILE` -> (URL, file); a plain URL -> (URL, None). The split is at the last
    `@` after the URL's host part, so `http://host:9001@~/bot.secret` is read as meant."""
    scheme, sep, rest = entry.partition("://")
    if not sep or "@" not in rest:
        return entry, None
    where, _, path = rest.rpartition("@")
    return f"{scheme}://{where}", str(Path(path).expanduser())


def read_secret(path: str) -> str:
    """The secret kept in a file (one line; surrounding blanks dropped)."""
    secret = Path(path).read_text(encoding="utf-8").strip()
    if not secret:
        raise ValueError(f"the secret file {path} is empty")
    return secret


def enter_bot(arena: Arena, game: str, entry: str) -> OfflineBot:
    """Register a bot given as `URL` or `URL@SECRET_FILE` for `game` under its own secret."""
    url, secret_file = split_entry(entry)
    bot = arena.bots.register(None, url, [game], "offline", arena.service.games.names(),
                              once=False)  # issue 11: one URL may be several entrants
    looked_in = ""
    if secret_file is None:
        default = default_secret_file(bot["name"])
        looked_in = str(default)
        secret_file = str(default) if default.is_file() else None
    # no secret found: keep the fresh one, which a bot that has none does not check
    if secret_file is not None:
        bot["secret"] = read_secret(secret_file)
        arena.bots.add(bot)
    return OfflineBot(bot["id"], bot["url"], bot["name"], secret_file, looked_in)


def seat_for(arena: Arena, game: str, entry: str, entered: dict | None = None) -> str:
    """A seat kind for a command-line entry: a bot URL (registered now, `entered` keeps its
    OfflineBot by id) or builtin:<name>."""
    if entry.startswith("builtin:"):
        return entry
    bot = enter_bot(arena, game, entry)
    if entered is not None:
        entered[bot.id] = bot
    return f"bot:{bot.id}"


class _Commits(ServiceHooks):
    """Hears every commit of the offline service and passes it to who listens for a match."""

    def __init__(self):
        self.listeners: dict[str, object] = {}

    def after_commit(self, meta, old, live) -> None:
        """A new version of a match: tell its listener, if any."""
        listener = self.listeners.get(meta.id)
        if listener is not None:
            listener(live)


COMMITS = "offline-commits"
COMMITS_PLUGIN = Plugin(name=COMMITS, attach=lambda service, _settings: _Commits())
"""Lets `run_to_end` follow a match move by move (the runner plays many moves per step)."""


def run_to_end(arena: Arena, match_id: str, each=None) -> None:
    """Play every automated seat of the match until it ends (`each(live)` after every move)."""
    service = arena.service
    commits = service.extensions.get(COMMITS)
    if each is not None and commits is not None:
        commits.listeners[match_id] = each
    try:
        while service.store.live(match_id).status == MatchStatus.ACTIVE:
            if runner.advance(service, match_id) == 0:
                meta, live = service.load(match_id)
                if service.automated_seat(meta, live) is None:
                    raise RuntimeError(f"match {match_id} waits for a remote seat offline")
    finally:
        if commits is not None:
            commits.listeners.pop(match_id, None)


def bot_forfeits(arena: Arena, match_ids: list[str]) -> dict[str, dict]:
    """Per bot id: seats it played and the forfeit records of those it lost by failing."""
    seen: dict[str, dict] = {}
    for match_id in match_ids:
        meta, live = arena.service.load(match_id)
        for seat, info in enumerate(meta.seats):
            prefix, ref = split_kind(info["kind"])
            if prefix != "bot":
                continue
            row = seen.setdefault(ref, {"seats": 0, "forfeits": []})
            row["seats"] += 1
            failure = live.forfeits.get(str(seat))
            if failure is not None and str(failure.get("code", "")).startswith("bot."):
                row["forfeits"].append({**failure, "match": match_id})
    return seen


def failure_hint(failure: dict, bot: OfflineBot | None) -> str:
    """What to do about a bot's forfeit, when we can tell (a refused signature)."""
    if failure.get("code") == "bot.signature_refused":
        if bot is not None and bot.secret_from is None:
            return (f"the bot refused our signature and no secret was found (looked in "
                    f"{bot.looked_in}): pass its secret file as --bot {bot.url}@SECRET_FILE")
        return "the bot refused our signature: is that its current secret file?"
    return ""


def failure_report(arena: Arena, match_ids: list[str], entered: dict) -> tuple[list, bool]:
    """Lines about every bot that forfeited, and whether every bot seat failed (then the
    command says so and exits non-zero: nothing was measured of the bots)."""
    rows = bot_forfeits(arena, match_ids)
    lines = []
    for ref, row in rows.items():
        if not row["forfeits"]:
            continue
        first = row["forfeits"][0]
        bot = entered.get(ref)
        name = bot.name if bot else ref
        what = ", ".join(f"{k} {first[k]}" for k in ("status", "phase", "detail") if k in first)
        hint = failure_hint(first, bot)
        lines.append(f"bot {name} ({bot.url if bot else ref}) forfeited {len(row['forfeits'])}"
                     f" of {row['seats']} seats: {first['code']}" + (f" ({what})" if what else "")
                     + (f"; {hint}" if hint else ""))
    all_failed = bool(rows) and all(len(r["forfeits"]) == r["seats"] for r in rows.values())
    return lines, all_failed
