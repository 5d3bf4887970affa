"""Modules a reader can hold (issue 44): every module of referee/, arena/ and clients/python
over LIMIT lines says at the top, in its docstring, why it is one module of that size, in a
line starting with MARKER; or it is split."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("referee", "arena", "clients/python")
LIMIT = 300
MARKER = "Why one module:"

# Modules still over LIMIT without a reason (issue 44 emptied it: each was split or given its
# reason). An entry that no longer needs to be here fails the test below.
UNREASONED: set[str] = set()


def _long_modules() -> dict[str, Path]:
    """Every module of FOLDERS over LIMIT lines, by its path from the repository root."""
    found = {}
    for folder in FOLDERS:
        for path in (ROOT / folder).rglob("*.py"):
            if ".venv" in path.parts or "__pycache__" in path.parts:
                continue
            lines = path.read_text(encoding="utf-8").splitlines()
            if len(lines) > LIMIT:
                found[path.relative_to(ROOT).as_posix()] = path
    return found


def _reason(path: Path) -> str | None:
    """The module docstring's line starting with MARKER (with what follows it), or None."""
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    for line in doc.splitlines():
        if line.strip().startswith(MARKER):
            return line.strip()[len(MARKER):].strip()
    return None


def test_every_long_module_says_why_it_is_one():
    """A module over LIMIT lines carries its reason (a few words at least) or is allow-listed."""
    missing = [name for name, path in sorted(_long_modules().items())
               if name not in UNREASONED and len(_reason(path) or "") < 20]
    assert missing == [], (f"over {LIMIT} lines with no '{MARKER} ...' line in the module "
                           f"docstring (split it, or say why it is one module): {missing}")


def test_the_allow_list_holds_only_modules_that_still_need_it():
    """An allow-listed module that was split, shortened or given its reason leaves the list."""
    long = _long_modules()
    stale = sorted(name for name in UNREASONED
                   if name not in long or _reason(long[name]) is not None)
    assert stale == [], f"strike from UNREASONED (now short enough or reasoned): {stale}"


def test_a_reason_is_read_from_the_docstring_only(tmp_path):
    """The marker counts in the module docstring, not in a comment or a later string."""
    doc = tmp_path / "doc.py"
    doc.write_text(f'"""A module.\n\n{MARKER} one table read as one."""\nX = 1\n')
    comment = tmp_path / "comment.py"
    comment.write_text(f'"""A module."""\n# {MARKER} one table read as one.\n'
                       f'Y = """{MARKER} not the docstring"""\n')
    assert _reason(doc) == "one table read as one." and _reason(comment) is None
    assert len(_long_modules()) > len(UNREASONED)   # the walk sees the reasoned ones too
