"""The README's gunicorn settings module: a worker freezes what it loaded and collects young
garbage less often (referee/gunicorn_conf.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from referee import gunicorn_conf

_PROBE = """
import gc, json
from referee.gunicorn_conf import post_worker_init
before = gc.get_freeze_count(), gc.get_threshold()
post_worker_init(None)
print(json.dumps({"before": before, "frozen": gc.get_freeze_count(),
                  "threshold": gc.get_threshold()}))
"""


def test_a_worker_freezes_what_it_loaded_and_raises_the_young_threshold():
    """Run in a process of its own: freezing this test process would keep its garbage."""
    done = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True,
                          timeout=60, check=True)
    seen = json.loads(done.stdout)
    (frozen_before, threshold_before) = seen["before"]
    assert frozen_before == 0 and seen["frozen"] > 1000   # the imported modules, at least
    assert seen["threshold"] == [gunicorn_conf.YOUNG_THRESHOLD, *threshold_before[1:]]


def test_one_worker_per_cpu_at_least_two_unless_web_concurrency_says(monkeypatch):
    """gunicorn_conf.workers: -w absent, a worker per CPU this process may run on (never
    fewer than two); $WEB_CONCURRENCY, gunicorn's own variable, wins."""
    monkeypatch.delenv("WEB_CONCURRENCY", raising=False)
    monkeypatch.setattr(gunicorn_conf, "quota_cpus", lambda: None)   # no CPU quota
    assert gunicorn_conf.default_workers() == max(2, len(os.sched_getaffinity(0)))
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0})
    assert gunicorn_conf.default_workers() == 2
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(6)))
    assert gunicorn_conf.default_workers() == 6
    monkeypatch.setenv("WEB_CONCURRENCY", "3")
    assert gunicorn_conf.default_workers() == 3


def _tree(root, files: dict) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_the_cgroup_cpu_quota_caps_the_workers(tmp_path, monkeypatch):
    """`docker run --cpus 1.5` (cgroup v2, the container's cgroup mounted at the root): two
    CPUs' worth however many CPUs the host shows; the floor of two stays."""
    _tree(tmp_path, {"self": "0::/\n", "cg/cpu.max": "150000 100000\n"})
    assert gunicorn_conf.quota_cpus(str(tmp_path / "cg"), str(tmp_path / "self")) == 2
    monkeypatch.delenv("WEB_CONCURRENCY", raising=False)
    monkeypatch.setattr(gunicorn_conf, "quota_cpus", lambda: 3)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(16)))
    assert gunicorn_conf.default_workers() == 3
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})
    assert gunicorn_conf.default_workers() == 2       # fewer CPUs than the quota
    monkeypatch.setattr(gunicorn_conf, "quota_cpus", lambda: 1)
    assert gunicorn_conf.default_workers() == 2       # at least two
    monkeypatch.setenv("WEB_CONCURRENCY", "5")
    assert gunicorn_conf.default_workers() == 5


def test_the_smallest_quota_on_the_way_to_the_root_counts(tmp_path):
    """cgroup v2 nested: the process's own cgroup has none ("max"), its parent allows 3."""
    _tree(tmp_path, {"self": "0::/a/b\n", "cg/a/b/cpu.max": "max 100000\n",
                     "cg/a/cpu.max": "300000 100000\n", "cg/cpu.max": "max 100000\n"})
    assert gunicorn_conf.quota_cpus(str(tmp_path / "cg"), str(tmp_path / "self")) == 3


def test_cgroup_v1_quota_read_at_the_container_mount_point(tmp_path):
    """cgroup v1 in a container: /proc/self/cgroup names the host's path (/docker/<id>),
    the cpu hierarchy is mounted at the container's own cgroup, which holds the quota."""
    _tree(tmp_path, {"self": "5:memory:/docker/abc\n4:cpu,cpuacct:/docker/abc\n0::/\n",
                     "cg/cpu,cpuacct/cpu.cfs_quota_us": "250000\n",
                     "cg/cpu,cpuacct/cpu.cfs_period_us": "100000\n"})
    assert gunicorn_conf.quota_cpus(str(tmp_path / "cg"), str(tmp_path / "self")) == 3


def test_no_quota_or_no_cgroups_leaves_the_cpus(tmp_path):
    """v1 without a quota (-1), a hybrid host without cpu.max, no /proc/self/cgroup: None."""
    _tree(tmp_path, {"self": "1:cpu:/\n0::/\n", "cg/cpu/cpu.cfs_quota_us": "-1\n",
                     "cg/cpu/cpu.cfs_period_us": "100000\n", "cg/unified/cgroup.procs": ""})
    assert gunicorn_conf.quota_cpus(str(tmp_path / "cg"), str(tmp_path / "self")) is None
    assert gunicorn_conf.quota_cpus(str(tmp_path / "cg"), str(tmp_path / "none")) is None


def test_a_worker_takes_more_connections_than_the_waits_it_holds(monkeypatch):
    """A worker holding its most waits (REFEREE_MAX_WAITS) still accepts other requests."""
    from referee.service import defaults

    monkeypatch.delenv("REFEREE_MAX_WAITS", raising=False)
    assert gunicorn_conf.default_worker_connections() == \
        defaults.MAX_WAITS + gunicorn_conf.OTHER_CONNECTIONS
    monkeypatch.setenv("REFEREE_MAX_WAITS", "5000")
    assert gunicorn_conf.default_worker_connections() == 5000 + gunicorn_conf.OTHER_CONNECTIONS


def test_the_open_file_limit_is_raised_within_the_hard_one_and_never_lowered(monkeypatch):
    import resource

    limits = {"now": (1024, 4096)}
    monkeypatch.setattr(resource, "getrlimit", lambda which: limits["now"])
    monkeypatch.setattr(resource, "setrlimit", lambda which, value: limits.update(now=value))
    assert gunicorn_conf.raise_open_files(3300) == (1024, 3300, 4096)
    assert limits["now"] == (3300, 4096)
    assert gunicorn_conf.raise_open_files(9000) == (3300, 4096, 4096)   # the hard limit caps
    assert gunicorn_conf.raise_open_files(100) == (4096, 4096, 4096)    # never lowered
