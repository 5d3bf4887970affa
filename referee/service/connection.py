"""Redis connections: a real server from REDIS_URL, or the embedded in-process store.

The embedded store is fakeredis: Redis-compatible, shared by every connection in this process,
and gone when the process exits.
"""

from __future__ import annotations

import threading

import redis

from referee.service import defaults

EMBEDDED_CONNECTIONS = 10_000
"""Pool size of the embedded store's clients (a fake connection is a few objects)."""

_embedded_server = None
_lock = threading.Lock()


def embedded_server():
    """The process-wide fakeredis server of the embedded default."""
    global _embedded_server
    with _lock:
        if _embedded_server is None:
            import fakeredis

            _embedded_server = fakeredis.FakeServer()
        return _embedded_server


def connect(redis_url: str | None, decode: bool = True) -> redis.Redis:
    """A client for `redis_url`, or for the embedded store when it is None.

    RQ needs raw bytes (decode=False); the match store reads text (decode=True).
    """
    if redis_url is None:
        import fakeredis

        # in-process connections cost nothing; each held wait's thread may read at once
        return fakeredis.FakeRedis(server=embedded_server(), decode_responses=decode,
                                   max_connections=EMBEDDED_CONNECTIONS)
    # a blocking pool: a burst of requests (gevent runs a thousand at once) waits for a
    # connection rather than failing with MaxConnectionsError
    pool = redis.BlockingConnectionPool.from_url(
        redis_url, max_connections=defaults.REDIS_CONNECTIONS,
        timeout=defaults.REDIS_CONNECTION_WAIT_S, decode_responses=decode,
        health_check_interval=30, socket_keepalive=True)
    return redis.Redis(connection_pool=pool)
