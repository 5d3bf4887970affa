"""Finished matches leave the hot store: after `retention` they move into a compressed archive.

A finished match is noted in the `finished` index (indexes.py, scored by when it ended). The
janitor moves each one older than the retention period (REFEREE_RETENTION_DAYS, default 30)
into one key, `<prefix>:archive:{<id>}` (the match's hash tag: its slot): its meta, final live record and log as zlib-compressed JSON (in
base64, since the store's client reads text). The hot
keys (meta, live, ver, log, idem) go, and the match leaves the matches index and every work
list. Reads fall back to the archive (MatchStore.meta/live/log), so GET …/log, GET /v1/matches/
{id} and replays keep working for archived matches; only the list of matches no longer shows
them. The archive has no expiry: it is the permanent record, a few KB a match.
"""

from __future__ import annotations

import base64
import json
import zlib
from collections import OrderedDict

_DUMPS = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
_HOT_PARTS = ("meta", "live", "ver", "log", "idem", "runner", "started", "resume-job")


class Archive:
    """The archive of one store (same Redis, same prefix)."""

    def __init__(self, client, prefix: str, indexes, cache_size: int = 256):
        self.redis, self.prefix, self.indexes = client, prefix, indexes
        self._cache: OrderedDict = OrderedDict()
        self._cache_size = cache_size

    def key(self, match_id: str) -> str:
        """The archive key of one match."""
        return f"{self.prefix}:archive:{{{match_id}}}"

    def mark_finished(self, match_id: str, at: float) -> None:
        """Note that `match_id` ended at `at` (it is archived `retention` later)."""
        self.indexes.add_scored("finished", match_id, at)

    def due(self, before: float, limit: int = 500) -> list[str]:
        """Finished matches that ended before `before`, oldest first."""
        return self.indexes.scored_upto("finished", before, limit)

    def read(self, match_id: str) -> dict | None:
        """The archived record {meta, live, log} of `match_id`, or None."""
        record = self._cache.get(match_id)
        if record is not None:
            return record
        raw = self.redis.get(self.key(match_id))
        if raw is None:
            return None
        record = json.loads(zlib.decompress(base64.b64decode(raw)))
        self._cache[match_id] = record
        if len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return record

    def move_out(self, store, match_id: str) -> int:
        """Archive one finished match and drop its hot keys; the archived size in bytes."""
        meta = self.redis.get(store.key(match_id, "meta"))
        live = self.redis.get(store.key(match_id, "live"))
        if meta is None or live is None:   # gone, or archived by a janitor that then died
            self.indexes.drop(match_id)
            return 0
        log = self.redis.lrange(store.key(match_id, "log"), 0, -1)
        record = "".join(['{"meta":', _text(meta), ',"live":', _text(live), ',"log":[',
                          ",".join(_text(e) for e in log), "]}"])
        blob = base64.b64encode(zlib.compress(record.encode("utf-8"), 9)).decode("ascii")
        pipe = self.redis.pipeline(transaction=True)   # one slot: the match's tag
        pipe.set(self.key(match_id), blob)
        pipe.delete(*(store.key(match_id, part) for part in _HOT_PARTS))
        pipe.execute()
        # the indexes are in other slots: dropped after, so that a crash in between leaves
        # the match on the finished list, and the next sweep drops it (above)
        self.indexes.drop(match_id)
        return len(blob)


def _text(raw) -> str:
    return raw.decode("utf-8") if isinstance(raw, bytes) else raw
