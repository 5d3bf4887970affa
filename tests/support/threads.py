"""Threads for tests: start one per set of arguments, wait for them all."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable


def start_threads(target: Callable, arguments: Iterable[tuple]) -> list[threading.Thread]:
    """One thread running `target(*args)` for each tuple of `arguments`, all started."""
    threads = [threading.Thread(target=target, args=tuple(args)) for args in arguments]
    for thread in threads:
        thread.start()
    return threads


def join_threads(threads: Iterable[threading.Thread], timeout: float | None = None) -> None:
    """Wait for each thread in turn, up to `timeout` seconds each (None: until it ends)."""
    for thread in threads:
        thread.join(timeout)


def run_threads(target: Callable, arguments: Iterable[tuple],
                timeout: float | None = None) -> list[threading.Thread]:
    """Start one thread per tuple of `arguments` (`start_threads`), then wait for them all
    (`join_threads`); the threads."""
    threads = start_threads(target, arguments)
    join_threads(threads, timeout)
    return threads
