"""What a benchmarked server's processes hold, read from /proc: their OS threads (a held wait
that took a thread each shows here) and their open-file limits (a held wait takes a
descriptor each)."""

from __future__ import annotations

import os


def threads(pids: list[int]) -> dict[int, int]:
    """The OS threads of each of `pids` (/proc/<pid>/task); a process gone meanwhile is left
    out."""
    found = {}
    for pid in pids:
        try:
            found[pid] = len(os.listdir(f"/proc/{pid}/task"))
        except OSError:
            continue
    return found


def open_files(pid: int) -> tuple[int, int] | None:
    """(soft, hard) `Max open files` of a process (/proc/<pid>/limits; "unlimited" reads as
    -1), or None when it cannot be read."""
    try:
        with open(f"/proc/{pid}/limits") as f:
            for line in f:
                if line.startswith("Max open files"):
                    soft, hard = line.split()[3:5]
                    return tuple(-1 if v == "unlimited" else int(v) for v in (soft, hard))
    except OSError:
        pass
    return None


def describe_threads(counts: dict[int, int]) -> str:
    """`5 OS threads (master 1, workers 2 2)`-like text for what `threads` found, the first
    pid being the master's."""
    if not counts:
        return "OS threads unknown"
    pids = list(counts)
    each = " ".join(str(counts[p]) for p in pids[1:])
    return (f"{sum(counts.values())} OS threads (pid {pids[0]}: {counts[pids[0]]}"
            + (f"; others: {each})" if each else ")"))
