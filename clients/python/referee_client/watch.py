"""`python -m referee_client.watch MATCH_ID`: follow a live match, or replay a finished one,
in the terminal with the game's renderer, from its id alone.

    python -m referee_client.watch 3f2a9c0d1e2b4a5f --url http://127.0.0.1:8000
    python -m referee_client.watch 3f2a9c0d1e2b4a5f --replay --delay 0.2

    from referee_client.watch import watch
    final = watch("3f2a9c0d1e2b4a5f", "http://127.0.0.1:8000")   # the match when it is over

It reads only what any spectator may: GET /v1/matches/{id} (the spectator's view), its log
(moves hidden from spectators stay hidden until the match is over) and the game's
description. No token is needed and nothing is changed.
"""

from __future__ import annotations

import argparse
import sys
import time

import requests

from referee_client.client import DEFAULT_URL, Client
from referee_client.errors import AuthError, RefereeError
from referee_client.render import renderer_for

DELAY = 0.5
"""Seconds between replayed moves, and between looks at a live match."""
LONG_POLL = 30.0
"""How long one spectator long poll may wait, where the service offers one."""


class Watcher:
    """Shows one match to a spectator: `follow()` it live or `replay()` it once over."""

    def __init__(self, client: Client, match_id: str, out=None, delay: float = DELAY,
                 boards: bool = True):
        self.client, self.match_id, self.delay, self.boards = client, match_id, delay, boards
        self.out = out or sys.stdout
        self.match = client.match(match_id)  # raises MatchError (match.not_found) first
        self.game = self.match["game"]
        self.renderer = renderer_for(self.game, client.game(self.game))
        self.shown_version = -1  # moves up to this version are on screen
        self.hidden: set[int] = set()  # versions of moves shown as hidden (revealed at the end)
        self._long_poll: bool | None = None  # unknown until tried

    def say(self, text: str = "") -> None:
        """Write a line (or several)."""
        self.out.write(text + "\n")
        self.out.flush()

    def follow(self) -> dict:
        """Show every move and the table as the match goes on, until it ends; the match."""
        self.say(f"watching {self.game} match {self.match_id} as a spectator (hidden "
                 f"information stays hidden); Ctrl-C stops watching, not the match")
        version = None
        while True:
            self.match = self.client.match(self.match_id)
            if self.match["version"] != version:
                version = self.match["version"]
                self._show_new_moves()
                self._show_table()
            if self.match["status"] == "active":
                self._wait()
                continue
            return self._finish()

    def replay(self) -> dict:
        """Every move of a finished match, `delay` s apart, then the final table; the match.
        A match still running is followed live instead."""
        if self.match["status"] == "active":
            self.say(f"match {self.match_id} is still running: following it live")
            return self.follow()
        record = self.client.log(self.match_id)
        self.say(f"replay of {self.game} match {self.match_id}: {len(record['moves'])} "
                 f"moves, seed {record.get('seed')}, rules version "
                 f"{record.get('rules_version')}")
        for entry in record["moves"]:
            self.say(self.move_line(entry))
            if self.delay:
                time.sleep(self.delay)
        self._show_table()
        return self._finish()

    def move_line(self, entry: dict) -> str:
        """One logged move: `v12 seat 1: <the move in words>` (hidden ones say so)."""
        move = entry.get("move")
        text = self.renderer.move(move) if isinstance(move, dict) else "(a hidden move)"
        by = " (played by the referee)" if entry.get("by") == "referee" else ""
        return f"v{entry.get('version')} seat {entry.get('seat')}{by}: {text}"

    def _show_new_moves(self) -> None:
        for entry in self.client.log(self.match_id)["moves"]:
            if entry.get("version", -1) > self.shown_version:
                self.say(self.move_line(entry))
                self.shown_version = entry["version"]
                if not isinstance(entry.get("move"), dict):
                    self.hidden.add(entry["version"])

    def _show_table(self) -> None:
        if self.boards and self.match.get("view") is not None:
            self.say(self.renderer.view(self.match["view"], None))
        acting = ", ".join(f"seat {t['seat']} ({t.get('decision', '?')})"
                           for t in self.match.get("to_act") or [])
        self.say(f"--- version {self.match['version']}, {self.match['status']}"
                 + (f"; to act: {acting}" if acting else "") + " ---")

    def _wait(self) -> None:
        """Until the match may have changed: a spectator long poll where the service offers
        one, else `delay` s (the prompt long poll needs a seat token on this service)."""
        if self._long_poll is not False:
            try:
                self.client.request("GET", f"/matches/{self.match_id}/prompt",
                                    params={"wait": LONG_POLL}, timeout=LONG_POLL + 10)
                self._long_poll = True
                return
            except AuthError:
                self._long_poll = False
        time.sleep(self.delay or DELAY)

    def _finish(self) -> dict:
        if self.hidden:  # the log shows every move once the match is over
            revealed = [e for e in self.client.log(self.match_id)["moves"]
                        if e.get("version") in self.hidden and isinstance(e.get("move"), dict)]
            if revealed:
                self.say("the hidden moves, revealed now that the match is over:")
                for entry in revealed:
                    self.say("  " + self.move_line(entry))
        self.say(f"=== match {self.match_id} is {self.match['status']} ===")
        self.say(self.renderer.result(self.match.get("result"), self.match.get("seats")))
        self.say(f"the record: {self.client.url}/matches/{self.match_id}/log")
        return self.match


def watch(match_id: str, url: str = DEFAULT_URL, *, replay: bool = False,
          delay: float = DELAY, out=None, boards: bool = True) -> dict:
    """Follow match `match_id` live (or replay it, if over and `replay`); the final match."""
    watcher = Watcher(Client(url), match_id, out=out, delay=delay, boards=boards)
    return watcher.replay() if replay else watcher.follow()


def build_parser() -> argparse.ArgumentParser:
    """The options of `python -m referee_client.watch`."""
    parser = argparse.ArgumentParser(prog="python -m referee_client.watch",
                                     description="Follow a live match, or replay a finished "
                                                 "one, as a spectator.")
    parser.add_argument("match", help="the match id")
    parser.add_argument("--url", default=DEFAULT_URL, help="the service")
    parser.add_argument("--replay", action="store_true",
                        help="replay a finished match move by move (a live one is followed)")
    parser.add_argument("--delay", type=float, default=DELAY,
                        help=f"seconds between replayed moves and between looks at a live "
                             f"match (default {DELAY})")
    parser.add_argument("--no-board", action="store_true", help="moves only, no table")
    return parser


def main(argv=None, stdout=None) -> int:
    """Run the watcher; the exit status (0 once the match is over)."""
    args = build_parser().parse_args(argv)
    try:
        watch(args.match, args.url, replay=args.replay, delay=args.delay, out=stdout,
              boards=not args.no_board)
    except RefereeError as err:
        print(f"error: {err.code}: {err.message}", file=sys.stderr)
        return 1
    except requests.ConnectionError:
        print(f"cannot reach the service at {args.url}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
