"""Every shipped game gives a standing (its score so far), so a match stopped at its move cap
is adjudicated by the game's own scoring (issue 12), and the standing is plain data."""

from __future__ import annotations

import pytest

from referee.core import engine
from referee.core.bots import random_move
from referee.core.results import adjudicate
from referee.core.types import Termination
from referee.games import GAMES


@pytest.mark.parametrize("game", list(GAMES), ids=lambda g: g.spec.name)
def test_a_game_stopped_mid_way_is_ranked_by_its_standing(game):
    players = game.spec.min_players
    _, state = engine.start(game, players, {}, 7)
    for index in range(60):
        seat = game.pending(state)[0].seat
        state, _ = engine.play(game, state, index, seat, random_move(game, state, seat, 7, index))
    standing = game.standing(state)
    assert standing is not None and len(standing) == players
    assert all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in standing)
    outcome = adjudicate(game, state, players, 60)
    assert outcome.termination == Termination.MOVE_CAP and list(outcome.scores) == standing
    best = max(standing)
    assert all((r == 1) == (v == best) for r, v in zip(outcome.ranks, standing))
