"""Views that differ between viewers only in their "you" (Yunnan, Yinzi: every seat sees what a
spectator sees) are built once per state and shared (referee.core.game.alike_but_you)."""

from __future__ import annotations

import random

import pytest

from referee.core import engine
from referee.core.game import alike_but_you
from referee.games import GAMES


def test_built_once_per_memo_and_copied_with_each_viewers_you():
    built = []

    def build(viewer):
        built.append(viewer)
        return {"round": 3, "you": viewer, "board": {"a": 1}}

    memo: dict = {}
    views = {seat: alike_but_you(memo, seat, build) for seat in (None, 0, 1, 2)}
    assert built == [None]
    for seat, view in views.items():
        assert list(view) == ["round", "you", "board"] and view["you"] == seat
        assert view["board"] is views[None]["board"]   # shared, not copied
    assert alike_but_you(None, 1, build) == {"round": 3, "you": 1, "board": {"a": 1}}
    assert built == [None, 1]   # no memo: built for the viewer itself


@pytest.mark.parametrize("name", ["yunnan", "yinzi-ming"])
def test_a_seats_shared_view_is_its_own_view(name):
    """Along a random playout, each seat's view through one memo equals `view` for that seat,
    key order included (the answers' JSON is the same bytes)."""
    game, rng = GAMES.get(name), random.Random(3)
    state = engine.start(game, 3, None, 11)[1]
    for _ in range(60):
        decisions = game.pending(state)
        if not decisions:
            break
        memo: dict = {}
        for viewer in (None, 0, 1, 2):
            served, own = game.served_view(state, viewer, memo), game.view(state, viewer)
            assert served == own and list(served) == list(own)
        seat = decisions[0].seat
        state = game.apply(state, seat, rng.choice(game.legal_moves(state, seat)))
