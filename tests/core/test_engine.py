"""The generic checks of the core engine, in their order, with their codes (on the test game)."""

from __future__ import annotations

import pytest

from referee.core import engine
from referee.core.errors import (IllegalMove, InvalidOptions, InvalidPlayers, MalformedMove,
                                 MatchOver, NotYourTurn, StaleVersion, UnexpectedMove)
from referee.core.playout import random_playout
from tests.support.gops import GAME


def fresh(players=2, options=None, seed=1):
    """A new test-game state."""
    return engine.start(GAME, players, options, seed)[1]


CASES = [
    # name, seat, move, expected_version, error class, code
    ("a move must be an object", 0, ["bid", 1], None, MalformedMove, "move.malformed"),
    ("a move needs a known type", 0, {"type": "fly"}, None, MalformedMove, "move.malformed"),
    ("a move without type", 0, {"card": 1}, None, MalformedMove, "move.malformed"),
    ("fields are typed", 0, {"type": "bid", "card": "1"}, None, MalformedMove, "move.malformed"),
    ("required fields are required", 0, {"type": "bid"}, None, MalformedMove, "move.malformed"),
    ("unknown fields are refused", 0, {"type": "bid", "card": 1, "x": 2}, None, MalformedMove,
     "move.malformed"),
    ("the type must answer the decision", 0, {"type": "keep"}, None, UnexpectedMove,
     "move.unexpected"),
    ("a seat not pending cannot move", 5, {"type": "bid", "card": 1}, None, NotYourTurn,
     "turn.not_yours"),
    ("an old version is stale", 0, {"type": "bid", "card": 1}, 3, StaleVersion,
     "match.version_stale"),
    ("the game judges legality", 0, {"type": "bid", "card": 9}, None, IllegalMove,
     "move.illegal.bid.not_in_hand"),
]


@pytest.mark.parametrize("name, seat, move, expected, error, code", CASES, ids=[c[0] for c in CASES])
def test_generic_checks(name, seat, move, expected, error, code):
    """Each kind of bad submission is rejected with its own stable code."""
    with pytest.raises(error) as info:
        engine.play(GAME, fresh(), 0, seat, move, expected)
    assert info.value.code == code
    assert info.value.message


def test_turn_is_checked_before_version():
    """A seat that may not act hears 'not yours', whatever version it sent."""
    with pytest.raises(NotYourTurn):
        engine.play(GAME, fresh(), 0, 3, {"type": "bid", "card": 1}, expected_version=7)


def test_version_is_checked_before_the_move():
    """A stale version is reported even for a malformed move: the client is out of date."""
    with pytest.raises(StaleVersion):
        engine.play(GAME, fresh(), 2, 0, {"type": "nonsense"}, expected_version=1)


def test_a_finished_match_takes_no_move():
    """After the end every move is refused with match.over, before any other check."""
    _, state, _ = random_playout(GAME, 2, None, 4)
    with pytest.raises(MatchOver) as info:
        engine.play(GAME, state, 99, 0, {"type": "garbage"})
    assert info.value.code == "match.over"


def test_setup_checks_players_and_options():
    """Player counts and options are checked with their own codes."""
    with pytest.raises(InvalidPlayers):
        engine.start(GAME, 1, None, 0)
    with pytest.raises(InvalidOptions) as info:
        engine.start(GAME, 2, {"cards": 99}, 0)
    assert "at most 8" in info.value.message
    with pytest.raises(InvalidOptions):
        engine.start(GAME, 2, {"colour": "red"}, 0)
    with pytest.raises(InvalidOptions):
        engine.start(GAME, 2, {"ties": "coin"}, 0)
    with pytest.raises(InvalidOptions, match="at least 4 cards"):
        engine.start(GAME, 4, {"cards": 3}, 0)


def test_defaults_fill_missing_options():
    """Options left out take their declared defaults."""
    options, _ = engine.start(GAME, 2, {"ties": "carry"}, 0)
    assert options == {"cards": 4, "ties": "carry"}


def test_replay_rebuilds_the_state():
    """Seed + moves give the same state again."""
    options, state, log = random_playout(GAME, 3, None, 11)
    again = engine.replay(GAME, 3, options, 11, log)
    assert GAME.to_dict(again) == GAME.to_dict(state)
