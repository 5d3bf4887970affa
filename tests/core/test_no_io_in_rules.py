"""The rules core and the games import no Flask, Redis or requests (nor any I/O library)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = {"flask", "flask_smorest", "redis", "rq", "requests", "fakeredis", "marshmallow",
             "werkzeug", "socket", "http", "urllib", "gunicorn", "arena"}
FILES = sorted((ROOT / "referee" / "core").rglob("*.py")) + \
    sorted((ROOT / "referee" / "games").rglob("*.py"))


def imported_modules(path: Path) -> set[str]:
    """Top-level names of every module a file imports."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("path", FILES, ids=[str(f.relative_to(ROOT)) for f in FILES])
def test_rules_code_does_no_io(path):
    """No forbidden import in referee/core or referee/games."""
    assert not imported_modules(path) & FORBIDDEN


def test_importing_the_games_loads_no_io_library():
    """Importing the whole rules side in a fresh interpreter pulls in none of them."""
    import subprocess
    import sys

    code = ("import sys, referee.games, referee.core.engine, referee.conformance;"
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in %r);"
            "print(','.join(bad))" % (FORBIDDEN - {"socket", "http", "urllib"}))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, check=True).stdout.strip()
    assert out == ""
