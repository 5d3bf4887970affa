"""gunicorn settings of the README's deployment (`gunicorn -c python:referee.gunicorn_conf ...`):
one gevent worker per CPU unless told otherwise, each serving REFEREE_MAX_WAITS + 1,000
connections at once with enough file descriptors for them (the master's soft RLIMIT_NOFILE
raised within the hard limit); each worker freezes what it loaded before it serves, and
collects young garbage less often; the request line and header limits are stated, and what
gunicorn refuses by itself is answered as a problem detail.

A gevent worker keeps a CPU busy by itself under load (its requests wait in greenlets, not
threads), so more workers than CPUs only make them take turns on the CPUs. On 2 CPUs
(`referee bench http --url`, Yinzi, two gunicorns taking turns, 4 s a turn): 2 workers played
688-835 moves/s at 8 clients where 4 played 530-663 (5 turns each), and 616-798 at 32
clients where 4 played 484-619 (4 turns each).

A worker imports the service and builds the app (about 93,000 objects the garbage collector
tracks: Flask, flask-smorest, marshmallow, the games' tables) and keeps them all its life.
Python's full collection walks every one of them (50-60 ms a time here) although none is ever
garbage; `gc.freeze()` once the app is loaded moves them out of the collector's sight, and a
full collection walks the thousand or so objects made since.

A young collection walks every object the requests in flight hold (states, views, answers),
so its cost grows with the requests in flight: with the default threshold (700 allocations)
32 clients made 45-85 young collections per worker in 5 s, ~20 ms of CPU; at 7,000 (ten
times the default), 2, ~3 ms, since most of a request's objects are freed by reference
counting long before. Both were measured by `referee bench http --clients 32` (server CPU per
request grew from 1 to 32 clients partly through the collector).
"""

from __future__ import annotations

import gc
import math
import os
import resource

from referee.service.config import Settings

LIMIT_REQUEST_LINE = 8190
"""Longest request line (method, URI, version) a worker reads: gunicorn's most (its default
is 4094); longer is 414 request.uri_too_long, written as a problem detail
(referee/gunicorn_errors.py). No route needs more: ids are short, queries few."""
LIMIT_REQUEST_FIELDS = 100
"""Most header fields a request may have (gunicorn's default); more is 431."""
LIMIT_REQUEST_FIELD_SIZE = 8190
"""Longest header field, name and value (gunicorn's default and most); longer is 431
request.headers_too_large."""

limit_request_line = LIMIT_REQUEST_LINE
limit_request_fields = LIMIT_REQUEST_FIELDS
limit_request_field_size = LIMIT_REQUEST_FIELD_SIZE

YOUNG_THRESHOLD = 7_000
"""Allocations (net of frees) between young collections; Python's default is 700."""


def default_workers() -> int:
    """The workers when `-w` does not say: $WEB_CONCURRENCY (gunicorn's own variable) if
    set, else one per CPU this process may run on (fewer if its cgroup's CPU quota allows
    less, as `docker run --cpus` or a Kubernetes CPU limit sets), and at least two, so that
    a worker restarting never leaves the service without one."""
    given = os.environ.get("WEB_CONCURRENCY")
    if given:
        return int(given)   # gunicorn itself refuses a value that is not a number
    cpus = (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
            else os.cpu_count()) or 1
    quota = quota_cpus()
    return max(2, min(cpus, quota) if quota else cpus)


CGROUPS = "/sys/fs/cgroup"
"""Where the cgroup file systems are mounted (v1: one directory per controller; v2: one)."""


def quota_cpus(root: str = CGROUPS, membership: str = "/proc/self/cgroup") -> int | None:
    """CPUs' worth of time this process's cgroups allow, rounded up: the smallest CPU quota
    on the way from its cgroup to the root (v2 `cpu.max`, v1 `cpu.cfs_quota_us` over
    `cpu.cfs_period_us`); None when there is none (or no cgroup file system to read)."""
    lines = (_read(membership) or "").splitlines()
    places = [d for line in lines for d in _cpu_dirs(root, line.split(":", 2))]
    quotas = [q for d in places if (q := _quota(d)) is not None]
    return math.ceil(min(quotas)) if quotas else None


