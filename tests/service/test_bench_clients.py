"""The HTTP benchmarks' client processes: a client that fails, or dies without its figures,
stops the run with a message instead of leaving the parent waiting forever (a wrong
REFEREE_KEY with `referee bench http --url` made every client die on its first match and the
benchmark hang)."""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
import time

import pytest

from referee.bench.servers import ClientFailed, client_process, gather
from tests.support.http import serve_in_thread


@client_process
def _sends(value, out) -> None:
    out.put(value)


@client_process
def _raises(out) -> None:
    raise ValueError("the service said no")


def _dies(out) -> None:
    os._exit(3)


def _sleeps(out) -> None:
    time.sleep(60)


def _started(*targets):
    queue = multiprocessing.Queue()
    procs = [multiprocessing.Process(target=target, args=(*args, queue))
             for target, *args in targets]
    for proc in procs:
        proc.start()
    return queue, procs


def test_every_client_s_figures_come_back():
    queue, procs = _started((_sends, 1), (_sends, 2), (_sends, 3))
    assert sorted(gather(queue, procs, 1.0)) == [1, 2, 3]
    assert all(proc.exitcode == 0 for proc in procs)


def test_a_client_that_raises_stops_the_run_with_its_message():
    queue, procs = _started((_raises,), (_sleeps,))
    began = time.monotonic()
    with pytest.raises(ClientFailed, match="ValueError: the service said no"):
        gather(queue, procs, 1.0)
    assert time.monotonic() - began < 10
    procs[1].join(5)
    assert not procs[1].is_alive()   # the others are stopped, not left behind


def test_a_client_that_dies_without_figures_is_reported():
    queue, procs = _started((_dies,))
    with pytest.raises(ClientFailed, match=r"ended without figures \(exit codes \[3\]\)"):
        gather(queue, procs, 1.0)


def test_bench_http_with_a_key_the_service_refuses_exits_with_the_refusal(app):
    """Against a real service on loopback, a REFEREE_KEY it does not know: exit status 1 and
    the problem's code, within seconds."""
    with serve_in_thread(app) as base:
        env = {**os.environ, "REFEREE_KEY": "rk_" + "0" * 32}
        began = time.monotonic()
        done = subprocess.run([sys.executable, "-m", "referee.cli", "bench", "http", "--url",
                               base, "--no-floor", "--clients", "2", "--seconds", "1"],
                              env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    assert "POST /v1/matches answered 401 auth.key_invalid" in done.stderr
    assert "REFEREE_KEY must hold an organiser key" in done.stderr
    assert time.monotonic() - began < 60
