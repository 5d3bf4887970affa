"""Helpers for the issue-11 tests: bots that hold a match open, and a stranger's reading."""

from __future__ import annotations

import json
import threading

from tests.support.bots import BotServer, deterministic_choice


class Gate:
    """A bot behaviour that holds every move of seat `seat` from version `from_version` on
    until `open()` (so the match it sits in stays running while the test looks), and plays
    deterministically otherwise."""

    def __init__(self, seat: int, hold_s: float = 90.0, from_version: int = 0):
        self.seat, self.hold_s, self.from_version = seat, hold_s, from_version
        self.released = threading.Event()
        self.held: list[dict] = []   # the requests it is holding or held, in order

    def __call__(self, request: dict):
        if request["seat"] == self.seat and request["version"] >= self.from_version \
                and not self.released.is_set():
            self.held.append(request)
            self.released.wait(self.hold_s)
        return 200, json.dumps({"move": deterministic_choice(request)}).encode()

    def open(self) -> None:
        """Let every held move through, and every later one at once."""
        self.released.set()


class IllegalFirst:
    """A bot behaviour that answers the first move of each match with `bad(request)` (an
    illegal move), then plays deterministically."""

    def __init__(self, bad):
        self.bad, self.seen = bad, set()

    def __call__(self, request: dict):
        key = (request["match"], request["seat"])
        if key not in self.seen:
            self.seen.add(key)
            return 200, json.dumps({"move": self.bad(request)}).encode()
        return 200, json.dumps({"move": deterministic_choice(request)}).encode()


def stranger_get_urls(app, ids: dict) -> list[str]:
    """Every GET route of the app's url_map, filled with `ids` (argument name -> values):
    what anyone without a secret can ask. An argument the test does not know fails it, so a
    new route is looked at when it is added."""
    urls = []
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or rule.endpoint == "static":
            continue
        variants = [{}]
        for arg in rule.arguments:
            assert arg in ids, f"the leak test does not know how to fill {arg!r} in {rule}"
            variants = [{**v, arg: value} for v in variants for value in ids[arg]]
        for values in variants:
            url = rule.rule
            for arg, value in values.items():
                url = url.replace(f"<{arg}>", str(value))
            urls.append(url)
    return urls


def ints_in(value) -> set:
    """Every integer anywhere in a JSON value."""
    found = set()
    if isinstance(value, bool):
        return found
    if isinstance(value, int):
        found.add(value)
    elif isinstance(value, dict):
        for item in value.values():
            found |= ints_in(item)
    elif isinstance(value, list):
        for item in value:
            found |= ints_in(item)
    return found


def make_bot(started: list, behaviour, games) -> BotServer:
    """A bot server the test stops afterwards."""
    bot = BotServer(behaviour, games=tuple(games))
    started.append(bot)
    return bot
