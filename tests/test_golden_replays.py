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
    result = replay(game, data)
    assert result == data["result"]
    # one type per field: 36 and 36.0 compare equal in Python but not on the wire
    assert json.dumps(result) == json.dumps(data["result"])


def test_scores_are_integers_in_every_game():
    """Every shipped game counts whole points: its scores are ints (never 36.0), as /end,
    the match record and the API document send them."""
    for path in FILES:
        scores = replay(GAMES.get(json.loads(path.read_text())["game"]),
                        json.loads(path.read_text()))["scores"]
        assert all(type(s) is int for s in scores), (path.name, scores)
