"""Redis connections: a real server from REDIS_URL, or the embedded in-process store.

The embedded store is fakeredis: Redis-compatible, shared by every connection in this process,
and gone when the process exits.
"""

from __future__ import annotations

import threading

import redis

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

        return fakeredis.FakeRedis(server=embedded_server(), decode_responses=decode)
    return redis.Redis.from_url(redis_url, decode_responses=decode,
                                health_check_interval=30, socket_keepalive=True)
