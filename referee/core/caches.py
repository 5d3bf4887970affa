"""A bounded dict kept in insertion order, the oldest entries dropped first: the memo tables
that live as long as the process (views' shared parts, URL adapters) and are read and
written by several threads without a lock."""

from __future__ import annotations


def trim_oldest(kept: dict, limit: int) -> None:
    """Drop the oldest entries of `kept` until it holds at most `limit`; another thread
    changing it meanwhile leaves it for the next call to trim."""
    while len(kept) > limit:
        try:
            del kept[next(iter(kept))]
        except (RuntimeError, KeyError, StopIteration):   # changed while we looked
            return
