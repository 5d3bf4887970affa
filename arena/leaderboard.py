"""Per-game leaderboards in Redis, fed by finished rated matches in a deterministic order.

Every rated match gets a sequence number per game when it is created. Results are applied
strictly in that order (a match finishing early waits for the ones before it), so the table
does not depend on which worker finished first. The applied results are kept as a list, and
folding that list again (`recompute`) must give the stored table exactly.
"""

from __future__ import annotations

import json

from arena import ratings
from referee.service import defaults
from referee.service.lease import Lease
from referee.service.store import MatchStatus


class Leaderboards:
    """Leaderboards under `<prefix>:lb:<game>:…`."""

    def __init__(self, redis, prefix: str):
        self.redis, self.prefix = redis, prefix

    def _key(self, game: str, part: str) -> str:
        return f"{self.prefix}:lb:{game}:{part}"

    def next_seq(self, game: str) -> int:
        """The sequence number of a new rated match of `game`."""
        return int(self.redis.incr(self._key(game, "seq")))

    def finished(self, game: str, seq: int, result: dict | None) -> None:
        """Record a rated match's result (None: not rated after all, e.g. aborted), then
        apply every result that is next in sequence."""
        self.redis.hset(self._key(game, "done"), seq, json.dumps(result or {"skip": True}))
        self.catch_up(game)

    def catch_up(self, game: str) -> int:
        """Apply finished results in sequence order as far as they go; how many applied.

        Whoever holds the lock looks again after releasing it: a result recorded while it
        was applying (by a process that then found the lock taken) is never left behind.
        """
        applied = 0
        while True:
            with Lease(self.redis, self._key(game, "lock"), defaults.LOCK_SECONDS) as held:
                if not held:
                    return applied  # the holder will look again after releasing
                applied += self._apply_ready(game)
            if not self._next_ready(game):
                return applied

    def _next_ready(self, game: str) -> bool:
        mark = int(self.redis.get(self._key(game, "watermark")) or 0)
        return bool(self.redis.hexists(self._key(game, "done"), mark + 1))

    def _apply_ready(self, game: str) -> int:
        mark = int(self.redis.get(self._key(game, "watermark")) or 0)
        raw_table = self.redis.get(self._key(game, "table"))
        table = json.loads(raw_table) if raw_table else {}
        applied = []
        while True:
            raw = self.redis.hget(self._key(game, "done"), mark + 1)
            if raw is None:
                break
            mark += 1
            result = json.loads(raw)
            if not result.get("skip"):
                ratings.apply(table, result)
                applied.append(raw)
        if mark:
            pipe = self.redis.pipeline()
            if applied:
                pipe.rpush(self._key(game, "applied"), *applied)
            pipe.set(self._key(game, "table"), json.dumps(table))
            pipe.set(self._key(game, "watermark"), mark)
            pipe.execute()
        return len(applied)

    def table(self, game: str) -> dict:
        """The stored table: entrant -> figures."""
        raw = self.redis.get(self._key(game, "table"))
        return json.loads(raw) if raw else {}

    def applied_results(self, game: str) -> list[dict]:
        """Every applied result, in the order applied."""
        return [json.loads(r) for r in self.redis.lrange(self._key(game, "applied"), 0, -1)]

    def recompute(self, game: str) -> dict:
        """The table folded again from the stored results (must equal `table`)."""
        return ratings.fold(self.applied_results(game))

    def status(self, game: str) -> dict:
        """How far the table is: sequence numbers issued, applied, and waiting."""
        issued = int(self.redis.get(self._key(game, "seq")) or 0)
        mark = int(self.redis.get(self._key(game, "watermark")) or 0)
        done = self.redis.hlen(self._key(game, "done"))
        return {"rated_matches": issued, "applied_through": mark,
                "finished_waiting": max(0, done - mark), "in_progress": issued - done}


def result_record(meta, live, entrants: list[str]) -> dict | None:
    """The rating input of a finished match, or None if it cannot be rated."""
    if live.status != MatchStatus.OVER or not live.result or not ratings.rateable(entrants):
        return None
    failed = sorted({int(s) for s in live.forfeits} | {int(s) for s in live.strikes})
    return {"match": meta.id, "entrants": entrants, "ranks": live.result["ranks"],
            "scores": live.result["scores"], "failed": failed}
