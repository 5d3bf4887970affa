"""The tournament page's live SPRT block in a browser (issue 43): opened while the test
runs, it follows the test to its end without a reload (sprt.js refetches the block)."""

from __future__ import annotations

import requests

from tests.support.bots import BotServer
from tests.web.conftest import KEY


def test_the_sprt_block_follows_the_test_to_its_end(site, page):
    slow = BotServer("slow", "slow-baseline", delay=0.05)
    try:
        r = requests.post(f"{site}/v1/bots", json={"name": slow.name, "url": slow.url,
                                                   "games": ["gops"]}, headers=KEY, timeout=20)
        assert r.status_code == 201, r.text
        slow.secret = r.json()["secret"]
        r = requests.post(f"{site}/v1/tournaments", headers=KEY, timeout=20, json={
            "game": "gops", "format": "sprt", "entrants": ["builtin:random", r.json()["id"]],
            "opponents": ["builtin:random"], "players": 2, "options": {"cards": 6},
            "max_matches": 6, "concurrency": 1, "seed": 2})
        assert r.status_code == 201, r.text
        page.goto(f"{site}/tournaments/{r.json()['id']}")
        assert page.locator("#sprtlive[data-running]").count() == 1   # opened while running
        loads = []
        page.on("load", lambda: loads.append(1))
        page.wait_for_selector('#sprtprogress[data-status="finished"]', timeout=90_000)
        assert loads == []                                          # no reload: the script
        assert "matches finished · finished" in page.locator("#sprtprogress").inner_text()
        assert page.locator("#sprt b").inner_text() in ("inconclusive", "accepted", "rejected")
    finally:
        slow.stop()
