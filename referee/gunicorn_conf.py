"""gunicorn settings of the README's deployment (`gunicorn -c python:referee.gunicorn_conf ...`):
one gevent worker per CPU unless told otherwise; each worker freezes what it loaded before it
serves, and collects young garbage less often.

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
import os

YOUNG_THRESHOLD = 7_000
"""Allocations (net of frees) between young collections; Python's default is 700."""


def default_workers() -> int:
    """The workers when `-w` does not say: $WEB_CONCURRENCY (gunicorn's own variable) if
    set, else one per CPU this process may run on, and at least two, so that a worker
    restarting never leaves the service without one."""
    given = os.environ.get("WEB_CONCURRENCY")
    if given:
        return int(given)   # gunicorn itself refuses a value that is not a number
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(2, cpus or 1)


workers = default_workers()
"""gunicorn reads this setting; `-w N` on its command line wins."""


def post_worker_init(worker) -> None:
    """gunicorn's hook, in each worker once its app is loaded: collect what loading left as
    garbage, freeze the rest, and collect young garbage less often."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, old)
