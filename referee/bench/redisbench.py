"""The Redis a benchmark uses, named in its first line.

A benchmark writes matches, queues and counters. It never writes to database 0 of a Redis it
did not start unless told to: by default it starts a `redis-server` of its own (loopback, a
free port, no persistence) and stops it at the end. `--redis-url URL` uses that Redis as
told, whatever its database; `REDIS_URL` is used when it names a database other than 0 (the
variable a deployment sets for its own data names database 0 more often than not).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

import redis

from referee.bench.servers import free_port

HELP = ("the Redis to use (told: any database); default: REDIS_URL if it names a database "
        "other than 0, else a redis-server this benchmark starts and stops")


@dataclass
class BenchRedis:
    """A Redis a benchmark runs on: its URL, where the choice came from, the process if the
    benchmark started it."""

    url: str
    origin: str
    process: subprocess.Popen | None = None
    folder: str | None = None

    def describe(self) -> str:
        """`Redis URL (origin)`, for the benchmark's first line."""
        return f"Redis {self.url} ({self.origin})"

    def stop(self) -> None:
        """Stop the redis-server this benchmark started (nothing for one it was given)."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> "BenchRedis":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def add_argument(parser) -> None:
    """The `--redis-url` option every benchmark on Redis takes."""
    parser.add_argument("--redis-url", default=None, help=HELP)


def database(url: str) -> int:
    """The database number a redis:// URL names (0 when it names none)."""
    parts = urlsplit(url)
    query = dict(p.split("=", 1) for p in parts.query.split("&") if "=" in p)
    path = parts.path.strip("/") if parts.scheme != "unix" else ""   # unix: a socket's path
    return int(path or query.get("db", 0))


def choose(told: str | None, environ=os.environ) -> BenchRedis:
    """The Redis to run on: `told` (--redis-url) as it is; REDIS_URL if its database is not
    0; else a redis-server started here (SystemExit, saying what to do, if none is installed)."""
    if told:
        return BenchRedis(told, "given by --redis-url")
    env = environ.get("REDIS_URL")
    if env and database(env) != 0:
        return BenchRedis(env, f"REDIS_URL, database {database(env)}")
    why = ("REDIS_URL names database 0 of a Redis this benchmark did not start"
           if env else "no --redis-url")
    return start_own(why)


def start_own(why: str) -> BenchRedis:
    """A redis-server on a free loopback port, keeping nothing on disk; `why` is said."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise SystemExit(f"referee bench: {why}, and no redis-server is installed: name a "
                         "Redis with --redis-url (e.g. redis://127.0.0.1:6379/15)")
    port, folder = free_port(), tempfile.mkdtemp(prefix="bench-redis-")
    proc = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no", "--dir", folder],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    started = BenchRedis(f"redis://127.0.0.1:{port}/0",
                         f"started by this benchmark, pid {proc.pid}, {_version(binary)}; "
                         f"{why}", proc, folder)
    deadline = time.monotonic() + 10
    while not _answers(started.url):
        if proc.poll() is not None or time.monotonic() > deadline:
            started.stop()
            raise SystemExit(f"referee bench: the redis-server started on port {port} "
                             "did not answer")
        time.sleep(0.05)
    return started


def _answers(url: str) -> bool:
    try:
        with redis.Redis.from_url(url, socket_connect_timeout=0.5) as client:
            return bool(client.ping())
    except redis.RedisError:
        return False


def _version(binary: str) -> str:
    out = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout
    found = [w for w in out.split() if w.startswith("v=")]
    return f"redis-server {found[0][2:]}" if found else "redis-server"
