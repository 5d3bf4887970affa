"""Browser tests: headless Chromium (Debian's package) driven by Playwright against the real
service, an app on the real Redis served on loopback with worker threads inside it.

Screenshots of every page type for every game land in tests/web/screenshots/ (not in git)."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest
import requests

from tests.conftest import built_app
from tests.support.http import serve_in_thread

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SHOTS = Path(__file__).parent / "screenshots"
KEY = {"Authorization": f"Bearer {os.environ['REFEREE_ORGANISER_KEY']}"}
"""Every write needs an account key: the tests act as the session's organiser."""
GAMES = ("yunnan", "dschunke", "yinzi-ming")
PLAYERS = {"yunnan": 3, "dschunke": 3, "yinzi-ming": 3}


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium for the session (never a downloaded one: Debian's package)."""
    if not shutil.which(CHROMIUM):
        pytest.skip(f"no Chromium at {CHROMIUM}: apt-get install -y chromium (.ci/run does)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    """A fresh page (own cookies and storage) at a desktop size. It bypasses the pages'
    Content-Security-Policy: Playwright evaluates a wait_for_function string with eval, which
    script-src 'self' refuses; test_security.py checks the policy in contexts that keep it."""
    context = browser.new_context(viewport={"width": 1500, "height": 1000}, bypass_csp=True)
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture(scope="module")
def site(real_redis_url):
    """The service over HTTP on loopback: its base URL (the app's keys are removed after)."""
    with built_app(real_redis_url) as app, serve_in_thread(app) as base:
        yield base


def shot(page, name: str) -> Path:
    """Save a full-page screenshot as tests/web/screenshots/<name>.png."""
    SHOTS.mkdir(exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def create(base: str, game: str, seats: list, seed: int = 11) -> dict:
    """A match created through the API."""
    r = requests.post(f"{base}/v1/matches", json={"game": game, "seats": seats, "seed": seed},
                      headers=KEY, timeout=10)
    assert r.status_code == 201, r.text
    return r.json()


def finished(base: str, match_id: str, timeout: float = 60) -> dict:
    """Wait until the match ends; the match."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        match = requests.get(f"{base}/v1/matches/{match_id}", timeout=10).json()
        if match["status"] != "active":
            return match
        time.sleep(0.1)
    raise AssertionError(f"match {match_id} did not finish in {timeout} s")


def play_one(base: str, match_id: str, token: str) -> bool:
    """Play the remote seat's first legal move if it must act (waiting a little); whether it did."""
    auth = {"Authorization": f"Bearer {token}"}
    prompt = requests.get(f"{base}/v1/matches/{match_id}/prompt?wait=2", headers=auth,
                          timeout=10).json()
    if not prompt["must_act"]:
        return False
    r = requests.post(f"{base}/v1/matches/{match_id}/moves", headers=auth, timeout=10,
                      json={"move": prompt["legal_moves"][0]})
    assert r.status_code == 200, r.text
    return True
