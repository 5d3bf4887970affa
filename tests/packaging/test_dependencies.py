"""Every declared dependency is used: an unused one only slows installs and misleads readers."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

IMPORT_NAMES = {"fakeredis[lua]": "fakeredis", "flask-smorest": "flask_smorest",
                "markdown-it-py": "markdown_it"}
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


def _requirements() -> list[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return [*project["dependencies"], *project["optional-dependencies"]["test"]]


def _bare(name: str) -> str:
    """A distribution name as pip compares them: lower case, extras dropped, - for _."""
    return re.sub(r"\[.*\]", "", name).lower().replace("_", "-")


def _pins(path: str) -> dict[str, str]:
    lines = (ROOT / path).read_text().splitlines()
    found = [line.split("==") for line in lines if line and not line.startswith("#")]
    return {_bare(name): version for name, version in found}


def test_every_dependency_has_a_tested_lower_bound_and_an_upper_bound():
    """A new major release cannot break an install unseen: `>=` a tested release and `<` the
    next major (issue 38)."""
    from packaging.requirements import Requirement

    loose = [r for r in _requirements()
             if {s.operator for s in Requirement(r).specifier} != {">=", "<"}]
    assert loose == []


def test_the_lowest_lane_pins_exactly_each_lower_bound():
    """constraints/lowest.txt installs the oldest release each lower bound names."""
    from packaging.requirements import Requirement
    from packaging.version import Version

    lower = {}
    for text in _requirements():
        req = Requirement(text)
        lower[_bare(req.name)] = Version(next(s.version for s in req.specifier
                                              if s.operator == ">="))
    pinned = {name: Version(v) for name, v in _pins("constraints/lowest.txt").items()}
    assert pinned == lower


def test_the_lock_the_suite_last_passed_with_lies_within_the_bounds():
    """constraints/tested.txt (pip freeze of the venv the whole suite last passed in) pins
    every dependency, each within its bounds: the lock and pyproject.toml cannot drift."""
    from packaging.requirements import Requirement

    pins = _pins("constraints/tested.txt")
    outside = {}
    for text in _requirements():
        req = Requirement(text)
        version = pins.get(_bare(req.name))
        if version is None or version not in req.specifier:
            outside[req.name] = version
    assert outside == {}
