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
    assert gunicorn_conf.default_workers() == max(2, len(os.sched_getaffinity(0)))
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0})
    assert gunicorn_conf.default_workers() == 2
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(6)))
    assert gunicorn_conf.default_workers() == 6
    monkeypatch.setenv("WEB_CONCURRENCY", "3")
    assert gunicorn_conf.default_workers() == 3
