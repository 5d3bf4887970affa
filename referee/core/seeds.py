"""Reading a game's data tables from `seeds/<game>/`: tables are data, never literals in rules.

Where the tables are: $REFEREE_SEEDS if set; else `referee/seeds/` inside the installed
package (a wheel or `pip install .` carries it there: see setup.py), read with
importlib.resources; else `seeds/` in the source checkout (an editable install).

Every value in a table is tagged with where it comes from, as an object
`{"value": ..., "status": "FOUND" | "DERIVED" | "PROPOSAL", "source": "..."}`; `untag` strips
the tags so rules code sees plain values.
Reading static files at import time is the only file access the rules core does.
"""

from __future__ import annotations

import json
import os
from functools import lru_cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

STATUSES = ("FOUND", "DERIVED", "PROPOSAL")


def seeds_dir() -> Traversable:
    """The folder of game data: $REFEREE_SEEDS, else the installed package's, else the
    checkout's `seeds/`."""
    override = os.environ.get("REFEREE_SEEDS")
    if override:
        return Path(override)
    packaged = resources.files("referee") / "seeds"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "seeds"


@lru_cache(maxsize=None)
def load_table(game: str, filename: str):
    """The parsed JSON table `seeds/<game>/<filename>`, tags and all."""
    with (seeds_dir() / game / filename).open(encoding="utf-8") as handle:
        return json.load(handle)


def is_tagged(node) -> bool:
    """True for a `{"value", "status", "source"}` tag object."""
    return isinstance(node, dict) and "value" in node and node.get("status") in STATUSES


def untag(node):
    """The table with every tag object replaced by its plain value, recursively."""
    if is_tagged(node):
        return untag(node["value"])
    if isinstance(node, dict):
        return {k: untag(v) for k, v in node.items() if not k.startswith("$")}
    if isinstance(node, list):
        return [untag(v) for v in node]
    return node
