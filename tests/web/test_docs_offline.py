"""The API docs pages work with no network beyond the service: Swagger UI and ReDoc come from
the packaged copies (referee/api/static), and each page links the raw OpenAPI document."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from tests.web.conftest import shot


@pytest.fixture
def offline(browser):
    """A page whose every request to anywhere but loopback is aborted (and remembered)."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    blocked = []

    def route(r):
        if urlsplit(r.request.url).hostname in ("127.0.0.1", "localhost", "::1"):
            return r.continue_()
        blocked.append(r.request.url)
        return r.abort()

    context.route("**/*", route)
    page = context.new_page()
    page.blocked = blocked
    yield page
    context.close()


def test_swagger_ui_renders_the_operations_offline(site, offline):
    offline.goto(site + "/v1/docs")
    offline.wait_for_selector(".opblock", timeout=20000)
    assert offline.locator(".opblock").count() > 20  # every operation of the API
    assert offline.get_by_text("/v1/matches/{match_id}/moves").count() >= 1
    assert offline.locator("a[href='/v1/openapi.json']").count() >= 1   # the raw document
    assert offline.blocked == []  # nothing was even asked of the outside
    shot(offline, "docs-offline")


def test_redoc_renders_offline(site, offline):
    offline.goto(site + "/v1/redoc")
    offline.wait_for_selector("h1", timeout=20000)
    offline.wait_for_selector("text=Create a match", state="attached", timeout=20000)
    assert "Referee" in offline.locator("h1").first.inner_text()
    assert offline.locator("a[href='/v1/openapi.json']").count() >= 1
    # ReDoc's "API docs by Redocly" badge asks for its logo from a CDN; the page's CSP
    # refuses it before any request, so nothing else may have been asked for
    assert [u for u in offline.blocked if "cdn.redoc.ly/redoc/logo" not in u] == []
    shot(offline, "redoc-offline")
