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

ARENA = {"http": {"paired": 2.4}, "overhead_redis_us": 57.0, "embedded_x": 0.8,
         "trips": {"redis": 0.08, "http": 1.16}, "same_moves": True}


def test_the_readme_gives_the_command():
    assert "```bash\n.venv/bin/referee bench targets\n```" in README


def test_the_command_runs_every_benchmark_and_prints_the_table():
    """Made small: every figure is measured (each benchmark printed its own lines) and the
    table names each target once, with met or MISSED."""
    done = subprocess.run([sys.executable, "-m", "referee.cli", "bench", "targets",
                           "--game", "dschunke", "--rounds", "1", "--seconds", "1",
                           "--matches", "1", "--clients", "1", "--held", "20"],
                          capture_output=True, text=True, timeout=300)
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    # the Python that ran it is named: its build moves the times
    assert re.search(rf"\n  python: CPython {re.escape(platform.python_version())} \(.*\) at "
                     rf".*python", out), out
    assert "arena benchmark: dschunke" in out and "HTTP bench, game dschunke" in out
    assert "held prompts against" in out and "held events against" in out, out
    table = out[out.index("issue 45 targets, dschunke: "):]
    expected = [r"dschunke: bot match, HTTP bots in their own processes / one keep-alive round "
                r"trip +[\d.]+x +<= 2\.5x",
                r"dschunke: referee overhead per move in-process, real Redis +-?\d+ us +"
                r"<= 150 us",
                r"dschunke: referee overhead per move in-process, embedded store / the rules "
                r"alone +-?[\d.]+x +<= 2x",
                r"REST server CPU per request, 1 client / a bare Flask endpoint's +[\d.]+x +"
                r"<= 1\.5x",
                r"other requests' p99 with 20 long polls held / none held +[\d.]+x +<= 2x",
                r"other requests' p99 with 20 event streams held / none held +[\d.]+x +<= 2x"]
    rows = [line for line in table.splitlines()[1:] if line.endswith(("met", "MISSED"))]
    assert len(rows) == len(expected), table
    for row, pattern in zip(rows, expected):
        assert re.search(pattern + r" +(met|MISSED)$", row), row
    met = sum(row.endswith(" met") for row in rows)
    assert re.match(rf"issue 45 targets, dschunke: {met} of 6 met; load average [\d. ]+; "
                    rf"steal \d+\.\d% of the CPUs' time\n", table), table
    assert re.search(r"dschunke: the same moves in every arena figure, no forfeit: yes; Redis "
                     r"round trips per move: [\d.]+ with in-process bots, [\d.]+ with HTTP "
                     r"bots", table), table
    assert re.search(r"REST p99 with 1 clients: POST /moves [\d.]+ ms, GET /prompt [\d.]+ ms",
                     table), table
    for kind in ("long polls", "event streams"):
        assert re.search(rf"server OS threads, {kind}: \d+ with 0 held, \d+ with 20 held",
                         table), table
        assert re.search(rf"server CPU per change of a match no one waits on, 20 {kind} held: "
                         rf"[\d.]+ us", table), table


def test_a_figure_over_its_target_reads_missed_and_is_counted():
    http = {1: {"paired": 1.4}, 8: {"paired": 1.51}, 32: {"paired": 1.5,
                                                        "p99_ms": {"move": 41.0, "prompt": 9.5}}}
    polls = {"prompts": {"ratios": {0: 1.0, 2000: 2.5}, "threads": {0: 5, 2000: 5}},
             "events": {"ratios": {0: 1.0, 2000: 1.2}}}
    arenas = {"yunnan": ARENA, "dschunke": {**ARENA, "http": {"paired": 2.6}}}
    lines = report(arenas, http, polls, 2000)
    assert lines[0].startswith("issue 45 targets, yunnan, dschunke: 8 of 11 met; ")
    verdicts = {line.split("  ")[1].strip(): line.split()[-1] for line in lines[1:12]}
    assert verdicts == {
        "yunnan: bot match, HTTP bots in their own processes / one keep-alive round trip": "met",
        "yunnan: referee overhead per move in-process, real Redis": "met",
        "yunnan: referee overhead per move in-process, embedded store / the rules alone": "met",
        "dschunke: bot match, HTTP bots in their own processes / one keep-alive round trip":
            "MISSED",
        "dschunke: referee overhead per move in-process, real Redis": "met",
        "dschunke: referee overhead per move in-process, embedded store / the rules alone":
            "met",
        "REST server CPU per request, 1 client / a bare Flask endpoint's": "met",
        "REST server CPU per request, 8 clients / a bare Flask endpoint's": "MISSED",
        "REST server CPU per request, 32 clients / a bare Flask endpoint's": "met",
        "other requests' p99 with 2000 long polls held / none held": "MISSED",
        "other requests' p99 with 2000 event streams held / none held": "met"}
    text = "\n".join(lines)
    assert "  REST p99 with 32 clients: POST /moves 41.0 ms, GET /prompt 9.5 ms" in lines
    assert "  server OS threads, long polls: 5 with 0 held, 5 with 2000 held" in lines
    assert "server CPU per change" not in text   # not measured: not printed


def test_moves_that_differ_between_figures_are_said():
    lines = report({"dschunke": {**ARENA, "same_moves": False}}, {},
                   {"prompts": {"ratios": {0: 1.0, 50: 1.0}}}, 50)
    assert any(line.startswith("  dschunke: the same moves in every arena figure, no forfeit: "
                               "NO;") for line in lines), lines
