"""The README and the docs/ pages, as the tests that run their commands read them."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
PAGES = {path.stem: path.read_text(encoding="utf-8") for path in sorted((ROOT / "docs").glob("*.md"))}
"""docs/<name>.md by name."""


def page(name: str) -> str:
    """The text of docs/<name>.md (`README` for the README)."""
    return README if name == "README" else PAGES[name]


def every_page() -> dict[str, str]:
    """The README and every docs page, by name."""
    return {"README": README, **PAGES}
