"""The versions an event stream's reader missed, rebuilt from the move log, one by one.

A match stores one live record (its current version) and the log of every move, each entry
saying the version it was made at. A reader behind by a few versions (commits came faster than
it read them, or it reconnected with Last-Event-ID) is sent each missed version as it was: the
game state at the reader's last version (the one it was shown, or a replay of the log from the
set-up when it reconnects), then each logged move applied in turn. A version without a move
(a forfeit recorded) repeats the state before it. Replaying a whole shipped match costs 7-20
ms, so a reconnect costs little more than the events it sends.

The rebuild is bounded by the stream's window (REFEREE_EVENT_WINDOW): a reader that missed
more versions than that gets one `snapshot` of the present instead; so does one whose log does
not lead to the stored state (a match recorded under other rules), rather than versions that
never were.
"""

from __future__ import annotations

from referee.core import engine
from referee.core.errors import RefereeError
from referee.service import fastjson
from referee.service.store import Live, MatchMeta, MatchStatus


def missed_versions(service, meta: MatchMeta, known: tuple | None, after: int, live: Live,
                    log_length: int, window: int) -> list[Live] | None:
    """The live records of versions `after`+1 .. `live.version`-1 (versions between what the
    reader last saw and `live`), rebuilt from the log; None when a snapshot must stand in for
    them (more than `window` missed, or the log does not lead to `live`). `known`: the live
    record at `after` and the log length then, when the stream has them (None: replay)."""
    missed = live.version - after - 1
    if missed <= 0:
        return []
    if missed > window:
        return None
    try:
        return _rebuilt(service, meta, known, after, live, log_length)
    except RefereeError:   # a logged move the game's rules now refuse: not this match's log
        return None


def _rebuilt(service, meta: MatchMeta, known: tuple | None, after: int, live: Live,
             log_length: int) -> list[Live] | None:
    """missed_versions' rebuild, its bounds checked."""
    game = service.games.get(meta.game)
    if known is not None and known[0].version == after:
        base, base_length = known
        state = service.state(meta, base)
        entries = service.store.log(meta.id, base_length)[:log_length - base_length]
        before_at = base.updated_at
    else:
        entries = service.store.log(meta.id)[:log_length]
        state, before_at = _replayed_to(game, meta, entries, after)
        entries = [e for e in entries if e["version"] >= after]
    by_version = {e["version"]: e for e in entries}
    rebuilt = []
    for version in range(after + 1, live.version):
        entry = by_version.get(version - 1)
        if entry is not None:
            state = game.apply(state, entry["seat"], entry["move"])
            before_at = entry["at"]
        rebuilt.append(Live(version=version, status=MatchStatus.ACTIVE.value,
                            state=game.stored(state), pending=[], updated_at=before_at))
    return rebuilt if _leads_to(game, state, by_version.get(live.version - 1), live) else None


def _replayed_to(game, meta: MatchMeta, entries: list[dict], version: int):
    """The game state at `version` (the set-up and the moves logged before it) and when that
    version was made (the time of its last move; the match's creation when none)."""
    _, state = engine.start(game, meta.players, meta.options, meta.seed, meta.chance)
    at = meta.created_at
    for entry in entries:
        if entry["version"] >= version:
            break
        state, at = game.apply(state, entry["seat"], entry["move"]), entry["at"]
    return state, at


def _leads_to(game, state, last_entry: dict | None, live: Live) -> bool:
    """Whether the rebuilt `state`, with `live`'s own move (if it has one) applied, is the
    state stored at `live`: the proof that the rebuilt versions are the match's."""
    if last_entry is not None:
        state = game.apply(state, last_entry["seat"], last_entry["move"])
    return fastjson.loads(fastjson.dumpb(game.stored(state))) == live.state
