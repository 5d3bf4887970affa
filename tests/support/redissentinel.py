"""A local Sentinel set-up for the tests: one primary, one replica and three sentinels of
Debian's redis-server on loopback ports (7200-7299), stopped afterwards."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import redis

from tests.support.rediscluster import _free_ports, wait_answering

SERVICE = "referee"
"""The Sentinel service name of the primary."""


class LocalSentinel:
    """redis-server primary + replica, and three `redis-server --sentinel` watching them."""

    def __init__(self):
        self.dir = Path(tempfile.mkdtemp(prefix="referee-sentinel-"))
        self.primary, self.replica, *self.sentinels = _free_ports(5, 7200, 7299)
        self.procs: list[subprocess.Popen] = []

    @property
    def url(self) -> str:
        """REDIS_URL through the sentinels."""
        return "redis+sentinel://" + ",".join(f"127.0.0.1:{p}" for p in self.sentinels) + \
            f"/{SERVICE}"

    def start(self) -> "LocalSentinel":
        """Start the primary, its replica and the sentinels; wait until all three see both."""
        for port, extra in ((self.primary, []),
                            (self.replica, ["--replicaof", "127.0.0.1", str(self.primary)])):
            self._run(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save",
                       "", "--appendonly", "no", "--dir", str(self.dir), *extra], port)
        for port in self.sentinels:
            conf = self.dir / f"sentinel-{port}.conf"
            conf.write_text(f"port {port}\nbind 127.0.0.1\n"
                            f"sentinel monitor {SERVICE} 127.0.0.1 {self.primary} 2\n"
                            f"sentinel down-after-milliseconds {SERVICE} 1000\n"
                            f"sentinel failover-timeout {SERVICE} 5000\n")
            self._run(["redis-server", str(conf), "--sentinel"], port)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            seen = [redis.Redis(port=p).sentinel_master(SERVICE) for p in self.sentinels]
            if all(s.get("num-slaves", 0) >= 1 and s.get("num-other-sentinels", 0) >= 2
                   for s in seen):
                return self
            time.sleep(0.2)
        raise RuntimeError("the sentinels did not see the primary, its replica and each other")

    def _run(self, args: list, port: int) -> None:
        self.procs.append(subprocess.Popen(args, stdout=subprocess.DEVNULL,
                                           stderr=subprocess.DEVNULL))
        wait_answering(port)

    def stop(self) -> None:
        """Stop every process and remove their files."""
        for proc in self.procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
        shutil.rmtree(self.dir, ignore_errors=True)
