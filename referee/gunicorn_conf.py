"""gunicorn settings of the README's deployment (`gunicorn -c python:referee.gunicorn_conf ...`):
each worker freezes what it loaded before it serves, and collects young garbage less often.

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

YOUNG_THRESHOLD = 7_000
"""Allocations (net of frees) between young collections; Python's default is 700."""


def post_worker_init(worker) -> None:
    """gunicorn's hook, in each worker once its app is loaded: collect what loading left as
    garbage, freeze the rest, and collect young garbage less often."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, old)
