"""The SPRT (issue 43): its arithmetic against hand-worked figures, pairs that share deal,
seat and opponents, a strong bot accepted against builtin:random, two equally strong bots
never accepted within the budget, and `referee sprt` as a command."""

from __future__ import annotations

import math
import random
import subprocess
import sys

import pytest

from arena.local import _Local
from arena.sprt import Hypotheses, Tally, decide, elo_of, estimate, llr, logistic, pair_outcome
from arena.sprt import pair_seats
from arena.sprt_run import Sprt
from tests.clients.support import CLIENTS_PY

sys.path.insert(0, str(CLIENTS_PY / "examples"))
import dschunke_bot  # noqa: E402


def test_bounds_and_the_logistic_curve():
    """Wald's bounds ln(b/(1-a)), ln((1-b)/a); L(0) = 1/2, L(400) = 10/11; elo_of inverts L."""
    lower, upper = Hypotheses(0, 10, 0.05, 0.05).bounds()
    assert (round(lower, 4), round(upper, 4)) == (-2.9444, 2.9444)
    assert Hypotheses(0, 5, 0.05, 0.1).bounds()[0] == pytest.approx(math.log(0.1 / 0.95))
    assert logistic(0) == 0.5 and logistic(400) == pytest.approx(10 / 11)
    assert elo_of(logistic(123.4)) == pytest.approx(123.4)
    with pytest.raises(ValueError):
        Hypotheses(10, 0)
    with pytest.raises(ValueError):
        Hypotheses(0, 10, alpha=0.5)


def test_llr_worked_by_hand():
    """30 wins, 40 draws, 30 losses, prior +1/2 win +1/2 loss: n 101, mean 1/2, variance
    (30.5 + 10) / 101 - 1/4; LLR = n (s1 - s0)(2 mean - s0 - s1) / (2 v)."""
    tally = Tally(30, 40, 30)
    n, mean, variance = tally.moments()
    assert (n, mean) == (101, 0.5) and variance == pytest.approx(40.5 / 101 - 0.25)
    s0, s1 = logistic(0), logistic(10)
    assert llr(tally, Hypotheses(0, 10)) == pytest.approx(
        101 * (s1 - s0) * (1 - s0 - s1) / (2 * variance))
    assert llr(Tally(), Hypotheses()) == 0.0
    assert llr(Tally(wins=1), Hypotheses()) < 1   # one pair never decides


def test_decisions_and_estimates():
    """Many wins accept H1, many losses accept H0, an even tally decides nothing."""
    h = Hypotheses(0, 20)
    assert decide(Tally(60, 20, 20), h) == "accepted"
    assert decide(Tally(20, 20, 60), h) == "rejected"
    assert decide(Tally(10, 10, 10), h) is None
    shown = estimate(Tally(10, 0, 10))
    assert shown["score"] == 0.5 and shown["elo"] == 0.0
    assert shown["interval"][0] < 0.5 < shown["interval"][1]
    assert estimate(Tally())["score"] is None
    assert [pair_outcome(1, 2), pair_outcome(2, 2), pair_outcome(3, 1)] == [1.0, 0.5, 0.0]
    with pytest.raises(ValueError):
        Tally().add(0.25)


def test_pair_seats_rotate_opponents_around_the_focus_seat():
    """The focus entrant at the seat; the same opponents, in the same order, in both matches."""
    assert pair_seats("C", ["x", "y"], 0) == ["C", "x", "y"]
    assert pair_seats("C", ["x", "y"], 1) == ["y", "C", "x"]
    assert pair_seats("B", ["x", "y"], 2) == ["x", "y", "B"]


def test_both_matches_of_a_pair_share_deal_seat_and_opponents():
    """Pair 4 of a 3-player run: its own deal, focus seat 1; the matches differ in that seat."""
    local = _Local()
    run = Sprt(local.arena, "dschunke", "builtin:random", "builtin:random",
               ["builtin:random"] * 2, Hypotheses(), max_matches=10, seed=5)
    for index in range(5):
        run.play_pair(index)
    a, b = (local.arena.service.load(m)[0] for m in run.match_ids[8:10])
    assert a.seed == b.seed != local.arena.service.load(run.match_ids[0])[0].seed
    assert a.labels["focus"] == b.labels["focus"] == 1
    # identical deterministic play on the same deal: every pair is a draw
    assert run.tally == Tally(0, 5, 0)


def test_a_strong_bot_is_accepted_against_random():
    """The Dschunke heuristic example bot against builtin:random (elo0 0, elo1 50)."""
    local = _Local()
    run = Sprt(local.arena, "dschunke", local.seat("dschunke", dschunke_bot.choose),
               "builtin:random", ["builtin:random"] * 2, Hypotheses(0, 50), max_matches=200,
               seed=1)
    seen = []
    result = run.run(lambda r: seen.append(r.tally.pairs))
    assert result["result"] == "accepted", result
    assert result["wins"] > 3 * result["losses"] and result["llr"] >= result["bounds"][1]
    assert result["matches"] < 200 and seen == list(range(1, result["pairs"] + 1))
    assert result["elo_interval"][0] > 0 and result["forfeits"] == 0


def _random_bot(seed: int):
    rng = random.Random(seed)
    return lambda legal_moves: rng.choice(legal_moves)


def test_two_equal_bots_are_not_told_apart_within_the_budget():
    """Two random bots (each its own seeded stream): neither is accepted in 80 matches, with
    symmetric hypotheses (+-10) nor with the usual one-sided test (0, 10)."""
    for hypotheses in (Hypotheses(-10, 10), Hypotheses(0, 10)):
        local = _Local()
        candidate = local.functions.add(_random_bot(1), name="random-a")
        baseline = local.functions.add(_random_bot(2), name="random-b")
        result = Sprt(local.arena, "dschunke", candidate, baseline, [baseline] * 2,
                      hypotheses, max_matches=80, seed=2).run()
        assert result["result"] != "accepted", result
        assert result["matches"] == 80 or result["result"] == "rejected"
        if hypotheses.elo0 < 0:
            assert result["result"] == "inconclusive", result
            assert result["interval"][0] < 0.5 < result["interval"][1]


def test_the_command_prints_progress_and_a_verdict():
    """`referee sprt` between builtins: a progress line per pair, then the verdict lines."""
    done = subprocess.run([sys.executable, "-m", "referee.cli", "sprt", "--game", "yinzi-ming",
                           "--candidate", "builtin:random", "--baseline", "builtin:random",
                           "--players", "2", "--max-matches", "6"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stderr.splitlines() if " matches  W-D-L " in line]
    assert len(lines) == 3 and lines[-1].startswith("6/6 matches  W-D-L 0-3-0  LLR"), lines
    assert done.stdout.startswith("inconclusive: no decision within 6 matches"), done.stdout
    assert "W-D-L 0-3-0" in done.stdout
    bad = subprocess.run([sys.executable, "-m", "referee.cli", "sprt", "--game", "dschunke",
                          "--candidate", "builtin:random", "--baseline", "builtin:random",
                          "--elo0", "5", "--elo1", "0"], capture_output=True, text=True)
    assert bad.returncode == 1 and "elo0 (5.0) must be below elo1 (0.0)" in bad.stderr
