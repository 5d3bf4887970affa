"""Golden replays: stored matches must replay to the same result unless rules_version changed."""

from __future__ import annotations

import json

import pytest

from referee.games import GAMES
from tests.support.replays import REPLAY_DIR, replay

FILES = sorted(REPLAY_DIR.glob("*/*.json"))


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_golden_replay_reaches_the_stored_result(path):
    """Replaying the stored moves gives the stored scores, ranks and final-state digest."""
    data = json.loads(path.read_text())
    game = GAMES.get(data["game"])
    assert data["rules_version"] == game.spec.rules_version, (
        f"{path.name} was recorded under rules {data['rules_version']}, the game is now "
        f"{game.spec.rules_version}: regenerate with python -m tests.support.replays "
        f"{data['game']} --regenerate")
    assert replay(game, data) == data["result"]
