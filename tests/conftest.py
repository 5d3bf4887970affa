"""Shared fixtures: the games under test (the registry plus the test-only game)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.games import GAMES  # noqa: E402
from tests.support.gops import GAME as GOPS  # noqa: E402

ALL_GAMES = [*GAMES, GOPS]
"""Every registered game, plus the test-only game that drives the generic tests."""

CONFORMANCE_SEEDS = int(os.environ.get("CONFORMANCE_SEEDS", "3"))
"""Random playouts per (game, players, options); raise it for a deeper local run."""
