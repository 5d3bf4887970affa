"""Every page type at a phone's size (390x844) and a laptop's (1280x800): no horizontal page
overflow, the board drawn across its column, the moves below the board on a phone (not over
the seats table). Screenshots of each land in tests/web/screenshots/ (look at them)."""

from __future__ import annotations

import pytest

from tests.web.conftest import shot
from tests.web.test_security import WATCH, _pages

SIZES = {"phone": (390, 844), "laptop": (1280, 800)}
SMALLEST_TEXT = """() => {
  const svg = document.querySelector("svg.board");
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  return Math.min(...[...svg.querySelectorAll("text")].map(
    (t) => parseFloat(t.getAttribute("font-size") || getComputedStyle(t).fontSize) * scale));
}"""


@pytest.fixture(scope="module")
def pages(site):
    """One match of each kind for the module's pages."""
    return _pages(site)


@pytest.mark.parametrize("size", SIZES)
def test_every_page_fits_the_width(site, browser, pages, size):
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.add_init_script(WATCH)
    try:
        for name, (path, ready) in pages.items():
            page.goto(site + path)
            page.wait_for_selector(ready)
            page.wait_for_timeout(200)
            if name == "docs":   # a few operations opened: their tables stay in the page
                for k in (6,):
                    page.locator(".opblock-summary").nth(k).click()
                page.wait_for_timeout(400)
                page.wait_for_selector(".opblock-body .responses-table")
            shot(page, f"{size}-{name}")
            overflow = page.evaluate("document.documentElement.scrollWidth")
            assert overflow <= width, (name, overflow)
            board = page.locator("svg.board").first
            if board.count():   # no board text under 11 px on a laptop, 9 px on a phone
                smallest = page.evaluate(SMALLEST_TEXT)   # (there the board scrolls sideways)
                assert smallest >= (11 if size == "laptop" else 9), (name, smallest)
            if board.count():
                box, column = board.bounding_box(), page.locator(".boardcol").first.bounding_box()
                assert box["width"] >= 0.9 * column["width"] - 4, (name, box, column)
                wrap = page.locator(".svgwrap").first.bounding_box()
                assert wrap["width"] <= width, (name, wrap)   # the board's box fits the page
                if size == "phone":
                    assert box["width"] >= 340, (name, box)
                    moves = page.locator("aside").first.bounding_box()  # the list scrolls in it
                    seats = page.locator("#seats").first.bounding_box()
                    if moves and seats:  # stacked: the moves come after the seats table
                        assert moves["y"] >= seats["y"] + seats["height"] - 1, (name, moves, seats)
    finally:
        context.close()
