"""Every declared dependency is used: an unused one only slows installs and misleads readers."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

IMPORT_NAMES = {"fakeredis[lua]": "fakeredis", "flask-smorest": "flask_smorest"}
"""Distribution names whose import name differs from the distribution's."""

PLUGIN_FLAGS = {"pytest_xdist": "-n"}
"""pytest plug-ins used through the test command's options rather than imported."""


def _imported_anywhere(module: str, folders) -> bool:
    pattern = re.compile(rf"^\s*(import|from)\s+{re.escape(module)}\b", re.MULTILINE)
    return any(pattern.search(path.read_text(encoding="utf-8"))
               for folder in folders for path in (ROOT / folder).rglob("*.py"))


def _name(requirement: str) -> str:
    name = re.split(r"[<>=!~ ;]", requirement, maxsplit=1)[0]
    return IMPORT_NAMES.get(name, name.replace("-", "_"))


def test_every_test_extra_is_imported_by_the_tests():
    """`pip install '.[test]'` installs only what some test imports (hypothesis was declared
    and never imported)."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]["test"]
    addopts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"][
        "ini_options"]["addopts"]
    unused = [r for r in extras if not _imported_anywhere(_name(r), ["tests"])
              and not PLUGIN_FLAGS.get(_name(r), "\0") in addopts.split()]
    assert unused == []
