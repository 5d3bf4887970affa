"""Playing a seat in the browser, clicking only: a whole Dschunke match against two builtin
bots started from the home page, and a Yunnan and a Yinzi turn with a rejection shown inline;
at a desktop and a phone size, with screenshots."""

from __future__ import annotations

import json
import os
import random
import re

import pytest
import requests
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.web.conftest import create, shot

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
STATE = "document.querySelector('#controls').dataset"


@pytest.fixture(params=sorted(SIZES))
def sized(browser, request):
    """A fresh page at each size: (page, size name)."""
    # bypass_csp: wait_for_function evaluates strings, which the CSP refuses; the seat page
    # under its CSP is tests/web/test_security.py's
    context = browser.new_context(viewport=SIZES[request.param], bypass_csp=True)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    yield page, request.param
    context.close()
    assert not errors, errors  # the scripts ran without an uncaught error


def _settled(page) -> str:
    """Wait until the seat must act or the match is over; which."""
    page.wait_for_function(f"['act', 'over'].includes({STATE}.state)", timeout=20000)
    return page.locator("#controls").get_attribute("data-state")


def _start_from_home(page, site, game: str, bots: int) -> str:
    """Fill the home page's "Play against bots" form; the match id of the seat page it opens."""
    page.goto(site + "/")
    page.select_option("#playgame", game)
    page.select_option("#playbots-count", str(bots))
    page.fill("#playkey", os.environ["REFEREE_ORGANISER_KEY"])
    page.get_by_role("button", name="Start and play").click()
    page.wait_for_url(re.compile(r"/matches/[^/]+/seat$"))
    return page.url.split("/matches/")[1].split("/")[0]


def test_play_a_whole_dschunke_match_by_clicking(site, sized):
    """Every decision the human seat meets is taken by clicking a button or a form's Play;
    sealed bids are marked private; the match ends with the seat in the result."""
    page, size = sized
    match_id = _start_from_home(page, site, "dschunke", 2)
    seats = requests.get(f"{site}/v1/matches/{match_id}", timeout=10).json()["seats"]
    assert [s["kind"] for s in seats] == ["remote", "builtin:random", "builtin:random"]
    rng, kinds, clicks, forms, sealed, rejected = random.Random(size), set(), 0, 0, 0, 0
    while _settled(page) == "act" and clicks < 400:
        now = page.evaluate("""() => { const c = document.querySelector('#controls');
            const note = c.querySelector('.sealed');  // read with the state, in one go
            return {version: c.dataset.version, kind: c.dataset.kind,
                    sealed: c.dataset.sealed === 'true', note: note && note.textContent}; }""")
        version = now["version"]
        kinds.add(now["kind"])
        if now["sealed"]:
            sealed += 1
            assert "only you see" in now["note"]
            if sealed == 1:
                shot(page, f"play-dschunke-bid-{size}")
        plays = page.locator("#controls .play:enabled")
        if plays.count() == 0:   # the page is redrawing after the bots moved: look again
            continue
        choice = plays.nth(rng.randrange(plays.count()))
        is_form = choice.get_attribute("type") != "button"
        try:
            choice.click(timeout=5000)
        except PlaywrightTimeout:   # redrawn (disabled, then replaced) under the click
            continue
        forms += is_form
        clicks += 1
        page.wait_for_function(f"{STATE}.version !== '{version}' || "
                               "document.querySelector('#rejection').textContent !== ''")
        code = page.locator("#rejection").get_attribute("data-code")
        assert code in (None, "match.version_stale"), page.locator("#rejection").inner_text()
        rejected += code is not None  # the bots moved between drawing and clicking: again
    match = requests.get(f"{site}/v1/matches/{match_id}", timeout=10).json()
    assert match["status"] == "over" and match["result"], match
    log = requests.get(f"{site}/v1/matches/{match_id}/log", timeout=10).json()["moves"]
    ours = [e for e in log if e["seat"] == 0]
    assert len(ours) == clicks - rejected and all(e["by"] == "seat" for e in ours)
    assert page.locator("#controls").inner_text() == "The match is over."
    assert {"bid", "action"} <= kinds and sealed and forms, (kinds, sealed, forms)
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('Finished')")
    shot(page, f"play-dschunke-over-{size}")


