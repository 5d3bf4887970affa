"""`referee bench scale` (issue 42), made small: one primary, then the local 3-primary cluster,
then the cluster with each commit acknowledged by a replica;
each with moves/s, matches/s and the Redis round trips a move costs, printed."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(shutil.which("redis-server") is None,
                                reason="needs Debian's redis-server")

LINE = (r"{name}: +([\d.]+) moves/s, +([\d.]+) matches/s created, \d+ finished, \d+ stale, "
        r"(\d+) errors; ([\d.]+) Redis round trips/move, ([\d.]+) Redis commands/move")


def test_bench_scale_prints_one_primary_then_the_cluster():
    done = subprocess.run([sys.executable, "-m", "referee.cli", "bench", "scale", "--seconds",
                           "0.5", "--clients", "2", "--sample", "10"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert out.startswith("scale: dschunke, 3 remote seats, 2 client threads"), out
    for name in ("1 primary", "cluster", r"cluster\+WAIT"):
        found = re.search(LINE.format(name=name), out)
        assert found, out
        moves, matches, errors, trips, commands = found.groups()
        assert float(moves) > 0 and float(matches) > 0 and errors == "0", out
        assert float(trips) >= 1 and float(commands) >= float(trips), out
    assert "[3 primaries + 3 replicas on ports" in out, out
    assert "[REFEREE_STORE_WAIT_MS=1000: a replica acknowledges each commit]" in out, out
