"""The views' faster helpers (issue 17) give what the plain code they replaced gave, at every
state of random playouts, for every seat, the spectator and a finished game."""

from __future__ import annotations

import pytest
from tests.games.dschunke.dschunke_helpers import playout

from referee.games.dschunke import views
from referee.games.dschunke.board import visible_crates, visible_table
from referee.games.dschunke.common import resupply_count
from referee.games.dschunke.data import CARDS, CRATES, JUNKS, STACKS


@pytest.fixture(scope="module")
def states() -> list:
    """States of four playouts of 3 and 4 players, the last of each finished."""
    return [state for players, seed in ((3, 1), (4, 2), (3, 3), (4, 4))
            for state in playout(players, seed)]


def _plain_stack(state, stack, viewer, over):
    """The per-stack code `views._stacks` replaced."""
    stage = state["stage"]
    looking = stage.get("looking") == stack and views.deciding_seat(state) == viewer
    return {"size": len(state["stacks"][stack]),
            "seen": views.snapshot(state, viewer, stack) if viewer is not None else None,
            "cards": sorted(state["stacks"][stack]) if over or looking else None}


def _plain_seat(state, seat, viewer, over):
    """The code `views._seat` had before it skipped comprehending empty lists."""
    info = state["seats"][seat]
    mine = over or seat == viewer
    held = sum(info["hand"].values())
    if not mine:
        held += sum(views._stake(state, seat).values())
    return {
        "colour": state["colours"][seat], "strips": info["strips"],
        "resupply": _plain_resupply(info), "hand_size": held,
        "hand": dict(info["hand"]) if mine else None, "cash": info["cash"] if mine else None,
        "open_cards": [r["card"] for r in info["open"]],
        "played_cards": [r["card"] for r in info["played"]],
        "hidden_cards": [{"stack": r["stack"], "round": r["round"], "card": r["card"]}
                         for r in info["cards"]] if mine else
        [{"stack": r["stack"], "round": r["round"]} for r in info["cards"]],
    }


def _plain_resupply(info):
    """`resupply_count` as a generator sum (its code before)."""
    return info["resupply"] + sum(CARDS[r["card"]].get("cards", 0) for r in info["open"]
                                  if CARDS[r["card"]]["effect"] == "resupply")


def test_the_playouts_reach_what_the_helpers_branch_on(states):
    """The states cover looks through stacks, a stack being looked through, open and played
    cards, and finished games: every branch of the faster helpers."""
    assert any(s["stage"].get("looking") is not None for s in states)
    assert any(any(look for look in seat["looks"]) for s in states for seat in s["seats"])
    assert any(seat["open"] for s in states for seat in s["seats"])
    assert any(seat["played"] for s in states for seat in s["seats"])
    assert sum(views.is_over(s) for s in states) == 4


def test_stacks_seats_and_resupply_are_the_plain_codes(states):
    """`_stacks`, `_seat` and `resupply_count` equal the plain code, key order included."""
    for state in states:
        over = views.is_over(state)
        for viewer in [*range(state["players"]), None]:
            fast = views._stacks(state, viewer, over)
            plain = [_plain_stack(state, k, viewer, over) for k in range(STACKS)]
            assert [list(s.items()) for s in fast] == [list(s.items()) for s in plain]
            for seat in range(state["players"]):
                fast_seat, plain_seat = (views._seat(state, seat, viewer, over),
                                         _plain_seat(state, seat, viewer, over))
                assert list(fast_seat.items()) == list(plain_seat.items())
        for info in state["seats"]:
            assert resupply_count(info) == _plain_resupply(info)


def _plain_counts(layers: list, seats) -> list[int]:
    """The rule as first written: top strips show all their crates, the full layer below
    shows what the top layer leaves uncovered."""
    if not layers:
        return [0 for _ in seats]
    top = layers[-1]
    if len(layers) == 1:
        return [CRATES * top.count(s) for s in seats]
    below, under = layers[-2], CRATES - len(top)
    return [CRATES * top.count(s) + under * below.count(s) for s in seats]


def test_the_visible_table_counts_by_the_rule(states):
    """`visible_table`'s loops count what the rule's formula counts, junk by junk, in order,
    and `visible_crates` one seat's of it."""
    for state in states:
        seats = range(state["players"])
        plain = {junk: _plain_counts(state["junks"][junk]["layers"], seats) for junk in JUNKS}
        table = visible_table(state["junks"], state["players"])
        assert list(table.items()) == list(plain.items())
        for junk in JUNKS:
            for seat in seats:
                assert visible_crates(state["junks"][junk]["layers"], seat) == plain[junk][seat]
