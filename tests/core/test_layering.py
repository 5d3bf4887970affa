"""The arrows of the house: referee/service and referee/api never import the arena (nor the
composition root that names it); the arena never imports referee.api; the offline commands
and the workers load no Flask."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BELOW = sorted((ROOT / "referee" / "service").rglob("*.py")) + \
    sorted((ROOT / "referee" / "api").rglob("*.py")) + \
    sorted((ROOT / "referee" / "access").rglob("*.py"))  # the access plug-in: no arena either
ARENA = sorted((ROOT / "arena").rglob("*.py"))


def imports(path: Path) -> set[str]:
    """The full dotted name of every absolute import in a file (inside functions too);
    `from a import b` counts as both `a` and `a.b`."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names |= {f"{node.module}.{a.name}" for a in node.names}
    return names


def _hits(names: set[str], forbidden: tuple[str, ...]) -> list[str]:
    return sorted(n for n in names if any(n == f or n.startswith(f + ".") for f in forbidden))


@pytest.mark.parametrize("path", BELOW, ids=[str(f.relative_to(ROOT)) for f in BELOW])
def test_service_and_api_do_not_import_the_arena(path):
    """Plug-ins come in through the root, never by an import from below."""
    assert _hits(imports(path), ("arena", "referee.root", "referee.cli")) == []


@pytest.mark.parametrize("path", ARENA, ids=[str(f.relative_to(ROOT)) for f in ARENA])
def test_the_arena_does_not_import_the_api(path):
    """The arena contributes endpoints through the seam; it needs nothing of referee.api."""
    assert _hits(imports(path), ("referee.api",)) == []


def test_the_scan_sees_a_forbidden_import(tmp_path):
    """The scan itself: lazy imports inside a function are found."""
    path = tmp_path / "probe.py"
    path.write_text("def f():\n    from arena.service import Arena\n"
                    "    import referee.api.matches\n    from referee import api\n")
    assert _hits(imports(path), ("arena",)) == ["arena.service", "arena.service.Arena"]
    assert _hits(imports(path), ("referee.api",)) == ["referee.api", "referee.api.matches"]


@pytest.mark.parametrize("module", ["arena.cli", "referee.root", "referee.service.worker"])
def test_offline_and_worker_modules_load_no_flask(module):
    """`import arena.cli` (and the root, and the worker) in a fresh interpreter: no Flask."""
    code = (f"import sys, {module};"
            "print(','.join(sorted(m for m in sys.modules "
            "if m.split('.')[0] in ('flask', 'flask_smorest', 'werkzeug'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, check=True).stdout.strip()
    assert out == ""
