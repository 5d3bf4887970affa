"""The client is the project's own package, and it depends on nothing of ours but the wire."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib

from setuptools import find_packages

from tests.clients.support import CLIENTS_PY, ROOT


def test_package_discovery_covers_the_service_and_the_client():
    """pyproject's find configuration finds referee, arena and every referee_client package
    (what `pip install .` or `-e .` installs), and nothing from tests or examples."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    find = config["packages"]["find"]
    found = set()
    for where in find["where"]:
        found |= set(find_packages(str(ROOT / where), include=find["include"]))
    client_dirs = {str(p.parent.relative_to(CLIENTS_PY)).replace(os.sep, ".")
                   for p in (CLIENTS_PY / "referee_client").rglob("__init__.py")}
    assert client_dirs <= found
    assert {"referee", "referee.api", "arena"} <= found
    assert not any(p.startswith(("tests", "examples")) for p in found)


def test_the_client_imports_nothing_of_the_service():
    """With only clients/python on the path, every module imports, and neither referee nor
    arena is loaded."""
    code = ("import sys, referee_client, referee_client.botkit, referee_client.play.cli, "
            "referee_client.render; "
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('referee', 'arena')); "
            "assert not bad, bad")
    env = {**os.environ, "PYTHONPATH": str(CLIENTS_PY)}
    done = subprocess.run([sys.executable, "-c", code], cwd="/", env=env, capture_output=True,
                          text=True, timeout=30)
    assert done.returncode == 0, done.stderr
