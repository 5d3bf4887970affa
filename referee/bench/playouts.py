"""Random playouts per second, per game and player count, through the checked engine path."""

from __future__ import annotations

import time

from referee.core.game import Game
from referee.core.playout import random_playout


def measure(game: Game, players: int, options: dict | None = None, seconds: float = 3.0,
            first_seed: int = 0) -> dict:
    """Run playouts for about `seconds`; return playouts/s, moves/s and moves per playout."""
    start, playouts, moves, seed = time.perf_counter(), 0, 0, first_seed
    while True:
        _, _, log = random_playout(game, players, options, seed)
        playouts, moves, seed = playouts + 1, moves + len(log), seed + 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            break
    return {"game": game.spec.name, "players": players, "options": options or {},
            "playouts": playouts, "seconds": round(elapsed, 3),
            "playouts_per_s": round(playouts / elapsed, 2),
            "moves_per_s": round(moves / elapsed, 1),
            "moves_per_playout": round(moves / playouts, 1),
            "us_per_move": round(elapsed / moves * 1e6, 1)}


def format_row(row: dict) -> str:
    """One printed line of a playout measurement."""
    opts = ",".join(f"{k}={v}" for k, v in row["options"].items()) or "defaults"
    return (f"{row['game']:<12} {row['players']}p {opts:<28} {row['playouts_per_s']:>9.2f} playouts/s"
            f" {row['moves_per_s']:>10.1f} moves/s {row['us_per_move']:>8.1f} us/move"
            f" ({row['moves_per_playout']:.0f} moves/playout, {row['playouts']} playouts)")


def main(argv=None) -> None:
    """`python -m referee.bench.playouts [GAME ...]`: print figures for registered games."""
    import argparse

    from referee.games import GAMES

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games", nargs="*", help="game names (default: all)")
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args(argv)
    for name in args.games or GAMES.names():
        game = GAMES.get(name)
        for players, options in default_setups(game):
            print(format_row(measure(game, players, options, args.seconds)), flush=True)


def default_setups(game: Game) -> list[tuple[int, dict]]:
    """One set-up per player count: the defaults, or the first option set that allows it."""
    from referee.conformance import playable_setups

    chosen = {}
    for players, options in playable_setups(game):
        chosen.setdefault(players, options)
    return sorted(chosen.items())


if __name__ == "__main__":
    main()
