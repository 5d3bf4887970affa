"""The round's flow: the two turn-order tracks and their reversals, the passed area, a whole
round played through moves, and the state document's validation."""

from __future__ import annotations

import json

import pytest

from referee.core import InvalidState, Rng
from referee.games.yunnan import GAME
from tests.games.yunnan.helpers import new, play


def test_grey_track_reverses_the_blue_track_and_back():
    s = new(3)
    s["blue"], s["actor"] = [1, 2, 0], 1
    for _ in (1, 2):
        s = play(s, {"type": "market", "from": "supply"})
    s = play(s, {"type": "pass"})  # seat 0
    s = play(s, {"type": "pass"})  # seat 1
    assert s["actor"] == 2 and s["passed"] == [True, True, False]
    s = play(s, {"type": "pass"})
    assert s["phase"] == "travel" and s["grey"] == [0, 2, 1] and s["actor"] == 0
    while s["phase"] == "travel":
        s = play(s, {"type": "step", "from": "market", "to": "yunnan"}) \
            if s["step"] == "travel" and s["market"][s["actor"]] else play(s, {"type": "done"}) \
            if s["step"] == "travel" else play(s, {"type": "stop"})
    # incomes: seat 0 has 3 Yunnan traders ... the grey track is re-sorted by income
    assert s["phase"] == "convert"
    order = s["grey"]
    incomes = [s["income"][p] for p in order]
    assert incomes == sorted(incomes, reverse=True)
    while s["phase"] == "convert":
        s = play(s, {"type": "convert", "points": 0})
    assert s["round"] == 2 and s["blue"] == list(reversed(order))
    assert s["market"] == [0, 0, 0]
    assert sum(s["supply"]) + sum(map(sum, s["traders"])) == 9


def test_passed_players_are_skipped_until_everyone_has_passed():
    s = play(new(4), {"type": "pass"})
    s = play(s, {"type": "market", "from": "supply"})
    s = play(s, {"type": "pass"})
    s = play(s, {"type": "market", "from": "supply"})
    assert s["actor"] == 1  # seats 0 and 2 passed


def test_state_round_trips_and_validation_rejects_broken_states():
    s = GAME.setup(2, GAME.spec.resolve_options({}), 3)
    rng = Rng(3, "test")
    for _ in range(60):
        s = GAME.apply(s, s["actor"], rng.choice(GAME.legal_moves(s, s["actor"])))
    data = json.loads(json.dumps(GAME.to_dict(s)))
    assert GAME.to_dict(GAME.from_dict(data)) == GAME.to_dict(s)
    for breaker in (lambda d: d.pop("phase"),
                    lambda d: d["traders"][0].__setitem__(0, d["traders"][0][0] + 1),
                    lambda d: d["influence"].__setitem__(0, 5),
                    lambda d: d.__setitem__("duli", None),
                    lambda d: d["duli_cards"]["deck"].append(99),
                    lambda d: d["options"].__setitem__("guards", "yes")):
        broken = json.loads(json.dumps(data))
        breaker(broken)
        with pytest.raises(InvalidState):
            GAME.from_dict(broken)


def test_registered_under_its_name():
    from referee.games import GAMES
    assert GAMES.get("yunnan") is GAME
    assert (GAME.spec.min_players, GAME.spec.max_players) == (2, 5)
