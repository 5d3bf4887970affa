"""What the offline commands say while they work, and what `--out` keeps.

Progress is plain lines on standard error (one per tournament match, with the running
standings; one every few seconds of a long single match): they read the same in a terminal, a
CI log or a pipe, which a redrawn bar does not, and need no dependency.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from arena import ratings
from referee.service.records import to_jsonl

TOP = 5
"""How many entrants the running standings show on a progress line."""


def ordinal(place: int) -> str:
    """1 -> 1st, 2 -> 2nd, 11 -> 11th."""
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


class TournamentProgress:
    """A line per finished match: its seats' places and scores, then the standings so far
    (folded match by match in creation order, as the final table is)."""

    def __init__(self, arena, total: int, stream=None):
        self.arena, self.total, self.stream = arena, total, stream or sys.stderr
        self.table: dict = {}
        self.done, self.started = 0, time.monotonic()

    def match_done(self, match_id: str) -> str:
        """Fold the match's result in and print (and return) its line."""
        self.done += 1
        meta, live = self.arena.service.load(match_id)
        record = self.arena.tournaments.result_of(match_id)
        if record is not None:
            ratings.apply(self.table, record)
        line = f"[{self.done:>{len(str(self.total))}}/{self.total}] " \
               f"{time.monotonic() - self.started:6.1f}s  {self._seats(meta, live)}"
        if self.table:
            line += "  | ordinal: " + ", ".join(f"{self.arena.entrant_name(r['entrant'])} "
                                       f"{r['ordinal']:.1f}"
                                       for r in ratings.standings(self.table)[:TOP])
        print(line, file=self.stream, flush=True)
        return line

    def _seats(self, meta, live) -> str:
        entrants = meta.labels.get("entrants") or [s.get("name") for s in meta.seats]
        failures = live.forfeits
        parts = []
        for seat, entrant in enumerate(entrants):
            name = self.arena.entrant_name(entrant)
            place = ordinal(live.result["ranks"][seat]) if live.result else "-"
            failed = f" ({failures[str(seat)]['code']})" if str(seat) in failures else ""
            parts.append(f"{name} {place}{failed}")
        return f"seed {meta.seed}: " + ", ".join(parts)


class MatchProgress:
    """For one long match: a line every `every` seconds (never for a quick match)."""

    def __init__(self, every: float, stream=None):
        self.every, self.stream = every, stream or sys.stderr
        self.started = self.last = time.monotonic()

    def __call__(self, live) -> None:
        now = time.monotonic()
        if self.every > 0 and now - self.last >= self.every:
            self.last = now
            print(f"... {live.version} moves, {now - self.started:.1f}s", file=self.stream,
                  flush=True)


def out_paths(out: str) -> tuple[Path, Path]:
    """Where `--out` puts the standings and the match logs: a folder gets standings.json and
    matches/; a path ending in .json is the standings, with the logs in <stem>.matches/."""
    path = Path(out)
    if path.suffix == ".json":
        return path, path.with_suffix(".matches")
    return path / "standings.json", path / "matches"


def write_tournament(arena, final: dict, out: str) -> Path:
    """Write the standings (with every match's result) and each match's JSON Lines log,
    `<index>-<match id>.jsonl`; returns the folder of logs."""
    standings_path, logs = out_paths(out)
    logs.mkdir(parents=True, exist_ok=True)
    standings_path.parent.mkdir(parents=True, exist_ok=True)
    files = []
    width = len(str(len(final["matches"])))
    for index, match_id in enumerate(final["matches"]):
        name = f"{index:0{width}d}-{match_id}.jsonl"
        (logs / name).write_text(to_jsonl(arena.service.log(match_id, None)), encoding="utf-8")
        files.append(str(Path(logs.name) / name))
    results = [arena.tournaments.result_of(m) for m in final["matches"]]
    standings_path.write_text(json.dumps({"tournament": final, "results": results,
                                          "logs": files}, indent=1), encoding="utf-8")
    return logs
