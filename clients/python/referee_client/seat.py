"""One seat of a match played through the REST API with its bearer token (pull mode)."""

from __future__ import annotations

from typing import Callable

from referee_client.errors import MatchError

ASK_AGAIN = ("match.version_stale", "match.busy", "match.over", "match.aborted")
"""Codes after which a pull-mode player asks for a fresh prompt: the match moved on under us
(another seat's sealed move landed between our prompt and our move, or the match ended) or
the commit met contention. The next prompt says what to do, or that the match is over."""


class Seat:
    """A seat's token bound to its match: prompt, move, read, and play to the end."""

    def __init__(self, client, match_id: str, token: str):
        self.client, self.match_id, self.token = client, match_id, token

    def prompt(self, wait: float = 0.0) -> dict:
        """The seat's decision and legal moves, long-polling up to `wait` s."""
        return self.client.prompt(self.match_id, self.token, wait)

    def move(self, move: dict, expected_version: int | None = None) -> dict:
        """Submit a move for this seat."""
        return self.client.move(self.match_id, self.token, move, expected_version)

    def match(self) -> dict:
        """The match as this seat sees it."""
        return self.client.match(self.match_id, self.token)

    def log(self) -> dict:
        """The match record as this seat may see it."""
        return self.client.log(self.match_id, self.token)

    def play(self, choose: Callable[[dict], dict], wait: float = 30.0) -> dict:
        """Answer every prompt with `choose(prompt)` until the match ends; the final match."""
        while True:
            prompt = self.prompt(wait)
            if prompt["status"] != "active":
                return self.match()
            if not prompt["must_act"]:
                continue
            try:
                self.move(choose(prompt), expected_version=prompt["version"])
            except MatchError as err:
                if err.code not in ASK_AGAIN:
                    raise
