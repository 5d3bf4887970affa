"""The README's other `referee bench` commands run as written, made small, and print their
figures: playouts through the checked engine path; other requests' latency while polls are
held; creations and moves with the rate limits on and off (`bench http` and `bench arena`
have their own modules)."""

from __future__ import annotations

import re
import subprocess
import sys

from referee.gunicorn_conf import default_workers


def _bench(*args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "referee.cli", "bench", *args],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_bench_playouts_prints_a_line_per_player_count_of_the_game():
    out = _bench("playouts", "dschunke", "--seconds", "0.2")
    lines = out.strip().splitlines()
    assert [line.split()[:2] for line in lines] == [["dschunke", "2p"], ["dschunke", "3p"],
                                                     ["dschunke", "4p"]], out
    for line in lines:
        figures = re.search(r"([\d.]+) playouts/s +([\d.]+) moves/s +([\d.]+) us/move "
                            r"\((\d+) moves/playout, (\d+) playouts\)", line)
        assert figures and all(float(x) > 0 for x in figures.groups()), line


def test_bench_polls_wakes_every_held_wait_and_gives_the_ratio():
    """50 held prompts on the README's gunicorn: each is woken by the move, none errs, and
    the p99 ratio against none held is printed with its target."""
    out = _bench("polls", "--held", "0", "50", "--seconds", "1", "--rounds", "1")
    assert f"(gunicorn -k gevent, {default_workers()} workers, Redis)" in out, out
    held = re.search(r"round 1, +50 held: .*, \d+ requests, 0 errors; .*woken by the move "
                     r"50/50", out)
    assert held, out
    assert re.search(r"median p99 with +50 held: [\d.]+ ms, ratio [\d.]+x .*target <= 2x", out)
    assert re.search(r"with 50 held: 20,000 changes of matches no one waits on cost the server "
                     r"[\d.]+ us of CPU each", out), out


def test_bench_load_measures_limits_on_and_off_without_errors():
    out = _bench("load", "--clients", "2", "--seconds", "1")
    for limits in ("on", "off"):
        for what in ("moves", "creates"):
            line = re.search(rf"limits {limits} +2 clients +{what}: +([\d.]+)/s .*429: +(\d+)"
                             rf" +other errors: (\d+)", out)
            assert line and float(line.group(1)) > 0 and line.group(3) == "0", out
            if limits == "off":
                assert line.group(2) == "0", out   # no limit, no refusal


def test_bench_many_carries_each_scale_without_errors_and_says_what_each_match_adds():
    """`referee bench many`, made small: 2 and 6 live matches on the README deployment (gunicorn,
    a `referee worker`, Redis); every request answered, moves made, growth printed."""
    out = _bench("many", "--scales", "2", "6", "--seconds", "1", "--clients", "4",
                 "--workers", "1")
    lines = [line for line in out.splitlines() if " matches: " in line]
    assert len(lines) == 2, out
    for line in lines:
        moves = re.search(r"([\d.]+) remote moves/s, +([\d.]+) versions/s", line)
        assert moves and float(moves.group(1)) > 0 and float(moves.group(2)) > 0, line
        assert line.endswith(" 0 errors") or ", 0 errors;" in line, line
    assert re.search(r"each match more than at 2: Redis -?[\d.]+ KB, RSS -?[\d.]+ KB; p99 "
                     r"[\d.]+x", lines[1]), out
