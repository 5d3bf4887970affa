"""The conformance suite's check of position notations (`Game.position`): pure, like the suite.

At every state of a playout, for a game with a notation: the state's text read back gives an
equal state (`to_dict` alike, the chance record aside), and that state's text is the same
text, so `position -> state -> position` and `state -> position -> state` both round-trip.
"""

from __future__ import annotations

from referee.core.suspend import KEY


def check_position(game, state, data: dict) -> None:
    """`state` (whose `to_dict` is `data`) survives its position text, both ways.

    The text is written from `data` (what `Game.position` writes, without a second
    `to_dict`). Read back it must give `data` itself: `from_position` is `from_dict` of
    what is read, and the suite has just checked `from_dict` on `data` (so the state it
    gives is the state), which keeps this check to a write and a read per state."""
    notation = game.notation
    if notation is None:
        return
    if KEY in data:
        if data[KEY]["waiting"] is not None:   # a move waits on chance: no position
            assert game.position(state) is None, "a waiting state has a position"
            return
        data = {key: value for key, value in data.items() if key != KEY}
    text = notation.encode(data)
    again = notation.decode(text)
    assert again == data, "state -> position -> state changes the state"
    assert notation.encode(again) == text, "position -> state -> position changes the text"
