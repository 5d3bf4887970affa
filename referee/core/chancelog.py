"""Converting an internal-chance match into its external-chance log: the engine replays the
match with chance traced, so this module uses both the engine and chance (the engine uses
chance, chance never uses the engine)."""

from __future__ import annotations

from referee.core import engine
from referee.core.chance import CHANCE, tracing


def external_log(game, players: int, options: dict | None, seed: int, moves) -> list[tuple]:
    """The external-chance log of an internal match: its moves with the chance moves between."""
    log: list[tuple] = []
    with tracing() as events:
        _, state = engine.start(game, players, options, seed)
        log += _drain(events)
        for version, (seat, move) in enumerate(moves):
            state, _ = engine.play(game, state, version, seat, move)
            log.append((seat, move))
            log += _drain(events)
    return log


def _drain(events: list) -> list[tuple]:
    moves = [(CHANCE, e.move()) for e in events]
    events.clear()
    return moves
