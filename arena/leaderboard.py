"""Per-game leaderboards in Redis, fed by finished rated matches in a deterministic order.

Every rated match gets a sequence number per game when it is created. Results are applied
in that order (a match finishing early waits for the ones before it), so the table does not
depend on which worker finished first, but only up to a deadline: a rated match that is not
over `deadline_s` after its creation (defaults.RATING_DEADLINE_S, $REFEREE_RATING_DEADLINE_S)
stops holding the others back: it is passed over ("late"), later results are applied, and its
own result is applied when it arrives, after whatever was applied by then, marked
`"late": true`. The applied results are kept as a list in the order applied, and folding that
list again (`recompute`) must give the stored table exactly.
"""

from __future__ import annotations

import json
import threading
import time

from arena import confidence, ratings
from referee.service import defaults
from referee.service.lease import Lease
from referee.service.store import MatchStatus


HISTORY_POINTS = 500
"""Points per entrant a rating history keeps at least (about twice that at most)."""


class Leaderboards:
    """Leaderboards under `<prefix>:lb:<game>:…`."""

    def __init__(self, redis, prefix: str, deadline_s: float | None = None):
        self.redis, self.prefix = redis, prefix
        self.deadline_s = defaults.RATING_DEADLINE_S if deadline_s is None else deadline_s
        self._histories: dict = {}   # game -> (results folded, table, series): see history
        self._history_lock = threading.Lock()
        self._batches: dict = {}   # game -> (results fitted, batch Elo): see batch

    def _key(self, game: str, part: str) -> str:
        return f"{self.prefix}:lb:{game}:{part}"

    def next_seq(self, game: str) -> int:
        """The sequence number of a new rated match of `game` (its issue time kept for the
        deadline)."""
        seq = int(self.redis.incr(self._key(game, "seq")))
        self.redis.hset(self._key(game, "issued"), seq, time.time())
        return seq

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
        return bool(self.redis.hexists(self._key(game, "done"), mark + 1)) or \
            self._overdue(game, mark + 1) or bool(self._late_arrivals(game))

    def _overdue(self, game: str, seq: int) -> bool:
        issued = self.redis.hget(self._key(game, "issued"), seq)
        return issued is not None and time.time() - float(issued) > self.deadline_s

    def _late_arrivals(self, game: str) -> list:
        """Passed-over matches whose result has arrived since: (seq, raw result)."""
        late = sorted(int(s) for s in self.redis.hkeys(self._key(game, "late")))
        raws = self.redis.hmget(self._key(game, "done"), late) if late else []
        return [(s, raw) for s, raw in zip(late, raws) if raw is not None]

    def _apply_ready(self, game: str) -> int:
        mark = int(self.redis.get(self._key(game, "watermark")) or 0)
        raw_table = self.redis.get(self._key(game, "table"))
        table = json.loads(raw_table) if raw_table else {}
        applied, passed, arrived = [], [], self._late_arrivals(game)
        for _seq, raw in arrived:
            result = json.loads(raw)
            if not result.get("skip"):
                ratings.apply(table, {**result, "late": True})
                applied.append(json.dumps({**result, "late": True}))
        while True:
            raw = self.redis.hget(self._key(game, "done"), mark + 1)
            if raw is None:
                if not self._overdue(game, mark + 1):
                    break
                passed.append(mark + 1)  # over its deadline: the rest go on without it
                mark += 1
                continue
            mark += 1
            result = json.loads(raw)
            if not result.get("skip"):
                ratings.apply(table, result)
                applied.append(raw)
        if mark:
            pipe = self.redis.pipeline()
            if applied:
                pipe.rpush(self._key(game, "applied"), *applied)
            if passed:
                pipe.hset(self._key(game, "late"), mapping={s: 1 for s in passed})
            if arrived:
                pipe.hdel(self._key(game, "late"), *[s for s, _ in arrived])
            pipe.set(self._key(game, "table"), json.dumps(table))
            pipe.set(self._key(game, "watermark"), mark)
            pipe.execute()
        return len(applied)

    def table(self, game: str) -> dict:
        """The stored table: entrant -> figures."""
        raw = self.redis.get(self._key(game, "table"))
        return json.loads(raw) if raw else {}

    def applied_results(self, game: str, start: int = 0) -> list[dict]:
        """Every applied result from the `start`-th on, in the order applied."""
        return [json.loads(r) for r in self.redis.lrange(self._key(game, "applied"), start, -1)]

    def history(self, game: str) -> dict:
        """Entrant -> [(results applied so far, ordinal mu - 3 sigma)] after each of its
        matches, at most about 2 x HISTORY_POINTS points each (every other one dropped when
        there are more). Kept in this process and extended by the results applied since: a
        page view folded every rated result ever, ~0.1 ms each."""
        with self._history_lock:
            count, table, series = self._histories.get(game, (0, {}, {}))
            new = self.applied_results(game, count)
            if not new and count and not self.redis.exists(self._key(game, "applied")):
                count, table, series = 0, {}, {}   # the results are gone (a reset store)
            for index, result in enumerate(new, count + 1):
                ratings.apply(table, result)
                for entrant in result["entrants"]:
                    row, points = table[entrant], series.setdefault(entrant, [])
                    points.append((index, row["mu"] - 3 * row["sigma"]))
                    if len(points) >= 2 * HISTORY_POINTS:
                        del points[1:-1:2]   # the first and the last stay
            self._histories[game] = (count + len(new), table, series)
            return {entrant: list(points) for entrant, points in series.items()}

    def batch(self, game: str) -> dict:
        """Entrant -> batch Plackett-Luce strength (Elo scale) over every applied result
        (arena/confidence.py); refitted in this process only when results were applied."""
        count = int(self.redis.llen(self._key(game, "applied")))
        kept = self._batches.get(game)
        if kept is None or kept[0] != count:
            kept = (count, confidence.batch_elo(self.applied_results(game)))
            self._batches[game] = kept
        return kept[1]

    def recompute(self, game: str) -> dict:
        """The table folded again from the stored results (must equal `table`)."""
        return ratings.fold(self.applied_results(game))

    def status(self, game: str) -> dict:
        """How far the table is: sequence numbers issued, applied, and waiting."""
        return self.snapshot(game)[1]

    def snapshot(self, game: str) -> tuple[dict, dict]:
        """The table and its status as of one moment (`table`, `status`): read in one
        MULTI, so a reader never pairs a table from before an application with a status
        from after it (a late result counted as applied but missing from the table)."""
        pipe = self.redis.pipeline(transaction=True)
        for name in ("table", "seq", "watermark"):
            pipe.get(self._key(game, name))
        pipe.hlen(self._key(game, "done"))
        pipe.hlen(self._key(game, "late"))
        raw_table, issued, mark, done, late = pipe.execute()
        issued, mark = int(issued or 0), int(mark or 0)
        return json.loads(raw_table) if raw_table else {}, {
            "rated_matches": issued, "applied_through": mark,
            "finished_waiting": max(0, done - mark + late), "in_progress": issued - done,
            "late": late, "deadline_s": self.deadline_s}


def result_record(meta, live, entrants: list[str]) -> dict | None:
    """The rating input of a finished match, or None if it cannot be rated."""
    if live.status != MatchStatus.OVER or not live.result or not ratings.rateable(entrants):
        return None
    failed = sorted({int(s) for s in live.forfeits} | {int(s) for s in live.strikes})
    return {"match": meta.id, "entrants": entrants, "ranks": live.result["ranks"],
            "scores": live.result["scores"], "failed": failed}
