"""Random playouts through the checked engine path: used by golden replays and benchmarks."""

from __future__ import annotations

from referee.core import engine
from referee.core.bots import random_move
from referee.core.game import Game


def random_playout(game: Game, players: int, options: dict | None, seed: int,
                   max_moves: int = 100_000):
    """Play a match to the end with builtin random bots; returns (options, final state, log).

    The seat that moves is the first pending one, so the log is a pure function of the seed.
    """
    options, state = engine.start(game, players, options, seed)
    log = []
    while len(log) < max_moves:
        decisions = game.pending(state)
        if not decisions:
            return options, state, log
        seat = decisions[0].seat
        move = random_move(game, state, seat, seed, len(log))
        state, _ = engine.play(game, state, len(log), seat, move)
        log.append((seat, move))
    raise RuntimeError(f"{game.spec.name}: no end after {max_moves} moves (seed {seed})")
