"""The docs pages served by the service (issue 44): the README at /docs and every docs/ page at
/docs/<page>, rendered (no raw Markdown), with contents, links rewritten to served pages."""

from __future__ import annotations

import re

import pytest

from tests.support.docs import PAGES


@pytest.fixture
def app(shared_app):
    """Read-only pages: the module shares one app."""
    return shared_app


def test_the_readme_and_every_page_are_served_rendered(client):
    """Anyone gets each page as HTML: headings as <h2>, tables as <table>, no `## `."""
    assert PAGES, "docs/ has pages"
    for name in ["", *(f"/{n}" for n in PAGES)]:
        answer = client.get(f"/docs{name}", headers={"Authorization": ""})
        assert answer.status_code == 200, name
        html = answer.data.decode()
        assert "<h2" in html and "\n## " not in html, name
        assert 'id="toc"' in html, name


def test_links_between_pages_point_at_served_pages(client):
    """`bots.md` and `docs/bots.md` become /docs/bots, the README /docs, a rules summary its
    rules page; every /docs link found answers 200."""
    html = client.get("/docs").data.decode()
    assert 'href="/docs/bots"' in html and 'href="/games/dschunke/rules"' in html
    assert 'href="docs/' not in html and '.md"' not in html
    served = set(re.findall(r'href="(/docs[^"#]*)', html))
    for name in PAGES:
        served |= set(re.findall(r'href="(/docs[^"#]*)',
                                 client.get(f"/docs/{name}").data.decode()))
    for link in sorted(served):
        assert client.get(link).status_code == 200, link


def test_a_markdown_name_redirects_and_an_unknown_page_is_a_404(client):
    """/docs/bots.md -> /docs/bots (a link copied from the repository); no page -> 404;
    no path outside docs/ is read."""
    moved = client.get("/docs/bots.md")
    assert moved.status_code == 301 and moved.headers["Location"].endswith("/docs/bots")
    assert client.get("/docs/README.md").headers["Location"].endswith("/docs")
    for bad in ("nope", "..%2Fsetup", "%2Fetc%2Fpasswd", "Bots"):
        assert client.get(f"/docs/{bad}").status_code == 404, bad
