"""The documentation served as pages: the README at /docs and docs/<page>.md at /docs/<page>,
rendered as the rules summaries are (markdown-it-py, raw HTML off, a table of contents).
Anyone may read them; they hold nothing about any match.

Links between the pages are written for a reader of the repository (`bots.md`,
`../README.md`, `seeds/<game>/rules.md`); they are rewritten to the served addresses so that
they work in both places.
"""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

from flask import abort, redirect, render_template
from markupsafe import Markup

from referee.service.access import ANYONE, requires
from referee.web import rules_md
from referee.web.pages import blp

PAGE = re.compile(r"^[a-z][a-z0-9-]*$")


def docs_dir():
    """The pages: the installed package's copy (setup.py puts README.md and docs/ there),
    else the checkout's docs/ (an editable install)."""
    packaged = resources.files("referee") / "docs"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "docs"


def _readme():
    packaged = resources.files("referee") / "docs" / "README.md"
    return packaged if packaged.is_file() else Path(__file__).resolve().parents[2] / "README.md"


def page_names() -> list[str]:
    """The docs pages there are, by name (docs/<name>.md)."""
    return sorted(p.name[:-3] for p in docs_dir().iterdir()
                  if p.name.endswith(".md") and p.name != "README.md")


def _links(html: str) -> Markup:
    """Repository links -> served ones: `x.md` and `docs/x.md` -> /docs/x, the README ->
    /docs, a game's rules summary -> its rules page."""
    html = re.sub(r'href="(?:\.\./)?README\.md(#[^"]*)?"', r'href="/docs\1"', html)
    html = re.sub(r'href="(?:docs/)?([a-z][a-z0-9-]*)\.md(#[^"]*)?"', r'href="/docs/\1\2"', html)
    html = re.sub(r'href="seeds/([a-z-]+)/rules\.md"', r'href="/games/\1/rules"', html)
    return Markup(html)


def _render(text: str, title: str, name: str):
    html, contents = rules_md.render(text)
    return render_template("web/doc.html", title=title, name=name, html=_links(str(html)),
                           contents=contents, pages=page_names())


@blp.get("/docs")
@requires(ANYONE)
def readme():
    """The README, rendered, with the list of docs pages."""
    return _render(_readme().read_text(encoding="utf-8"), "Referee", "README")


@blp.get("/docs/<name>")
@requires(ANYONE)
def doc(name):
    """One docs page (docs/<name>.md), rendered with a table of contents; `<name>.md` is
    sent to the same page."""
    if name.endswith(".md"):
        return redirect(f"/docs/{name[:-3]}" if name != "README.md" else "/docs", 301)
    if not PAGE.match(name) or name not in page_names():
        abort(404)
    text = (docs_dir() / f"{name}.md").read_text(encoding="utf-8")
    title = text.splitlines()[0].lstrip("# ").strip() if text.startswith("# ") else name
    return _render(text, title, name)
