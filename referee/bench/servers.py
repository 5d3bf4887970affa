"""The servers the HTTP benchmarks start and measure: gunicorn as the README deploys it, and
what a running server on this machine is made of (its processes, their CPU time), read from
/proc so that `--url` reports the real worker count and CPU too."""

from __future__ import annotations

import functools
import os
import shutil
import socket
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass
from queue import Empty
from urllib.parse import urlsplit

import requests

from referee.gunicorn_conf import default_workers

README_WORKERS = default_workers()
"""The README's deployment: `gunicorn -c python:referee.gunicorn_conf -k gevent`, whose
settings give one worker per CPU and each REFEREE_MAX_WAITS + 1,000 connections
(gunicorn_conf.py)."""


def gunicorn_args(workers: int = README_WORKERS) -> list[str]:
    """The README's gunicorn options (its settings module, gevent workers) for `workers`
    processes; the floor runs with the same."""
    return ["-c", "python:referee.gunicorn_conf", "-w", str(workers), "-k", "gevent"]


def free_port() -> int:
    """A free loopback port."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def percentile(samples, q: float) -> float:
    """The q-quantile of `samples` (seconds), in milliseconds (NaN without samples)."""
    if not samples:
        return float("nan")
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def binary(name: str) -> str:
    """A program of this virtualenv (or on PATH)."""
    return shutil.which(name) or os.path.join(os.path.dirname(sys.executable), name)


def start_gunicorn(app: str, workers: int, env_extra: dict, tries: int = 400,
                   health: str = "/v1/health") -> tuple[subprocess.Popen, str]:
    """gunicorn with the README's options serving `app` on a free loopback port; (process,
    base URL) once `health` answers."""
    port = free_port()
    proc = subprocess.Popen([binary("gunicorn"), *gunicorn_args(workers),
                             "-b", f"127.0.0.1:{port}", "--log-level", "warning", app],
                            env={**os.environ, **env_extra})
    base = f"http://127.0.0.1:{port}"
    wait_healthy(proc, base, tries, "gunicorn", health)
    return proc, base


def service_env(redis_url: str, key: str, limits: bool = False) -> tuple[dict, str]:
    """The environment of a benchmarked service on `redis_url`: its own key prefix, the
    organiser key `key`, rate limits off unless `limits`; (environment, prefix)."""
    prefix = f"bench-{uuid.uuid4().hex[:8]}"
    return {"REDIS_URL": redis_url, "REFEREE_PREFIX": prefix, "REFEREE_ORGANISER_KEY": key,
            "REFEREE_RATE_LIMITS": "on" if limits else "off"}, prefix


def wait_healthy(proc, base: str, tries: int, what: str, health: str = "/v1/health") -> None:
    """Wait until the server at `base` answers `health` (every 50 ms, `tries` times); kill
    `proc` and raise if it never does."""
    for _ in range(tries):
        try:
            if requests.get(f"{base}{health}", timeout=1).status_code == 200:
                return
        except requests.RequestException:
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError(f"{what} did not start")


def stop(proc: subprocess.Popen | None) -> None:
    """Stop a server this benchmark started."""
    if proc is not None:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


class ClientFailed(RuntimeError):
    """A benchmark's client process failed or ended without sending its figures."""


CLIENT_GRACE = 60.0
"""Seconds past a run's end that its client processes have to send their figures."""


def client_process(body):
    """`body(*args, out)` for a client process: what it raises goes back through the queue
    `out` as {"error": message}, so that the parent reports it instead of waiting forever
    for figures that never come."""
    @functools.wraps(body)
    def run(*args):
        try:
            body(*args)
        except Exception as err:   # anything: the parent stops the run and says what
            args[-1].put({"error": f"{type(err).__name__}: {err}"})
    return run


def gather(queue, procs: list, seconds: float) -> list:
    """What each of `procs` (started client processes) puts on `queue` once: raises
    ClientFailed, after stopping the others, when one sent an error, ended without
    sending or is still running CLIENT_GRACE s past the run's `seconds`."""
    got, deadline = [], time.monotonic() + seconds + CLIENT_GRACE
    try:
        while len(got) < len(procs):
            try:
                answer = queue.get(timeout=1.0)
            except Empty:
                if time.monotonic() > deadline:
                    raise ClientFailed(f"{len(procs) - len(got)} client process(es) sent no "
                                       f"figures {CLIENT_GRACE:.0f} s after the run") from None
                if not any(proc.is_alive() for proc in procs) and queue.empty():
                    codes = sorted({proc.exitcode for proc in procs if proc.exitcode})
                    raise ClientFailed(f"{len(procs) - len(got)} client process(es) ended "
                                       f"without figures (exit codes {codes})") from None
                continue
            if isinstance(answer, dict) and "error" in answer:
                raise ClientFailed(f"a client process failed: {answer['error']}")
            got.append(answer)
    except ClientFailed:
        for proc in procs:
            if proc.is_alive():
                proc.terminate()
        raise
    for proc in procs:
        proc.join()
    return got


