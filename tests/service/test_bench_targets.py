"""`referee bench targets`, the README's one command for every speed target of issue 17: it
runs bench arena, http and polls (made small here) and prints one table of the figures against
their targets; the table is built from what those benchmarks return."""

from __future__ import annotations

import platform
import re
import subprocess
import sys

from referee.bench.targets import report
from tests.support.docs import page

README = page("benchmarks")

ARENA = {"http": {"paired": 2.6}, "overhead_redis_us": 57.0, "embedded_x": 0.8,
         "trips": {"redis": 0.08, "http": 1.16}, "same_moves": True}


def test_the_readme_gives_the_command():
    assert "```bash\n.venv/bin/referee bench targets\n```" in README


def test_the_command_runs_every_benchmark_and_prints_the_table():
    """Made small: every figure is measured (each benchmark printed its own lines) and the
    table names each target once, with met or MISSED."""
    done = subprocess.run([sys.executable, "-m", "referee.cli", "bench", "targets",
                           "--rounds", "1", "--seconds", "1", "--matches", "1",
                           "--clients", "1", "--held", "20"],
                          capture_output=True, text=True, timeout=300)
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    # the Python that ran it is named: its build moves the times
    assert re.search(rf"\n  python: CPython {re.escape(platform.python_version())} \(.*\) at "
                     rf".*python", out), out
    assert "arena benchmark: dschunke" in out and "HTTP bench, game dschunke" in out
    assert "held prompts against" in out, out
    table = out[out.index("issue 17 targets, dschunke: "):]
    expected = [r"bot match, HTTP bots in their own processes / one keep-alive round trip +"
                r"[\d.]+x +<= 3\.5x",
                r"referee overhead per move in-process, real Redis +-?\d+ us +<= 150 us",
                r"referee overhead per move in-process, embedded store / the rules alone +"
                r"-?[\d.]+x +<= 2x",
                r"REST server CPU per request, 1 client / a bare Flask endpoint's +[\d.]+x +"
                r"<= 2x",
                r"other requests' p99 with 20 long polls held / none held +[\d.]+x +<= 2x"]
    rows = [line for line in table.splitlines()[1:] if line.endswith(("met", "MISSED"))]
    assert len(rows) == len(expected), table
    for row, pattern in zip(rows, expected):
        assert re.search(pattern + r" +(met|MISSED)$", row), row
    met = sum(row.endswith(" met") for row in rows)
    assert re.match(rf"issue 17 targets, dschunke: {met} of 5 met; load average [\d. ]+; "
                    rf"steal \d+\.\d% of the CPUs' time\n", table), table
    assert "the same moves in every arena figure, no forfeit: yes" in table
    assert re.search(r"Redis round trips per move: [\d.]+ with in-process bots, [\d.]+ with "
                     r"HTTP bots", table)
    assert re.search(r"server CPU per change of a match no one waits on: [\d.]+ us", table)


def test_a_figure_over_its_target_reads_missed_and_is_counted():
    http = {1: {"paired": 1.5}, 8: {"paired": 2.01}, 32: {"paired": 2.0}}
    lines = report(ARENA, http, {"ratios": {0: 1.0, 1000: 2.5}}, 1000, "yunnan")
    assert lines[0].startswith("issue 17 targets, yunnan: 5 of 7 met; ")
    verdicts = {line.split("  ")[1].strip(): line.split()[-1] for line in lines[1:8]}
    assert verdicts == {
        "bot match, HTTP bots in their own processes / one keep-alive round trip": "met",
        "referee overhead per move in-process, real Redis": "met",
        "referee overhead per move in-process, embedded store / the rules alone": "met",
        "REST server CPU per request, 1 client / a bare Flask endpoint's": "met",
        "REST server CPU per request, 8 clients / a bare Flask endpoint's": "MISSED",
        "REST server CPU per request, 32 clients / a bare Flask endpoint's": "met",
        "other requests' p99 with 1000 long polls held / none held": "MISSED"}
    assert "server CPU per change" not in "\n".join(lines)   # not measured: not printed


def test_moves_that_differ_between_figures_are_said():
    lines = report({**ARENA, "same_moves": False}, {}, {"ratios": {0: 1.0, 50: 1.0}}, 50,
                   "dschunke")
    assert "  the same moves in every arena figure, no forfeit: NO" in lines
