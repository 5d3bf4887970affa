"""Benchmarks that print figures (never timed assertions): `referee bench ...`."""

import os
import statistics
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


def paired_ratios(tops: list[float], bottoms: list[float]) -> dict:
    """Round by round `tops[i] / bottoms[i]` (`each`: two figures taken in turns within a
    round, so a spell of the machine's noise fell on both), their median (`paired`, the
    figure held to a target), and the ratio of the two medians over all rounds
    (`of_medians`), which pairs figures taken in different rounds."""
    each = [top / bottom for top, bottom in zip(tops, bottoms)]
    return {"each": each, "paired": statistics.median(each),
            "of_medians": statistics.median(tops) / statistics.median(bottoms)}