def delete_keys(redis_url: str, prefix: str | None) -> None:
    """Remove a benchmark's keys (`prefix:*`) from Redis."""
    import redis

    if prefix is None:
        return
    client = redis.Redis.from_url(redis_url)
    keys = list(client.scan_iter(f"{prefix}:*", count=1000))
    for i in range(0, len(keys), 1000):
        client.delete(*keys[i:i + 1000])


# -- a server's processes, from /proc --------------------------------------------------------

@dataclass
class Server:
    """The processes listening on one loopback port: a gunicorn master and its workers, or a
    single process."""

    pids: list[int]
    master: int
    command: str

    @property
    def workers(self) -> int:
        """Worker processes (gunicorn's live children; 1 for a lone process)."""
        return max(1, len(_children(self.master))) if "gunicorn" in self.command else \
            len(self.pids)

    def describe(self) -> str:
        """What was measured, as a person reads it."""
        kind = f"gunicorn, {self.workers} workers" if "gunicorn" in self.command else \
            f"{len(self.pids)} process(es)"
        return f"{kind}: {self.command}"

    def wait_idle(self, limit: float = 120.0) -> float:
        """Wait until the processes use almost no CPU over half a second (gunicorn answers
        health checks from its first worker while the others still import: their start-up
        must not count as request CPU); the seconds waited."""
        start = time.monotonic()
        used = self.cpu_seconds()
        while time.monotonic() - start < limit:
            time.sleep(0.5)
            now = self.cpu_seconds()
            if now - used < 0.03:
                break
            used = now
        return time.monotonic() - start

    def cpu_seconds(self) -> float:
        """User and system CPU time used so far by the server's processes: the master's own,
        its live children's, and (cutime, cstime) what its children that ended had used, so a
        worker gunicorn restarts mid-run is still counted."""
        ticks = os.sysconf("SC_CLK_TCK")
        master = _stat(self.master)
        total = 0 if master is None else sum(int(master[i]) for i in (11, 12, 13, 14))
        for pid in {*_children(self.master), *self.pids} - {self.master}:
            fields = _stat(pid)
            if fields is not None:   # gone meanwhile: reaped into the master's cutime
                total += int(fields[11]) + int(fields[12])   # utime, stime
        return total / ticks


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/<pid>/stat after the command name (state first), or None."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None


def _children(parent: int) -> list[int]:
    """The live processes whose parent is `parent`."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        fields = _stat(int(pid))
        if fields is not None and int(fields[1]) == parent:
            found.append(int(pid))
    return found


def _listening_inode(port: int) -> str | None:
    """The socket inode listening on `port` (IPv4 or IPv6), from /proc/net."""
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as f:
                rows = f.read().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            cols = row.split()
            if int(cols[1].rsplit(":", 1)[1], 16) == port and cols[3] == "0A":   # LISTEN
                return cols[9]
    return None


def server_at(url: str) -> Server | None:
    """The processes serving `url` when it is a port on this machine that we may inspect;
    None otherwise (a remote service: no worker count, no CPU figure)."""
    parts = urlsplit(url)
    if parts.hostname not in ("127.0.0.1", "localhost", "::1"):
        return None
    inode = _listening_inode(parts.port or 80)
    if inode is None:
        return None
    target, pids = f"socket:[{inode}]", []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if any(os.readlink(f"/proc/{pid}/fd/{fd}") == target
                   for fd in os.listdir(f"/proc/{pid}/fd")):
                pids.append(int(pid))
        except OSError:
            continue
    if not pids:
        return None
    parents = {pid: _parent(pid) for pid in pids}
    master = next((pid for pid in pids if parents[pid] not in pids), pids[0])
    with open(f"/proc/{master}/cmdline", "rb") as f:
        command = " ".join(a.decode(errors="replace") for a in f.read().split(b"\0") if a)
    return Server(sorted(pids), master, command)


def _parent(pid: int) -> int:
    fields = _stat(pid)
    return -1 if fields is None else int(fields[1])
