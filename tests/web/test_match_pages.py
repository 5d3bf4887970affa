"""The home page, a live match, keyboard replay of a finished match, and a seat's own view,
for each game, in a real browser against the real service."""

from __future__ import annotations

import re

import pytest
import requests

from tests.web.conftest import GAMES, PLAYERS, create, finished, play_one, shot


def _version(page) -> int:
    return int(page.locator("#live").get_attribute("data-version"))


@pytest.mark.parametrize("game", GAMES)
def test_home_links_to_a_live_match_whose_board_changes(site, page, game):
    """A match with builtin bots and one remote seat that this test plays slowly: the home
    page lists it as being played; its page redraws the board as the bots move."""
    seats = ["remote"] + ["builtin:random"] * (PLAYERS[game] - 1)
    created = create(site, game, seats)
    match_id, token = created["id"], created["tokens"]["0"]
    page.goto(site + "/")
    assert page.locator("#playing").get_by_text(match_id).count() == 1
    shot(page, "home")
    page.locator("#playing").get_by_role("link", name=match_id).click()
    page.wait_for_url(re.compile(f"/matches/{match_id}$"))
    page.wait_for_selector("#live svg.board")
    before_version, before_svg = _version(page), page.inner_html(".svgwrap")
    assert page.locator("#status").inner_text().startswith("Live")
    played = 0
    while _version(page) <= before_version + 2 and played < 20:
        played += play_one(site, match_id, token)  # the bots answer; the page follows
        page.wait_for_timeout(300)
    page.wait_for_function(f"document.querySelector('#live').dataset.version > {before_version}")
    assert _version(page) > before_version
    assert page.inner_html(".svgwrap") != before_svg
    assert page.locator("#moves li").count() >= _version(page) - 1
    shot(page, f"live-{game}")


def _frame_svg(page, match_id, step) -> str:
    """The server's frame after `step` moves, parsed and serialised by the browser itself."""
    return page.evaluate("""async (url) => {
        const html = await (await fetch(url)).text();
        const doc = new DOMParser().parseFromString(html, "text/html");
        return doc.querySelector(".svgwrap").innerHTML; }""", f"/matches/{match_id}/frame/{step}")


@pytest.mark.parametrize("game", GAMES)
def test_step_a_finished_match_with_the_keyboard(site, page, game):
    """#move=N opens the board after N moves; arrows, Home and End step through the log and
    every frame is the one the server rebuilds from the log."""
    created = create(site, game, ["builtin:random"] * PLAYERS[game], seed=5)
    match = finished(site, created["id"])
    last = match["version"]
    page.goto(f"{site}/matches/{created['id']}#move=5")
    page.wait_for_function("document.querySelector('#frame').dataset.step === '5'")
    assert page.locator("#step").inner_text() == "5"
    assert page.locator("#m5").get_attribute("class") == "current"
    five = page.inner_html(".svgwrap")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("document.querySelector('#frame').dataset.step === '6'")
    assert page.url.endswith("#move=6")
    assert page.inner_html(".svgwrap") == _frame_svg(page, created["id"], 6)
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("document.querySelector('#frame').dataset.step === '4'")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("document.querySelector('#frame').dataset.step === '5'")
    assert page.inner_html(".svgwrap") == five
    page.keyboard.press("Home")
    page.wait_for_function("document.querySelector('#frame').dataset.step === '0'")
    page.keyboard.press("End")
    page.wait_for_function(f"document.querySelector('#frame').dataset.step === '{last}'")
    assert page.inner_html(".svgwrap") not in (five, _frame_svg(page, created["id"], 0))
    assert "Over" in page.locator("#turn").inner_text() or "over" in page.locator("#turn").inner_text()
    page.goto(f"{site}/matches/{created['id']}?move={last // 2}")  # no JavaScript needed
    assert page.locator("#step").inner_text() == str(last // 2)
    shot(page, f"replay-{game}")


def test_replay_frames_are_only_for_finished_matches(site):
    """A running match's past boards are not served (the live page shows the present)."""
    created = create(site, "dschunke", ["remote", "builtin:random", "builtin:random"])
    r = requests.get(f"{site}/matches/{created['id']}/frame/0", timeout=10)
    assert r.status_code == 409


@pytest.mark.parametrize("game", GAMES)
def test_a_seat_sees_its_own_view_with_its_token(site, page, game):
    """The seat page reads the token from the fragment, sends it only as a header, drops it
    from the address bar, and shows what only that seat sees (Dschunke: the hand)."""
    seats = ["remote"] + ["builtin:random"] * (PLAYERS[game] - 1)
    created = create(site, game, seats)
    match_id, token = created["id"], created["tokens"]["0"]
    urls = []
    page.on("request", lambda request: urls.append(request.url))
    page.goto(f"{site}/matches/{match_id}/seat#token={token}")
    page.wait_for_selector("#seatview svg.board")
    assert token not in page.url
    assert all(token not in url for url in urls[1:])  # the first is the page: fragment, unsent
    if game == "dschunke":
        hand = page.locator("#hand").inner_text()
        assert "Your goods cards" in hand
        spectator = requests.get(f"{site}/matches/{match_id}", timeout=10).text
        assert "Your goods cards" not in spectator and 'id="hand"' not in spectator
    shot(page, f"seat-{game}")


def test_a_wrong_token_is_refused(site, page):
    created = create(site, "dschunke", ["remote", "builtin:random", "builtin:random"])
    page.goto(f"{site}/matches/{created['id']}/seat#token=st_not-a-token")
    page.wait_for_function("document.querySelector('#status').textContent.includes('403')")
    assert page.locator("#hand").count() == 0


@pytest.mark.parametrize("game", GAMES)
def test_home_links_to_each_rules_summary(site, page, game):
    page.goto(site + "/")
    page.locator(f'a[href="/games/{game}/rules"]').click()
    page.wait_for_selector("article.rules h2")
    text = page.locator("article.rules").inner_text()
    assert len(text) > 500 and "##" not in text and "**" not in text   # rendered Markdown
    assert page.locator("article.rules table").count() >= 1 or "|" not in text   # tables drawn
    entries = page.locator("#toc a")
    assert entries.count() >= 3
    target = entries.first.get_attribute("href")
    entries.first.click()
    assert page.locator(f"article.rules {target}").count() == 1   # each entry is a heading's id
    shot(page, f"rules-{game}")


def test_rules_markdown_shows_raw_html_as_text():
    """The Markdown's own HTML is never passed through: a <script> in it is text."""
    from referee.web.rules_md import render

    html, contents = render("## A <b>bold</b> idea\n\n<script>alert(1)</script>\n\n"
                            "| a | b |\n|---|---|\n| 1 | 2 |\n")
    assert "<script>" not in html and "&lt;script&gt;" in html and "<table>" in html
    assert contents == [(2, "a-b-bold-b-idea", "A <b>bold</b> idea")]


def test_api_docs_are_linked_from_home(site, page):
    page.goto(site + "/")
    for name, path in (("Swagger UI", "/v1/docs"), ("ReDoc", "/v1/redoc")):
        assert page.get_by_role("link", name=name).get_attribute("href") == path
        assert requests.get(site + path, timeout=10).status_code == 200
