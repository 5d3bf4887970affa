"""Benchmarks that print figures (never timed assertions): `referee bench ...`."""

import os
import platform
import statistics
import sys
import uuid

KEY = os.environ.get("REFEREE_KEY") or "rk_bench-" + uuid.uuid4().hex + uuid.uuid4().hex
"""The account key benchmarks create matches with: $REFEREE_KEY (a service you point them
at), else one made up here and given to the servers they start (REFEREE_ORGANISER_KEY), since
a deployment has no anonymous writes."""

AUTH = {"Authorization": f"Bearer {KEY}"}


def load_average() -> str:
    """The machine's load average (1, 5, 15 minutes), as the benchmarks print it: figures
    from a busy machine are not comparable."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def interpreter() -> str:
    """The Python that runs the benchmark and the servers it starts (the same executable):
    its version, build and path. Times depend on the build: on one machine, an interpreter
    built without profile-guided and link-time optimisation (pyenv's default build) took
    about a quarter more CPU per request than Debian's optimised one, the service and the
    floor alike (README, Benchmarks)."""
    build, where = " ".join(platform.python_build()), os.path.realpath(sys.executable)
    venv = f"{sys.executable} -> " if where != sys.executable else ""
    return (f"{platform.python_implementation()} {platform.python_version()} ({build}, "
            f"{platform.python_compiler()}) at {venv}{where}")


class Steal:
    """The share of the CPUs' time the hypervisor gave to other guests (`steal` in
    /proc/stat) since it was made: a busy host moves a virtual machine's figures, the ratios
    included, without raising its load average. `share()` is None where /proc/stat is not
    there to read."""

    UNKNOWN = "steal unknown"
    """What `describe()` says when the share is not known."""

    def __init__(self, path: str = "/proc/stat"):
        self.path = path
        self.start = self._read()

    def _read(self) -> tuple[int, int] | None:
        """(steal, all) jiffies of the `cpu` line, or None."""
        try:
            with open(self.path, encoding="ascii") as stat:
                fields = stat.readline().split()
        except OSError:
            return None
        if len(fields) < 9 or fields[0] != "cpu":
            return None
        ticks = [int(f) for f in fields[1:9]]   # user .. steal; guest time is inside user
        return ticks[7], sum(ticks)

    def share(self) -> float | None:
        """Steal over all CPU time since the start, 0..1; None if unknown or no time passed."""
        now = self._read()
        if now is None or self.start is None or now[1] <= self.start[1]:
            return None
        return (now[0] - self.start[0]) / (now[1] - self.start[1])

    def describe(self) -> str:
        """`steal 2.4% of the CPUs' time`, or `steal unknown`."""
        share = self.share()
        return self.UNKNOWN if share is None else f"steal {share:.1%} of the CPUs' time"


def paired_ratios(tops: list[float], bottoms: list[float]) -> dict:
    """Round by round `tops[i] / bottoms[i]` (`each`: two figures taken in turns within a
    round, so a spell of the machine's noise fell on both), their median (`paired`, the
    figure held to a target), and the ratio of the two medians over all rounds
    (`of_medians`), which pairs figures taken in different rounds."""
    each = [top / bottom for top, bottom in zip(tops, bottoms)]
    return {"each": each, "paired": statistics.median(each),
            "of_medians": statistics.median(tops) / statistics.median(bottoms)}
