"""docs/positions.md is what the games' state schemas generate (issue 40: each game's
notation documented field by field)."""

from __future__ import annotations

from pathlib import Path

from referee.games import GAMES
from referee.service.positions import markdown

DOC = Path(__file__).resolve().parents[2] / "docs" / "positions.md"


def test_positions_doc_is_current():
    """Regenerate with `.venv/bin/python -m referee.service.positions > docs/positions.md`."""
    assert DOC.read_text() == markdown(GAMES)


def test_every_game_is_documented_with_every_top_level_field():
    """A section per game, a row per state field in the notation's order."""
    text = DOC.read_text()
    for game in GAMES:
        assert f"(`{game.notation.tag}:`)" in text
        for name in game.state_schema["properties"]:
            assert f"| `{name}` |" in text, (game.spec.name, name)
