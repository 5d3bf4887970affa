"""Redis connections: a real server from REDIS_URL, or the embedded in-process store.

The embedded store is fakeredis: Redis-compatible, shared by every connection in this process,
and gone when the process exits. REDIS_URL may name a Sentinel-managed primary,
`redis+sentinel://host:port,host:port/<service name>[/<db>]` (the scheme the `limits` library
reads for the rate limits too): redis-py's Sentinel finds the primary and follows a failover.
REFEREE_STORE_URL, `redis+cluster://host:port,host:port,...`, puts match state on a Redis
Cluster (redis-py's RedisCluster; any node of it will do, the client learns the rest).
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
    if redis_url is not None and redis_url.startswith("redis+sentinel://"):
        return _sentinel(redis_url, decode)
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


def _hosts(netloc: str) -> list[tuple[str, int]]:
    """`host:port,host:port` as (host, port) pairs."""
    pairs = []
    for part in netloc.split(","):
        host, _, port = part.rpartition(":")
        pairs.append((host or part, int(port) if host else 6379))
    return pairs


def _sentinel(url: str, decode: bool) -> redis.Redis:
    """The primary of `redis+sentinel://h:p,.../<service>[/<db>]`, followed through failovers."""
    from redis.sentinel import Sentinel

    rest = url[len("redis+sentinel://"):]
    netloc, _, path = rest.partition("/")
    service, _, db = path.partition("/")
    sentinel = Sentinel(_hosts(netloc), socket_timeout=defaults.REDIS_CONNECTION_WAIT_S)
    return sentinel.master_for(service, db=int(db or 0), decode_responses=decode,
                               socket_keepalive=True, health_check_interval=30)


def connect_store(store_url: str | None, decode: bool = True):
    """The client of REFEREE_STORE_URL (a Redis Cluster), or None: match state on REDIS_URL."""
    if not store_url:
        return None
    if not store_url.startswith("redis+cluster://"):
        raise ValueError(f"REFEREE_STORE_URL must be redis+cluster://host:port,...: {store_url}")
    from redis.cluster import ClusterNode, RedisCluster

    nodes = [ClusterNode(h, p) for h, p in _hosts(store_url[len("redis+cluster://"):]
                                                 .rstrip("/"))]
    return RedisCluster(startup_nodes=nodes, decode_responses=decode,
                        max_connections=defaults.REDIS_CONNECTIONS, socket_keepalive=True)
