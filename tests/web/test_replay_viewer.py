"""The replay viewer: play/pause at a speed, the last move named over the board, and once the
match is over its hidden information for everyone (all seats, or one seat's own view); never
while it runs."""

from __future__ import annotations

import requests

from tests.web.conftest import create, finished, shot


def _step(page) -> int:
    return int(page.locator("#frame").get_attribute("data-step"))


def test_play_pause_speed_and_the_last_move(site, page):
    created = create(site, "dschunke", ["builtin:random"] * 3, seed=7)
    finished(site, created["id"])
    page.goto(f"{site}/matches/{created['id']}#move=2")
    page.wait_for_function("document.querySelector('#frame').dataset.step === '2'")
    words = page.locator("#m2").inner_text().split(": ", 1)[1]
    assert page.locator("#lastmove").inner_text().endswith(words)   # move 2, named over the board
    page.select_option("#speed", "200")
    page.click("#play")
    # compared as numbers: as strings, "27" >= "5" is false, and a slow poll that first
    # looks after step 9 waited out its timeout on a page that had played on
    page.wait_for_function("Number(document.querySelector('#frame').dataset.step) >= 5",
                           timeout=5000)
    page.click("#play")   # pause
    page.wait_for_timeout(600)
    paused = _step(page)
    page.wait_for_timeout(800)
    assert _step(page) == paused >= 5
    page.keyboard.press("ArrowRight")   # the keys still step
    page.wait_for_function(f"document.querySelector('#frame').dataset.step === '{paused + 1}'")
    page.keyboard.press(" ")   # space plays
    page.wait_for_function(
        f"Number(document.querySelector('#frame').dataset.step) > {paused + 2}")
    page.keyboard.press(" ")
    shot(page, "replay-playing-dschunke")


def test_reveal_all_and_one_seats_view_once_over(site, page):
    created = create(site, "dschunke", ["builtin:random"] * 3, seed=8)
    finished(site, created["id"])
    page.goto(f"{site}/matches/{created['id']}#move=4")
    page.wait_for_function("document.querySelector('#frame').dataset.step === '4'")
    assert "no longer secret" in page.locator("#revealnote").inner_text()
    assert page.locator("#frame .hand").count() == 0          # the spectator's view first
    page.select_option("#perspective", "all")
    page.wait_for_selector("#hand0")
    for seat in range(3):
        assert "goods cards" in page.locator(f"#hand{seat}").inner_text()
    assert _step(page) == 4
    shot(page, "replay-reveal-all-dschunke")
    page.select_option("#perspective", "seat1")
    page.wait_for_selector("#frame #hand")
    assert page.locator("#frame .revealed").count() == 0
    assert "(builtin:random)" in page.locator("#seats").inner_text()
    page.keyboard.press("ArrowRight")   # the perspective stays as the steps change
    page.wait_for_function("document.querySelector('#frame').dataset.step === '5'")
    assert page.locator("#frame #hand").count() == 1
    page.select_option("#perspective", "spectator")
    page.wait_for_function("!document.querySelector('#frame .hand')")


def test_nothing_is_revealed_while_the_match_runs(site, page):
    created = create(site, "dschunke", ["remote", "builtin:random", "builtin:random"])
    match_id = created["id"]
    for perspective in ("all", "seat0", "seat1", "spectator"):
        r = requests.get(f"{site}/matches/{match_id}/frame/{perspective}/0", timeout=10)
        assert r.status_code == 409, perspective
        assert "goods cards" not in r.text
    page.goto(f"{site}/matches/{match_id}")
    page.wait_for_selector("#live svg.board")
    assert page.locator("#perspective").count() == 0 and page.locator("#play").count() == 0
    assert "Your goods cards" not in page.content()
    r = requests.get(f"{site}/matches/{match_id}/frame/nobody/0", timeout=10)
    assert r.status_code == 409   # refused before the name is even read
