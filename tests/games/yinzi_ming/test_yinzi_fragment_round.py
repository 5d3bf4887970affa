"""Fragment, 'Round sequence' and 'Exchange rate': one test (or table) per sentence."""

from __future__ import annotations

import pytest

from referee.core import Rng
from referee.core.bots import random_move
from referee.core.errors import NotYourTurn
from referee.games.yinzi_ming import data
from referee.games.yinzi_ming.flow import dial_after
from tests.games.yinzi_ming.yinzi_helpers import (GAME, act, at_directives, command, give, new,
                                                  play_until, sentence, set_market)


def _phase_trace(players, seed):
    """(round, phase) each time it changes during a random match, with the state on entry."""
    s, trace, version = new(players, seed), [], 0
    while True:
        if not trace or trace[-1][:2] != (s["round"], s["phase"]):
            trace.append((s["round"], s["phase"], s))
        if s["phase"] == "over":
            return trace
        seat = GAME.pending(s)[0].seat
        s = act(s, random_move(GAME, s, seat, seed, version), seat)
        version += 1


@sentence("S01")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_four_rounds_of_phases_a_to_e(players):
    """Four rounds; in each the die is rolled (A), then B, C, D; E runs between rounds."""
    trace = _phase_trace(players, seed=players)
    phases = [(r, p) for r, p, _ in trace]
    expected = [(1, "placement")]
    for rnd in range(1, data.ROUNDS + 1):
        expected += [(rnd, "bonus"), (rnd, "directives"), (rnd, "regulation")]
    assert phases == expected + [(4, "over")]
    for rnd, phase, s in trace:
        if phase == "bonus":  # phase A has just rolled the die for this round
            assert s["roll"] == Rng(s["seed"], "die", rnd).randint(1, data.DIE)
        if phase == "bonus" and rnd > 1:  # phase E of the previous round ran
            assert all(m["spaces"].count(None) == len(m["spaces"]) for m in s["markets"].values())
            assert all(len(st["cards"]) == 3 and not any(c["top"] or c["bottom"]
                                                          for c in st["cards"])
                       for st in s["seats"])
            assert len(s["seats"][0]["gone"]) == 3 * (rnd - 1)


def _at_last_regulation_step(rnd):
    s = play_until(at_directives(2, seed=5),
                   lambda s: s["round"] == rnd and s["phase"] == "regulation"
                   and len(s["queue"]) == 1)
    set_market(s, "suzhou", s["markets"]["suzhou"]["tile"], [0, None, None, None])
    return s


@sentence("S02")
def test_fourth_round_skips_maintenance_and_scores():
    """After round 4's Regulation the game is scored; no Maintenance clears the markets."""
    s = act(_at_last_regulation_step(4), {"type": "done"})
    assert s["phase"] == "over" and s["final"] is not None
    assert GAME.pending(s) == () and GAME.outcome(s) is not None
    assert s["markets"]["suzhou"]["spaces"][0] == 0  # not returned: no Maintenance
    assert all(c["top"] and c["bottom"] for st in s["seats"] for c in st["cards"])


@sentence("S02")
def test_earlier_rounds_do_run_maintenance():
    """Contrast: after round 3's Regulation, Maintenance clears the markets, round 4 begins."""
    s = act(_at_last_regulation_step(3), {"type": "done"})
    assert (s["round"], s["phase"]) == (4, "bonus")
    assert all(o is None for m in s["markets"].values() for o in m["spaces"])


@sentence("S03")
def test_the_die_is_rolled_each_round_from_the_seed():
    """Each round's roll is a d6 result drawn from the match seed: all faces occur."""
    rolls = set()
    for seed in range(60):
        s = at_directives(2, seed)
        assert 1 <= s["roll"] <= data.DIE
        rolls.add(s["roll"])
    assert rolls == set(range(1, data.DIE + 1))


@sentence("S04")
@pytest.mark.parametrize("space, roll, after", [
    (3, 5, 4), (3, 4, 4), (3, 6, 4),   # above: one space clockwise, never more
    (3, 1, 2), (3, 2, 2),              # below: one space counterclockwise
    (3, 3, 3), (1, 1, 1), (6, 6, 6),   # equal: stays
    (1, 6, 2), (6, 1, 5),              # the ends of the dial
], ids=lambda v: str(v))
def test_marker_moves_one_space_toward_the_roll(space, roll, after):
    """The marker moves one space toward a higher or lower roll, or stays on an equal one."""
    assert dial_after(space, roll) == after


@sentence("S04")
@pytest.mark.parametrize("seed", range(8))
def test_marker_move_in_play(seed):
    """In a real round start the new space is the old one moved toward the recorded roll."""
    s = play_until(at_directives(2, seed), lambda s: s["round"] == 2)
    before = play_until(at_directives(2, seed), lambda s: s["phase"] == "regulation")["dial"]
    assert s["dial"] == dial_after(before, s["roll"])


@sentence("S05")
@pytest.mark.parametrize("space", data.DIAL)
def test_exchange_at_displayed_rate_and_inverse(space):
    """Buy: R Sapeques for 1 Yinzi; sell: 1 Yinzi for R Sapeques (R = space + 1)."""
    s = command(at_directives(), "transport", 1)
    seat, rate = s["active"], data.RATE[space]
    assert rate == space + 1
    s["dial"] = space
    give(s, seat, sapeques=10, yinzi=1)
    bought = act(s, {"type": "exchange", "direction": "buy"})
    assert (bought["seats"][seat]["sapeques"], bought["seats"][seat]["yinzi"]) == (10 - rate, 2)
    sold = act(s, {"type": "exchange", "direction": "sell"})
    assert (sold["seats"][seat]["sapeques"], sold["seats"][seat]["yinzi"]) == (10 + rate, 0)


@sentence("S05")
def test_exchange_only_during_your_turn():
    """Another seat cannot exchange while it is not its turn."""
    s = command(at_directives(), "transport", 1)
    other = 1 - s["active"]
    with pytest.raises(NotYourTurn):
        act(s, {"type": "exchange", "direction": "buy"}, seat=other)
    assert GAME.legal_moves(s, other) == []
