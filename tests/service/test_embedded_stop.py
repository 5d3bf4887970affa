"""Stopping embedded workers wakes the idle ones: a test run stops hundreds of apps, and each
stop used to wait out a worker's poll for work (most of a second) before its threads ended."""

from __future__ import annotations

import time

from referee.service import defaults
from tests.conftest import delete_keys, unique_name


def test_stop_ends_idle_workers_without_waiting_out_their_poll(real_redis_url, monkeypatch):
    """With a poll of a minute, `stop(timeout=5)` still ends every idle worker thread: a wake
    job ends their wait. Nothing of the wake queue is left in the store."""
    from referee.root import create_app

    monkeypatch.setattr(defaults, "WORKER_POLL_SECONDS", 60)
    prefix, queue = unique_name("wake"), unique_name("wakeq")
    app = create_app({"REDIS_URL": real_redis_url, "KEY_PREFIX": prefix, "QUEUE_NAME": queue,
                      "INLINE_WORKERS": 3})
    workers = app.extensions.pop("referee.workers")
    store = app.extensions["referee"].store.redis
    try:
        time.sleep(0.3)  # every thread inside its (minute-long) wait for work
        workers.stop(timeout=5)
        assert [t.name for t in workers.threads if t.is_alive()] == []
        assert list(store.scan_iter(f"*{workers.waker.name}*")) == []
    finally:
        app.extensions["referee"].store.changes.close()
        delete_keys(real_redis_url, prefix, queue)
