"""The embedded default's RQ worker threads (referee/service/worker.py ThreadWorker): leaving
RQ's command channel ends its listener at once, and never touches the listener's connection
from the stopping thread (under the embedded store, closing it there while the listener read
raised "generator already executing" in the listener's thread)."""

from __future__ import annotations

import threading
import time

import fakeredis
import pytest
import redis
from rq import Queue

from referee.service.worker import ThreadWorker
from tests.conftest import unique_name


def _connection(kind: str, real_redis_url):
    if kind == "embedded":
        return fakeredis.FakeRedis(server=fakeredis.FakeServer())
    if real_redis_url is None:
        pytest.skip("no Redis answers")
    return redis.Redis.from_url(real_redis_url)


@pytest.mark.parametrize("kind", ["embedded", "redis"])
def test_leaving_the_command_channel_ends_the_listener_from_its_own_thread(kind,
                                                                          real_redis_url):
    conn = _connection(kind, real_redis_url)
    worker = ThreadWorker([Queue(unique_name("twq"), connection=conn)], connection=conn,
                          name=unique_name("tw"))
    worker.subscribe()
    used_from = []
    for name in ("execute_command", "unsubscribe", "close", "reset"):
        method = getattr(worker.pubsub, name)

        def recorded(*args, _method=method, **kwargs):
            used_from.append(threading.get_ident())
            return _method(*args, **kwargs)
        setattr(worker.pubsub, name, recorded)
    errors = []
    hook, threading.excepthook = threading.excepthook, errors.append
    try:
        began = time.monotonic()
        worker.unsubscribe()
        took = time.monotonic() - began
    finally:
        threading.excepthook = hook
    assert not worker.pubsub_thread.is_alive() and took < 2.0
    assert errors == []
    assert threading.get_ident() not in used_from   # only the listener closed it
    assert conn.pubsub_numsub(worker.pubsub_channel_name) == [
        (worker.pubsub_channel_name.encode(), 0)]   # the subscription ended with it