def _seat_page(page, site, game: str) -> dict:
    created = create(site, game, ["remote", "builtin:random", "builtin:random"], seed=21)
    page.goto(f"{site}/matches/{created['id']}/seat#token={created['tokens']['0']}")
    return created


def _rejected(page) -> str:
    page.wait_for_function("document.querySelector('#rejection').textContent !== ''")
    return page.locator("#rejection").inner_text()


@pytest.mark.parametrize("game", ["yunnan", "yinzi-ming"])
def test_a_turn_with_a_rejection_shown_inline(site, sized, game):
    """A move typed as JSON that the rules refuse, and a click on controls the match has
    moved past, are rejected with their code inline; then a click plays the turn."""
    page, size = sized
    created = _seat_page(page, site, game)
    assert _settled(page) == "act"
    version = int(page.locator("#controls").get_attribute("data-version"))
    page.locator("#jsonmove summary").click()
    page.fill("#jsontext", json.dumps({"type": "no_such_move"}))
    page.get_by_role("button", name="Send this move").click()
    text = _rejected(page)
    assert re.match(r"Rejected: move\.(unexpected|malformed|illegal)", text), text
    shot(page, f"play-{game}-rejected-{size}")
    page.fill("#jsontext", "{not json")
    page.get_by_role("button", name="Send this move").click()
    assert _rejected(page).startswith("Not JSON")
    # a stale version: the controls still show `version` while the move is sent for another
    page.evaluate(f"document.querySelector('#jsonform').dataset.version = '{version + 7}'")
    legal = page.locator("#controls .play").first
    page.fill("#jsontext", legal.get_attribute("title") or _first_legal(site, created))
    page.get_by_role("button", name="Send this move").click()
    assert "match.version_stale" in _rejected(page)
    assert page.locator("#controls").get_attribute("data-version") == str(version)
    page.locator("#controls .play").first.click()
    page.wait_for_function(f"{STATE}.version !== '{version}'")
    log = requests.get(f"{site}/v1/matches/{created['id']}/log", timeout=10).json()["moves"]
    assert log[version]["seat"] == 0
    shot(page, f"play-{game}-played-{size}")


def _first_legal(site, created) -> str:
    """The seat's first legal move as JSON (for a group shown as a form, not as buttons)."""
    prompt = requests.get(f"{site}/v1/matches/{created['id']}/prompt", timeout=10,
                          headers={"Authorization": f"Bearer {created['tokens']['0']}"}).json()
    return json.dumps(prompt["legal_moves"][0])


def test_a_wrong_token_is_shown_in_red_forgotten_and_a_reload_recovers(site, sized):
    page, size = sized
    created = create(site, "dschunke", ["remote", "builtin:random", "builtin:random"])
    page.goto(f"{site}/matches/{created['id']}/seat#token=st_not-a-token")
    page.wait_for_function("document.querySelector('#status').classList.contains('error')")
    status = page.locator("#status").inner_text()
    assert "auth.token_invalid" in status and "Live" not in status
    assert page.evaluate("Object.keys(sessionStorage).length") == 0
    assert page.locator("#tokenform").is_visible() and page.locator("#hand").count() == 0
    shot(page, f"play-wrong-token-{size}")
    page.reload()
    assert page.locator("#status").inner_text().startswith("Waiting for a token")
    page.fill("#token", created["tokens"]["0"])
    page.get_by_role("button", name="Open").click()
    page.wait_for_selector("#seatview svg.board")
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('Live')")
    assert _settled(page) == "act"
