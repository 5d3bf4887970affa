"""The board in the browser beyond the controls: a click on a place of the board picks the
move acting there (Yunnan's Pu'er rows, Yinzi's Fields), the last move is marked on live and
replayed boards, a finished match's reveal-all seats table shows cash, and the seat page's
intro says what that game's seat sees."""

from __future__ import annotations

import pytest
import requests

from referee.web import boards
from tests.web.conftest import create, finished, shot

STATE = "document.querySelector('#controls').dataset"
NAMES = "gs => gs.map(g => g.dataset.place)"


@pytest.fixture
def desk(browser):
    """A page at 1280x800 (the CSP bypassed as conftest's page does: wait_for_function
    evaluates strings)."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    yield page
    context.close()
    assert not errors, errors


def _controls(site, created) -> dict:
    return requests.get(f"{site}/matches/{created['id']}/controls", timeout=10,
                        headers={"Authorization": f"Bearer {created['tokens']['0']}"}).json()


def _picked_words(page) -> str:
    """The words of the move the picked control would play (a button's, or a form's)."""
    return page.evaluate("""() => { const p = document.querySelector('#controls .picked');
        if (!p) return null;
        return p.tagName === 'FORM' ? p.querySelector('.words').textContent : p.textContent; }""")


@pytest.mark.parametrize("game", ["yunnan", "yinzi-ming"])
def test_a_click_on_the_board_picks_the_move_acting_there(site, desk, game):
    page = desk
    created = create(site, game, ["remote", "builtin:random", "builtin:random"], seed=21)
    page.goto(f"{site}/matches/{created['id']}/seat#token={created['tokens']['0']}")
    page.wait_for_function(f"{STATE}.state === 'act'", timeout=20000)
    page.wait_for_selector("svg.board g.place.can")
    groups = _controls(site, created)["groups"]
    clickable = page.eval_on_selector_all("svg.board g.place.can", NAMES)
    key = clickable[-1]
    acting = [m["words"] for g in groups for m in g["moves"] if key in m["places"]]
    assert acting, (key, clickable)
    page.locator(f'svg.board g.place.can[data-place="{key}"]').first.click()
    assert _picked_words(page) in acting
    first = _picked_words(page)
    if len(acting) > 1:   # clicking again steps to the next move acting there
        page.locator(f'svg.board g.place.can[data-place="{key}"]').first.click()
        assert _picked_words(page) in acting and _picked_words(page) != first
    shot(page, f"board-click-{game}")
    version = page.locator("#controls").get_attribute("data-version")
    chosen = _picked_words(page)
    picked = page.locator("#controls .picked")
    (picked.locator("button") if picked.evaluate("p => p.tagName") == "FORM" else picked).click()
    page.wait_for_function(f"{STATE}.version !== '{version}'")
    log = requests.get(f"{site}/v1/matches/{created['id']}/log", timeout=10).json()["moves"]
    assert log[int(version)]["seat"] == 0
    words = {m["words"]: m["move"] for g in groups for m in g["moves"]}
    assert log[int(version)]["move"] == words[chosen]   # the move picked on the board


def test_the_seat_intro_says_what_this_games_seat_sees(site, desk):
    page = desk
    for game, says in (("dschunke", "your goods cards, your cash"), ("yunnan", "Yunnan hides"),
                       ("yinzi-ming", "hides nothing")):
        created = create(site, game, ["remote", "builtin:random", "builtin:random"])
        page.goto(f"{site}/matches/{created['id']}/seat")
        intro = page.locator("main p.muted").first.inner_text()
        assert says in intro and "(Dschunke: the hand)" not in intro, intro


def test_the_last_move_is_marked_on_live_and_replayed_boards(site, desk):
    page = desk
    created = create(site, "yinzi-ming", ["remote", "builtin:random", "builtin:random"], seed=4)
    prompt = requests.get(f"{site}/v1/matches/{created['id']}/prompt", timeout=10,
                          headers={"Authorization": f"Bearer {created['tokens']['0']}"}).json()
    move = prompt["legal_moves"][0]   # a starting Peasant on a Field
    r = requests.post(f"{site}/v1/matches/{created['id']}/moves", json={"move": move},
                      headers={"Authorization": f"Bearer {created['tokens']['0']}"}, timeout=10)
    assert r.status_code == 200, r.text
    page.goto(f"{site}/matches/{created['id']}")
    page.wait_for_selector("#live svg.board g.place.last")
    assert "Last move:" in page.locator("#lastmove").inner_text()
    assert page.locator("svg.board g.place.last").first.get_attribute("data-place") \
        .startswith("field:")
    style = page.evaluate("""() => {   // in one go: the live page redraws as the bots move
        const e = document.querySelector('svg.board g.place.last > :first-child');
        return [getComputedStyle(e).strokeWidth, getComputedStyle(e).strokeDasharray]; }""")
    assert style[0] == "5px" and style[1] != "none", style   # thick and dashed: not colour alone
    shot(page, "live-last-move-yinzi-ming")

    done = create(site, "dschunke", ["builtin:random"] * 3, seed=7)
    finished(site, done["id"])
    log = requests.get(f"{site}/v1/matches/{done['id']}/log", timeout=10).json()["moves"]
    at = next(i for i, e in enumerate(log, 1) if e["move"]["type"] == "resupply")
    page.goto(f"{site}/matches/{done['id']}#move={at}")
    page.wait_for_function(f"document.querySelector('#frame').dataset.step === '{at}'")
    junk = log[at - 1]["move"]["junk"]
    marked = page.eval_on_selector_all("#frame svg.board g.place.last", NAMES)
    assert marked == [f"junk:{junk}"], marked
    shot(page, "replay-last-move-dschunke")
    page.keyboard.press("ArrowRight")   # the mark follows the step
    page.wait_for_function(f"document.querySelector('#frame').dataset.step === '{at + 1}'")
    marked = page.eval_on_selector_all("#frame svg.board g.place.last", NAMES)
    assert marked == boards.places("dschunke", log[at]["move"]), (marked, log[at])


def test_reveal_all_shows_every_seats_cash_in_the_seats_table(site, desk):
    page = desk
    created = create(site, "dschunke", ["builtin:random"] * 3, seed=8)
    finished(site, created["id"])
    page.goto(f"{site}/matches/{created['id']}#move=4")
    page.wait_for_function("document.querySelector('#frame').dataset.step === '4'")
    assert "hidden" in page.locator("#seats").inner_text()   # the spectator's view first
    page.select_option("#perspective", "all")
    page.wait_for_selector("#hand0")
    rows = page.locator("#seats tr").all_inner_texts()[1:]
    assert len(rows) == 3 and not any("hidden" in row for row in rows), rows
    assert "no longer secret" in page.locator("#revealnote").inner_text()
    shot(page, "replay-reveal-all-seats-dschunke")
    page.select_option("#perspective", "seat1")   # one seat's view: only its own cash
    page.wait_for_selector("#frame #hand")
    rows = page.locator("#seats tr").all_inner_texts()[1:]
    assert ["hidden" in row for row in rows] == [True, False, True], rows
