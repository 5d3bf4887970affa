"""The conformance suite's check of position notations (`Game.position`): pure, like the suite.

At every state of a playout, for a game with a notation: the state's text read back gives an
equal state (`to_dict` alike, the chance record aside), and that state's text is the same
text, so `position -> state -> position` and `state -> position -> state` both round-trip.
"""

from __future__ import annotations

from referee.core.suspend import KEY


def check_position(game, state, data: dict) -> None:
    """`state` (whose `to_dict` is `data`) survives its position text, both ways."""
    text = game.position(state)
    if text is None:   # no notation, or a move waits on chance (no position to write)
        return
    again = game.from_position(text)
    plain = {key: value for key, value in data.items() if key != KEY} \
        if KEY in data else data
    assert game.to_dict(again) == plain, "state -> position -> state changes the state"
    assert game.position(again) == text, "position -> state -> position changes the text"
