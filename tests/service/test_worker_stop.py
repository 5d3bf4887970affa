"""`referee worker` stops on SIGTERM at once, after a job and while idle (issue 38: under
redis-py 8 it hung in RQ's shutdown for 52-60 s, in the command listener's read; see
referee/service/listener.py), and leaves RQ's worker sets."""

from __future__ import annotations

import signal
import subprocess
import time

import pytest
import redis
from rq import Queue

from referee.service.listener import CommandListener
from referee.service.worker import ListeningWorker, wake
from tests.conftest import delete_keys, unique_name
from tests.support.http import BIN, start_process

STOP_BOUND_S = 10
"""Far under the 60 s read it used to wait out, far over a healthy stop (well under 1 s)."""


def _started_worker(redis_url: str, queue: str, name: str) -> subprocess.Popen:
    """A `referee worker` on `queue`, once it has registered with RQ."""
    proc = start_process([f"{BIN}/referee", "worker", "--name", name],
                         env_extra={"REDIS_URL": redis_url, "REFEREE_QUEUE": queue,
                                    "REFEREE_PREFIX": unique_name("wstop")})
    client = redis.Redis.from_url(redis_url)
    deadline = time.monotonic() + 60
    while not client.sismember(f"rq:workers:{queue}", f"rq:worker:{name}"):
        assert proc.poll() is None and time.monotonic() < deadline, proc.stdout.read()
        time.sleep(0.05)
    return proc


WORKERS = 3
"""Workers stopped at once per test: the old hang was a race (the command listener woke for
RQ's UNSUBSCRIBE reply before its run flag was cleared), seen in about one stop in six here."""


def test_sigterm_ends_referee_workers_without_waiting_out_a_read(needs_real_redis):
    """Jobs done, SIGTERM to every worker: each exits 0 within the bound, with no traceback,
    and its RQ registration is gone."""
    queue = unique_name("wstopq")
    names = [unique_name("wstopw") for _ in range(WORKERS)]
    client = redis.Redis.from_url(needs_real_redis)
    procs = [_started_worker(needs_real_redis, queue, name) for name in names]
    try:
        jobs = [Queue(queue, connection=client).enqueue(wake) for _ in procs]
        deadline = time.monotonic() + 30
        while any(job.get_status(refresh=True) != "finished" for job in jobs):
            assert time.monotonic() < deadline, "the workers never ran the jobs"
            time.sleep(0.02)
        for proc in procs:
            proc.send_signal(signal.SIGTERM)
        for proc, name in zip(procs, names):
            try:
                status = proc.wait(STOP_BOUND_S)
            except subprocess.TimeoutExpired:
                pytest.fail(f"{name} still running {STOP_BOUND_S} s after SIGTERM")
            output = proc.stdout.read()
            assert status == 0 and "Traceback" not in output, output
            assert not client.sismember(f"rq:workers:{queue}", f"rq:worker:{name}")
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
        delete_keys(needs_real_redis, unique_name("none"), queue)


def test_a_read_begun_after_the_stop_still_ends_at_once(needs_real_redis):
    """The worst order, made certain: the listener starts a read only after its stop was
    asked (what RQ's UNSUBSCRIBE-first order allowed). The wake message still ends it."""
    client = redis.Redis.from_url(needs_real_redis)
    worker = ListeningWorker([Queue(unique_name("lq"), connection=client)], connection=client,
                             name=unique_name("lw"))
    listener = CommandListener(worker)
    read, entered = listener.pubsub.get_message, []

    def late_read(**kwargs):
        entered.append(True)
        if len(entered) > 1:   # the first read took the subscription's reply; this one
            listener.stopped.wait()   # waits until the stop has been asked, then reads
        return read(**kwargs)
    listener.pubsub.get_message = late_read
    listener.start()
    deadline = time.monotonic() + 10
    while len(entered) < 2:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    listener.stop(timeout=STOP_BOUND_S)
    assert not listener.is_alive()


def test_the_command_listener_still_obeys_rq_commands(needs_real_redis):
    """The listener that replaced redis-py's thread hands RQ's commands to the worker: a
    published command reaches `handle_payload`, and the wake message is ignored by RQ."""
    client = redis.Redis.from_url(needs_real_redis)
    worker = ListeningWorker([Queue(unique_name("lq"), connection=client)], connection=client,
                             name=unique_name("lw"))
    seen = []
    worker.handle_payload = seen.append
    listener = CommandListener(worker)
    listener.start()
    try:
        deadline = time.monotonic() + 10
        while client.pubsub_numsub(worker.pubsub_channel_name)[0][1] < 1:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        client.publish(worker.pubsub_channel_name, '{"command": "stop-job", "job_id": "x"}')
        while not seen:
            assert time.monotonic() < deadline, "the command never reached the worker"
            time.sleep(0.01)
        assert seen[0]["data"] in (b'{"command": "stop-job", "job_id": "x"}',
                                   '{"command": "stop-job", "job_id": "x"}')
    finally:
        listener.stop()
    assert not listener.is_alive()
    assert client.pubsub_numsub(worker.pubsub_channel_name)[0][1] == 0
