"""A local Redis Cluster for the tests and `referee bench scale`: 3 primaries and 3 replicas
of Debian's redis-server on loopback ports (the tests' 7100-7199 by default), made with
`redis-cli --cluster create`, and stopped afterwards."""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import redis


def _free_ports(count: int, first: int = 7100, last: int = 7199) -> list[int]:
    """`count` ports of [first, last] nobody listens on (nor on port + 10000, the bus)."""
    found = []
    for port in range(first, last + 1):
        if all(_free(p) for p in (port, port + 10000)):
            found.append(port)
            if len(found) == count:
                return found
    raise RuntimeError("no free ports for a local Redis Cluster")


def wait_answering(port: int, seconds: float = 10) -> None:
    """Wait until a redis-server (or sentinel) on loopback `port` answers PING."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if redis.Redis(port=port, socket_timeout=1).ping():
                return
        except redis.RedisError:
            time.sleep(0.05)
    raise RuntimeError(f"redis-server on {port} did not start")


def _free(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) != 0


class LocalCluster:
    """Six redis-server processes in cluster mode, one replica per primary."""

    def __init__(self, first_port: int = 7100, last_port: int = 7199):
        self.dir = Path(tempfile.mkdtemp(prefix="referee-cluster-"))
        self.ports = _free_ports(6, first_port, last_port)
        self.procs: dict[int, subprocess.Popen] = {}

    @property
    def url(self) -> str:
        """REFEREE_STORE_URL of this cluster."""
        return "redis+cluster://" + ",".join(f"127.0.0.1:{p}" for p in self.ports)

    def start(self) -> "LocalCluster":
        """Start the nodes, join them into a cluster and wait until every slot is served."""
        for port in self.ports:
            self.start_node(port)
        subprocess.run(["redis-cli", "--cluster", "create",
                        *(f"127.0.0.1:{p}" for p in self.ports), "--cluster-replicas", "1",
                        "--cluster-yes"], check=True, capture_output=True, timeout=60)
        self.wait_ok()
        return self

    def start_node(self, port: int) -> None:
        """Start (or restart) the node on `port`, its config file kept in its own folder."""
        home = self.dir / str(port)
        home.mkdir(exist_ok=True)
        self.procs[port] = subprocess.Popen(
            ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--cluster-enabled",
             "yes", "--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "1500",
             "--save", "", "--appendonly", "no", "--dir", str(home)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_answering(port)

    def node(self, port: int) -> redis.Redis:
        """A plain client of one node."""
        return redis.Redis(port=port, decode_responses=True, socket_timeout=5)

    def wait_ok(self, timeout: float = 30) -> None:
        """Until every live node says cluster_state:ok."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                if all(self.node(p).cluster("info")["cluster_state"] == "ok"
                       for p, proc in self.procs.items() if proc.poll() is None):
                    return
            except redis.RedisError:
                pass
            time.sleep(0.1)
        raise RuntimeError("the local cluster did not become ok")

    def primaries(self) -> list[int]:
        """The ports of the live primaries."""
        return [p for p, role in self.roles().items() if role == "master"]

    def roles(self) -> dict[int, str]:
        """Each live node's role: master or slave."""
        return {p: self.node(p).info("replication")["role"]
                for p, proc in self.procs.items() if proc.poll() is None}

    def stop(self) -> None:
        """Stop every node and remove their files."""
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs.values():
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
        shutil.rmtree(self.dir, ignore_errors=True)
