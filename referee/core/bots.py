"""Builtin bots that the referee itself plays: deterministic from the match seed."""

from __future__ import annotations

from referee.core.game import Game
from referee.core.rng import Rng


def random_move(game: Game, state, seat: int, seed: int, version: int) -> dict:
    """A uniformly random legal move, drawn from (seed, version, seat) so replays repeat it."""
    moves = game.legal_moves(state, seat)
    if not moves:
        raise RuntimeError(f"{game.spec.name}: seat {seat} is pending but has no legal move")
    return Rng(seed, f"bot:random:{seat}", version).choice(moves)


BUILTIN_BOTS = {"random": random_move}
"""Builtin policies by name; a seat `builtin:<name>` is played by `BUILTIN_BOTS[name]`."""
