"""Golden replays: full matches stored as move logs whose results must not drift.

A replay file `tests/replays/<game>/<name>.json` holds the set-up, the moves and the final
scores, ranks and state digest. If a game's `rules_version` changes, its replays are stale and
must be regenerated deliberately:

    python -m tests.support.replays GAME [--players N --seed S --options JSON --name NAME]
    python -m tests.support.replays GAME --regenerate     # rewrite every replay of GAME
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

from referee.core import engine
from referee.core.playout import random_playout

REPLAY_DIR = Path(__file__).resolve().parent.parent / "replays"


def digest(game, state) -> str:
    """A short hash of the full state, so any drift in the final position shows."""
    text = json.dumps(game.to_dict(state), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def record(game, players: int, options: dict | None, seed: int) -> dict:
    """A golden replay of a random-bot match of `game`."""
    options, state, log = random_playout(game, players, options, seed)
    outcome = game.outcome(state)
    return {"game": game.spec.name, "rules_version": game.spec.rules_version,
            "players": players, "options": options, "seed": seed,
            "moves": [{"seat": s, "move": m} for s, m in log],
            "result": {"scores": list(outcome.scores), "ranks": list(outcome.ranks),
                       "digest": digest(game, state)}}


def replay(game, data: dict) -> dict:
    """Replay a stored match; returns the result in the stored shape."""
    state = engine.replay(game, data["players"], data["options"], data["seed"],
                          [(m["seat"], m["move"]) for m in data["moves"]])
    outcome = game.outcome(state)
    assert outcome is not None, "the stored moves do not finish the match"
    return {"scores": list(outcome.scores), "ranks": list(outcome.ranks),
            "digest": digest(game, state)}


def write(data: dict, name: str) -> Path:
    """Store a replay under tests/replays/<game>/<name>.json."""
    path = REPLAY_DIR / data["game"] / f"{name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1) + "\n")
    return path


def main(argv=None) -> None:
    """Record (or regenerate) golden replays from the command line."""
    from referee.games import GAMES

    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("--players", type=int)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--options", default="{}")
    parser.add_argument("--name")
    parser.add_argument("--regenerate", action="store_true")
    args = parser.parse_args(argv)
    game = GAMES.get(args.game)
    if args.regenerate:
        for path in sorted((REPLAY_DIR / args.game).glob("*.json")):
            old = json.loads(path.read_text())
            data = record(game, old["players"], old["options"], old["seed"])
            print(write(data, path.stem), data["result"])
        return
    players = args.players or game.spec.min_players
    data = record(game, players, json.loads(args.options), args.seed)
    print(write(data, args.name or f"{players}p-seed{args.seed}"), data["result"])


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    main()
