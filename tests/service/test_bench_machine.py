"""What the benchmarks print about the machine beside their figures: the Python that ran them
(its build moves the times) and the CPU time a virtual machine's host gave to others
meanwhile (steal, which the load average does not show)."""

from __future__ import annotations

import os
import platform
import re
import sys
import time

import pytest

from referee.bench import Steal, interpreter


def _stat(path, steal: int, rest: int) -> None:
    """A /proc/stat whose `cpu` line has `steal` jiffies of steal and `rest` of the others."""
    user = rest - 7   # six more fields of 1 jiffy, then steal, then guest fields
    path.write_text(f"cpu  {user} 1 1 1 1 1 1 {steal} 0 0\ncpu0 1 1 1 1 1 1 1 1 0 0\n")


def test_the_interpreter_is_named_with_its_version_build_and_path():
    line = interpreter()
    assert line.startswith(f"{platform.python_implementation()} {platform.python_version()} (")
    assert platform.python_compiler() in line
    assert line.endswith(os.path.realpath(sys.executable))


def test_steal_is_the_share_of_all_cpu_time_since_the_start(tmp_path):
    stat = tmp_path / "stat"
    _stat(stat, steal=100, rest=1_000)
    meter = Steal(str(stat))
    _stat(stat, steal=130, rest=1_270)   # 300 jiffies more in all, 30 of them stolen
    assert meter.share() == pytest.approx(0.1)
    assert meter.describe() == "steal 10.0% of the CPUs' time"


def test_steal_is_unknown_without_proc_stat_or_without_time_passing(tmp_path):
    assert Steal(str(tmp_path / "absent")).describe() == "steal unknown"
    stat = tmp_path / "stat"
    _stat(stat, steal=5, rest=500)
    assert Steal(str(stat)).share() is None   # nothing moved since it was made
    stat.write_text("intr 1 2 3\n")
    assert Steal(str(stat)).describe() == "steal unknown"


def test_this_machines_steal_reads_as_a_share():
    if not os.path.exists("/proc/stat"):
        pytest.skip("no /proc/stat here")
    meter = Steal()
    time.sleep(0.2)   # about 20 jiffies a CPU, idle ones included
    share = meter.share()
    assert share is not None and 0.0 <= share <= 1.0
    assert re.fullmatch(r"steal \d+\.\d% of the CPUs' time", meter.describe())
