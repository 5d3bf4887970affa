"""How pytest-xdist hands the suite to its workers: a module's tests as one unit, so its module
fixtures (served apps, bot processes, played matches) start once, and each conformance playout
(pure, no fixtures, most of the suite's time) as a unit of its own."""

from __future__ import annotations

from xdist.scheduler import LoadScopeScheduling


def is_playout(nodeid: str) -> bool:
    """True for a test in a conformance module: it shares nothing with its neighbours."""
    return "conformance" in nodeid.split("::")[0].rsplit("/", 1)[-1]


class ModuleOrPlayoutScheduling(LoadScopeScheduling):
    """LoadScope with a module as the scope, except that a playout is a scope of its own, and
    the units handed out in collection order (tests/conftest.py puts the longest first).

    Why not `--dist loadgroup` with an xdist_group marker per module: pytest 9 keeps a node's
    id in `_id`, and xdist 3.8 appends the group to `_nodeid`, so the marker groups nothing and
    a module fixture started once per worker that ran one of its tests (the Dschunke bot's
    played prompts three times, about 36 s each)."""

    def __init__(self, config, log=None):
        """The LoadScope scheduler, never reordering units by their number of tests."""
        super().__init__(config, log)
        config.option.loadscopereorder = False

    def _split_scope(self, nodeid: str) -> str:
        """A playout's own id; any other test's module path."""
        return nodeid if is_playout(nodeid) else nodeid.split("::")[0]
