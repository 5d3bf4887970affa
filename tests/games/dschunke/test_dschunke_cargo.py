"""Cargo strips: layers of three laid crosswise, and only visible crates count."""

from __future__ import annotations

import pytest
from dschunke_helpers import GAME, layers, phase2, play

from referee.games.dschunke.board import load_strip, visible_crates


@pytest.mark.parametrize("hold, seat, expected", [
    pytest.param([], 0, 0, id="empty junk"),
    pytest.param([[0, 1]], 0, 3, id="one partial layer: all visible"),
    pytest.param([[0, 0, 1]], 0, 6, id="one full layer"),
    pytest.param([[0, 1, 2], [0]], 0, 3 + 2, id="partly filled top (1 strip): lower strips show 2"),
    pytest.param([[0, 1, 2], [0]], 1, 2, id="covered by one crosswise strip"),
    pytest.param([[0, 1, 2], [1, 2]], 0, 1, id="partly filled top (2 strips): lower strips show 1"),
    pytest.param([[0, 1, 2], [1, 2]], 2, 3 + 1, id="own strips in both layers"),
    pytest.param([[0, 1, 2], [1, 1, 2]], 0, 0, id="full top layer covers all below"),
    pytest.param([[0, 0, 0], [1, 1, 2], [2]], 0, 0, id="deeper layers never show"),
    pytest.param([[0, 0, 0], [1, 1, 2], [2]], 1, 4, id="middle layer under a 1-strip top"),
])
def test_visible_crates_partly_filled_top_layer(hold, seat, expected):
    assert visible_crates(hold, seat) == expected


def test_load_starts_a_crosswise_layer_when_three_lie_side_by_side():
    hold = [[0, 1]]
    load_strip(hold, 2)
    assert hold == [[0, 1, 2]]
    load_strip(hold, 0)
    assert hold == [[0, 1, 2], [0]]


def test_view_reports_visible_crates_of_the_partly_filled_top():
    state = phase2(3)
    layers(state, "white", [[0, 1, 2], [1]])
    assert GAME.view(state, 0)["junks"]["white"]["visible"] == [2, 3 + 2, 2]


def test_load_action_lays_two_strips_crosswise_on_the_merchants_junk():
    state = phase2(3)
    layers(state, "lilac", [[0, 1]])  # the load merchant stands on lilac in round 1
    strips = state["seats"][0]["strips"]
    state = play(state, 0, {"type": "merchant", "merchant": "load"})
    assert state["junks"]["lilac"]["layers"] == [[0, 0, 1], [0]]
    assert state["seats"][0]["strips"] == strips - 2
    assert visible_crates(state["junks"]["lilac"]["layers"], 1) == 2
