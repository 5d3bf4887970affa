"""`referee bench http` reads a server's CPU from /proc: a gunicorn worker that ended or was
restarted mid-run must still count, or a round reads too little CPU for that server."""

from __future__ import annotations

import subprocess
import sys

from referee.bench.servers import Server

BURN = "x = 0\nfor i in range(6_000_000): x += i"
"""Some tenths of a second of CPU in a child process."""


def _parent(after: str) -> subprocess.Popen:
    """A process that runs a CPU-burning child (`after`: what the child does next), says
    'ready' once the child's work is done, then idles: a stand-in for a gunicorn master."""
    script = ("import subprocess, sys, time\n"
              f"child = subprocess.Popen([sys.executable, '-c', {BURN + after!r}],"
              " stdout=subprocess.PIPE)\n"
              "child.stdout.readline() if child.stdout else None\n"
              f"{'child.wait()' if not after else 'pass'}\n"
              "print('ready', flush=True)\n"
              "time.sleep(60)\n")
    return subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)


def _own_cpu_of(pid: int) -> float:
    import os
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_a_worker_that_ended_still_counts():
    """Its CPU moved to the master's cutime/cstime when it was reaped."""
    proc = _parent("")
    try:
        assert proc.stdout.readline().strip() == "ready"
        server = Server([proc.pid], proc.pid, "gunicorn: master")
        assert server.cpu_seconds() - _own_cpu_of(proc.pid) > 0.1
    finally:
        proc.kill()
        proc.wait()


def test_a_live_worker_counts_though_it_was_not_listening_when_found():
    """A child found by its parent, not only the processes holding the socket at the start."""
    proc = _parent("\nimport sys, time\nprint('done', flush=True)\ntime.sleep(60)")
    try:
        assert proc.stdout.readline().strip() == "ready"
        server = Server([proc.pid], proc.pid, "gunicorn: master")
        assert server.workers == 1
        assert server.cpu_seconds() - _own_cpu_of(proc.pid) > 0.1
    finally:
        subprocess.run(["pkill", "-P", str(proc.pid)], check=False)
        proc.kill()
        proc.wait()


def test_the_cpu_ratio_held_to_the_target_is_the_median_of_the_rounds_ratios():
    """Each round measures the service and the floor in turns, so its ratio compares them in
    one spell of the machine's noise; the figure printed against the target is the median
    of those, with the ratio of the medians (rounds mixed) beside it."""
    from referee.bench.http import cpu_ratios

    service = [{"server_cpu_ms": x} for x in (0.60, 0.90, 0.80)]
    floor = [{"server_cpu_ms": x} for x in (0.30, 0.30, 0.40)]
    r = cpu_ratios(service, floor)
    assert [round(x, 6) for x in r["each"]] == [2.0, 3.0, 2.0]
    assert r["paired"] == 2.0
    assert round(r["of_medians"], 6) == round(0.80 / 0.30, 6)