def _cpu_dirs(root: str, entry: list) -> list[str]:
    """The directories that may hold the CPU quota of one line of /proc/self/cgroup
    ("id:controllers:path"): its cgroup's and each parent's. In a container the mount point
    is often the container's own cgroup while the line names it from the host's root: the
    mount points themselves are among the parents, so that quota is read too."""
    if len(entry) != 3:
        return []
    _, controllers, path = entry
    if controllers == "":                             # v2, alone or beside v1 ("unified")
        bases = [root, os.path.join(root, "unified")]
    elif "cpu" in controllers.split(","):
        bases = [os.path.join(root, controllers), os.path.join(root, "cpu")]
    else:
        return []
    parts = [p for p in path.split("/") if p]
    # a v1 line naming only "cpu" gives the same base twice: each directory is read once
    return list(dict.fromkeys(os.path.join(base, *parts[:n]) for base in bases
                              for n in range(len(parts), -1, -1)))


def _quota(directory: str) -> float | None:
    """The CPUs' worth the cgroup at `directory` allows, or None (no quota, or no such file)."""
    v2 = _read(os.path.join(directory, "cpu.max"))   # "max 100000": none
    if v2 is not None:
        quota, _, period = v2.partition(" ")
    else:                                             # v1: a quota of -1 is none
        quota = _read(os.path.join(directory, "cpu.cfs_quota_us")) or ""
        period = _read(os.path.join(directory, "cpu.cfs_period_us")) or ""
    if not (quota.isdigit() and period.isdigit() and int(quota) > 0 and int(period) > 0):
        return None
    return int(quota) / int(period)


def _read(path: str) -> str | None:
    """A small file's text, stripped; None if it cannot be read."""
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return None


workers = default_workers()
"""gunicorn reads this setting; `-w N` on its command line wins."""

OTHER_CONNECTIONS = 1000
"""Connections a gevent worker takes beside the most waits it holds (REFEREE_MAX_WAITS)."""


def default_worker_connections() -> int:
    """Connections one gevent worker serves at once: the waits (long polls, event streams) it
    may hold, REFEREE_MAX_WAITS, and OTHER_CONNECTIONS more. A worker whose pool is full stops
    accepting: with a pool no bigger than its waits, a worker holding its most would take no
    other request, nor answer one more wait 503 wait.capacity."""
    return Settings().max_waits + OTHER_CONNECTIONS   # read as the server reads it


worker_connections = default_worker_connections()
"""gunicorn reads this setting (gevent workers); `--worker-connections N` wins."""

SPARE_FILES = 300
"""Descriptors a worker opens beside its connections: Redis, the listening socket, the
loaded modules' files, gunicorn's own."""


def raise_open_files(needed: int) -> tuple[int, int, int]:
    """Raise this process's soft RLIMIT_NOFILE to `needed`, within its hard limit (which an
    unprivileged process cannot raise), and never lower it; (soft before, soft after, hard).
    A gevent worker holds a descriptor per connection: 2,000 held streams do not fit in the
    1,024 many systems give a process by default, and accept() then fails (EMFILE)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
    if soft != resource.RLIM_INFINITY and soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
        return soft, want, hard
    return soft, soft, hard


def on_starting(server) -> None:
    """gunicorn's hook, in the master before it forks the workers (they inherit its limits):
    enough descriptors for a worker's connections (`worker_connections`) and SPARE_FILES."""
    before, after, hard = raise_open_files(server.cfg.worker_connections + SPARE_FILES)
    if after != before:
        server.log.info("open files: soft limit raised from %s to %s (hard %s)", before,
                        after, hard)
    if after < server.cfg.worker_connections + SPARE_FILES:
        server.log.warning("open files: the hard limit %s is below a worker's %s connections "
                           "and %s spare descriptors", hard, server.cfg.worker_connections,
                           SPARE_FILES)


def post_worker_init(worker) -> None:
    """gunicorn's hook, in each worker once its app is loaded: its own refusals (414, 431,
    400) become problem details; collect what loading left as garbage, freeze the rest, and
    collect young garbage less often."""
    from referee import gunicorn_errors

    gunicorn_errors.install()
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, old)
