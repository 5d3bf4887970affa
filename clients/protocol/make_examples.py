"""Write clients/protocol/examples/<game>.json: one /move request and answer per decision
kind of each game, and a /start and /end, from seeded matches (arena/examples.py), so the
examples are what bots really get.

    .venv/bin/python clients/protocol/make_examples.py
"""

from __future__ import annotations

import json
from pathlib import Path

from arena.examples import examples
from referee.games import GAMES

OUT = Path(__file__).with_name("examples")


def text(game) -> str:
    """The file's text for `game` (what the test compares with the committed file)."""
    return json.dumps(examples(game), indent=1, ensure_ascii=False) + "\n"


def main() -> None:
    """Write every game's file."""
    OUT.mkdir(exist_ok=True)
    for game in GAMES:
        (OUT / f"{game.spec.name}.json").write_text(text(game))
        print(f"wrote {OUT / game.spec.name}.json")


if __name__ == "__main__":
    main()
