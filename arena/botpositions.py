"""Real positions for botcheck: one per decision kind of a game, found by playing matches with
the engine (pure: no I/O), deterministically from a seed.

Matches are played at every player count the game takes, with its default options and with
each boolean option turned over (set-up variants ask decisions the default never does), on
seeds from the given one up. Every second match plays "lazily" (the first listed move three
times in four): uniformly random bids in several colours are void in Dschunke, and a lazy
player bids in one colour often enough to win an S reward.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from referee.core import engine
from referee.core.rng import Rng

MAX_MATCHES = 200
"""Matches played at most per game before botcheck gives up on the kinds still unseen."""
MAX_MOVES = 5000
"""Moves played at most per match."""


@dataclass(frozen=True)
class Position:
    """A seat asked a decision of `kind` in a real match: its setup, the state and the
    decision, and where that match ended (for /end)."""

    game: object
    players: int
    options: dict
    seed: int
    version: int
    seat: int
    decision: object
    state: object
    final: object = None   # the match's last state (None: it did not end within MAX_MOVES)

    @property
    def kind(self) -> str:
        """The decision kind."""
        return self.decision.kind


def _setups(game):
    """(players, options) to try: every count the game starts with, default options and each
    boolean option turned over."""
    flips = [{}] + [{o.name: not o.default} for o in game.spec.options if o.kind == "bool"]
    for players in range(1, game.spec.max_players + 1):
        for options in flips:
            yield players, options


def _play(game, players, options, seed, wanted: set, found: dict) -> None:
    """One match to its end; the first position of each wanted kind goes into `found`."""
    try:
        options, state = engine.start(game, players, options, seed)
    except Exception:   # a player count or option this set-up does not take
        return
    lazy, mine, version = seed % 2 == 0, [], 0
    while version < MAX_MOVES:
        pending = game.pending(state)
        if not pending:
            break
        for decision in pending:
            if decision.kind in wanted and decision.kind not in found:
                found[decision.kind] = None   # claimed: the first seen is kept
                mine.append((decision, state, version))
        seat = pending[0].seat
        moves = game.legal_moves(state, seat)
        rng = Rng(seed, "botcheck", version)
        move = moves[0] if lazy and rng.below(4) < 3 else rng.choice(moves)
        state, _ = engine.play(game, state, version, seat, move)
        version += 1
    final = state if not game.pending(state) else None
    for decision, at, v in mine:
        found[decision.kind] = Position(game, players, options, seed, v, decision.seat,
                                        decision, at, final)


@functools.lru_cache(maxsize=16)
def positions(game, seed: int = 1) -> tuple[Position, ...]:
    """One position per decision kind the game declares (in its declared order), as far as
    MAX_MATCHES matches reach; kinds never reached are left out (`missing` says which)."""
    wanted = {k["kind"] for k in game.decision_kinds()}
    found: dict = {}
    played = 0
    while played < MAX_MATCHES and not wanted <= set(found):
        for players, options in _setups(game):
            if wanted <= set(found):
                break
            _play(game, players, options, seed + played, wanted, found)
        played += 1
    return tuple(found[k["kind"]] for k in game.decision_kinds() if found.get(k["kind"]))


def missing(game, found) -> list[str]:
    """The declared decision kinds no position was found for."""
    have = {p.kind for p in found}
    return [k["kind"] for k in game.decision_kinds() if k["kind"] not in have]
