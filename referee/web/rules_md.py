"""A game's rules summary (seeds/<game>/rules.md) as HTML: markdown-it-py, CommonMark with
tables, raw HTML off (the Markdown's own `<...>` is shown as text), every heading given an
id and listed in a table of contents."""

from __future__ import annotations

import re
from functools import lru_cache

from markdown_it import MarkdownIt
from markupsafe import Markup

_MD = MarkdownIt("commonmark", {"html": False}).enable("table")


def _slug(text: str, taken: set) -> str:
    """`Bidding & travel` -> `bidding-travel` (numbered if taken)."""
    base = re.sub(r"[^\w]+", "-", text.lower()).strip("-") or "section"
    slug, n = base, 2
    while slug in taken:
        slug, n = f"{base}-{n}", n + 1
    taken.add(slug)
    return slug


@lru_cache(maxsize=16)
def render(text: str) -> tuple[Markup, list]:
    """(the HTML, the contents as [(level, id, heading)] for h2-h3)."""
    tokens, taken, contents = _MD.parse(text), set(), []
    for index, token in enumerate(tokens):
        if token.type == "heading_open":
            title = tokens[index + 1].content
            slug = _slug(title, taken)
            token.attrSet("id", slug)
            level = int(token.tag[1])
            if level in (2, 3):
                contents.append((level, slug, title))
    return Markup(_MD.renderer.render(tokens, _MD.options, {})), contents
