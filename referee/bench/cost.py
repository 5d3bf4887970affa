"""What a deployment under a benchmark spends, read from outside it: the CPU time of its
processes (gunicorn's master and workers, `referee worker`s) and of its Redis, and the
versions its matches reached (`bench many`: CPU per move at each scale)."""

from __future__ import annotations

import os
from dataclasses import dataclass

from referee.bench.servers import _children, _stat
from referee.service.store import match_key


def process_cpu(pid: int) -> float:
    """CPU seconds (user and system) of a process and its children, live and ended (the
    ended ones' as its cutime and cstime; 0 once it is gone)."""
    ticks = os.sysconf("SC_CLK_TCK")
    fields = _stat(pid)
    if fields is None:
        return 0.0
    total = sum(int(fields[i]) for i in (11, 12, 13, 14))
    for child in _children(pid):
        child_fields = _stat(child)
        if child_fields is not None:
            total += int(child_fields[11]) + int(child_fields[12])
    return total / ticks


def redis_cpu(client) -> float:
    """The Redis server's CPU seconds so far (INFO cpu: its main thread and the others);
    what it did for other clients counts too, so a benchmark runs on a Redis of its own."""
    info = client.info("cpu")
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


@dataclass
class CpuReading:
    """The CPU seconds of a deployment's parts at one moment."""

    api: float
    workers: float
    redis: float

    def minus(self, earlier: "CpuReading") -> "CpuReading":
        """What was spent since `earlier`."""
        return CpuReading(self.api - earlier.api, self.workers - earlier.workers,
                          self.redis - earlier.redis)

    @property
    def total(self) -> float:
        """All three together."""
        return self.api + self.workers + self.redis


def read_cpu(api_pid: int, worker_pids: list[int], client) -> CpuReading:
    """The CPU seconds so far of gunicorn (master and workers), the `referee worker`s and
    Redis."""
    return CpuReading(process_cpu(api_pid), sum(process_cpu(p) for p in worker_pids),
                      redis_cpu(client))


def versions(client, prefix: str, match_ids: list[str]) -> dict[str, int]:
    """The live version of each match (one pipelined round trip); a match whose record is
    gone (archived) is left out."""
    pipe = client.pipeline(transaction=False)
    for match_id in match_ids:
        pipe.get(match_key(prefix, match_id, "ver"))
    return {m: int(v) for m, v in zip(match_ids, pipe.execute()) if v is not None}
