"""Building Yunnan states for scenario tests: a fresh set-up patched into the situation wanted."""

from __future__ import annotations

from referee.core import RefereeError, engine
from referee.games.yunnan import GAME
from referee.games.yunnan.board import participants
from referee.games.yunnan.data import NPROV


def new(players: int = 3, seed: int = 0, **options) -> dict:
    """A fresh round-1 state: blue order 0, 1, ... (Dúlì last), 30 coins each, seat 0 to bid."""
    s = GAME.setup(players, GAME.spec.resolve_options(options), seed)
    s["blue"] = list(range(participants(s)))
    s["coins"] = [30] * players
    s["actor"] = 0
    return s


def play(s: dict, move: dict, seat: int | None = None) -> dict:
    """`move` by the actor (or `seat`) through the checked engine path."""
    seat = s["actor"] if seat is None else seat
    return engine.play(GAME, s, 0, seat, move)[0]


def code_of(s: dict, move: dict, seat: int | None = None) -> str:
    """The error code the engine answers `move` with (fails if the move is accepted)."""
    try:
        play(s, move, seat)
    except RefereeError as err:
        return err.code
    raise AssertionError(f"{move} was accepted")


def travel_turn(s: dict, seat: int, grey: list[int] | None = None) -> dict:
    """Put `s` at the start of `seat`'s Build & Travel turn (bids cleared, nothing moved yet)."""
    for row in s["bids"].values():
        for i, owner in enumerate(row):
            if owner is not None:
                row[i] = None
                s["supply"][owner] += 1
    s["phase"], s["step"] = "travel", "travel"
    s["grey"] = grey if grey is not None else list(range(participants(s)))
    s["cursor"], s["actor"] = s["grey"].index(seat), seat
    s["journey"], s["displace_at"], s["passes_used"] = None, None, 0
    s["arrived"] = [0] * NPROV
    return s


def put(s: dict, p: int, where: dict) -> dict:
    """Place `p`'s traders by province name or 'market', taken from its supply and reserve."""
    from referee.games.yunnan.data import PROV_INDEX
    for name, count in where.items():
        for _ in range(count):
            if s["supply"][p]:
                s["supply"][p] -= 1
            else:
                s["reserve"][p] -= 1
            if name == "market":
                s["market"][p] += 1
            else:
                s["traders"][p][PROV_INDEX[name]] += 1
    return s
