"""The arena's pages after a small round robin per game: the tournament (progress, standings,
cross-table, match links), the leaderboard (table and rating plot) and a bot's page."""

from __future__ import annotations

import time

import pytest
import requests

from tests.support.bots import BotServer
from tests.web.conftest import GAMES, KEY, shot


def _account_key(site, name: str) -> dict:
    """The Authorization header of a new player account (made by the organiser)."""
    r = requests.post(f"{site}/v1/accounts", json={"name": name}, headers=KEY, timeout=10)
    assert r.status_code == 201, r.text
    return {"Authorization": f"Bearer {r.json()['key']}"}


def _register(site, bot, game, key=None) -> str:
    r = requests.post(f"{site}/v1/bots", json={"name": bot.name, "url": bot.url,
                                               "games": [game]}, headers=key or KEY, timeout=20)
    assert r.status_code == 201, r.text
    bot.secret = r.json()["secret"]
    return r.json()["id"]


def _until(read, done, timeout=120):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = read()
        if done(value):
            return value
        time.sleep(0.2)
    raise AssertionError(f"not done in {timeout} s: {value}")


@pytest.fixture
def bots():
    servers = []
    yield lambda name, game: servers.append(BotServer(name=name, games=[game])) or servers[-1]
    for server in servers:
        server.stop()


@pytest.mark.parametrize("game", GAMES)
def test_tournament_leaderboard_and_bot_pages(site, page, bots, game):
    """Two HTTP bots and the builtin random bot, every seat rotation of one 3-player table."""
    # a match is rated only when each account fills one seat: two bots, two owners
    ids = [_register(site, bots(f"alpha-{game}", game), game),
           _register(site, bots(f"beta-{game}", game), game, _account_key(site, f"b-{game}"))]
    r = requests.post(f"{site}/v1/tournaments", timeout=30, headers=KEY, json={
        "game": game, "entrants": [*ids, "builtin:random"], "players": 3,
        "seeds_per_table": 1})  # no seed of ours: a known seed makes no rated event
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    tour = _until(lambda: requests.get(f"{site}/v1/tournaments/{tid}", timeout=10).json(),
                  lambda t: t["status"] == "finished")
    _until(lambda: requests.get(f"{site}/v1/leaderboards/{game}", timeout=10).json()["status"],
           lambda s: s["in_progress"] == 0 and s["finished_waiting"] == 0)

    page.goto(f"{site}/")
    page.get_by_role("link", name="Tournaments", exact=True).first.click()
    row = page.locator("#tours tr", has_text=tid).inner_text()
    winner = tour["standings"][0]["name"]
    assert game in row and "finished" in row and "UTC" in row and row.rstrip().endswith(winner)
    shot(page, f"tournaments-{game}")
    page.get_by_role("link", name="Bots", exact=True).click()
    for bot_id, name in zip(ids, (f"alpha-{game}", f"beta-{game}")):
        bot_row = page.locator("#bots tr", has_text=name).inner_text()
        rating = requests.get(f"{site}/v1/leaderboards/{game}", timeout=10).json()
        ordinal = next(r["ordinal"] for r in rating["standings"] if r["entrant"] == bot_id)
        assert f"{game}: {ordinal}" in bot_row and "active" in bot_row, bot_row
    assert "127.0.0.1" not in page.locator("#bots").inner_text()   # no address, no secret
    assert "bs_" not in page.content()
    shot(page, f"bots-{game}")

    page.goto(f"{site}/tournaments/{tid}")
    assert "3 / 3" in page.locator("#progress").inner_text()
    assert page.locator("#standings tr").count() == 1 + 3
    assert page.locator("#cross tr").count() == 1 + 3
    assert page.locator("#tmatches a").count() == len(tour["matches"]) == 3
    shot(page, f"tournament-{game}")
    page.locator("#tmatches a").first.click()
    page.wait_for_selector("svg.board")

    page.goto(f"{site}/")
    page.locator(f'a[href="/leaderboards/{game}"]').click()
    page.wait_for_selector("#ratings", timeout=10_000)
    names = page.locator("#ratings").inner_text()
    assert f"alpha-{game}" in names and f"beta-{game}" in names and "builtin:random" in names
    assert page.locator(".plotwrap polyline").count() == 3
    shot(page, f"leaderboard-{game}")

    page.get_by_role("link", name=f"alpha-{game}").click()
    page.wait_for_selector("#health")
    health = page.locator("#health").inner_text()
    assert "latency p50" in health
    assert page.locator("#botmatches a").count() == 3
    shot(page, f"bot-{game}")


def test_unknown_arena_pages_are_404(site):
    """A browser gets an HTML page; the API's callers (and /v1 paths) the problem details."""
    for path in ("/tournaments/t000", "/bots/b000", "/leaderboards/chess", "/nothing"):
        answer = requests.get(site + path, timeout=10)
        assert answer.status_code == 404, path
        assert answer.json()["code"] == "http.not_found"
        page = requests.get(site + path, timeout=10, headers={"Accept": "text/html,*/*;q=0.8"})
        assert page.status_code == 404 and "<h1>Not found</h1>" in page.text, path
    api = requests.get(site + "/v1/nothing", timeout=10, headers={"Accept": "text/html"})
    assert api.status_code == 404 and api.json()["code"] == "http.not_found"


def test_bot_protocol_page(site, page):
    page.goto(f"{site}/")
    page.get_by_role("link", name="bot protocol v1").click()
    for path in ("GET /", "POST /move"):
        assert page.get_by_text(path, exact=False).count() >= 1
    shot(page, "bot-protocol")


def test_failure_details_are_for_the_owner_only(site, page, bots):
    """A bot answering garbage: its page shows the failure's code to anyone; what it sent
    only to its owner, by the account key (sent as a header, dropped from the address)."""
    bot = bots("garbage-bot", "dschunke")
    bot.behaviour = "garbage"
    bot_id = _register(site, bot, "dschunke")
    r = requests.post(f"{site}/v1/arena/matches", timeout=10, headers=KEY, json={
        "game": "dschunke", "seats": [f"bot:{bot_id}", "builtin:random", "builtin:random"],
        "seed": 1, "rated": False})
    assert r.status_code == 201, r.text
    _until(lambda: requests.get(f"{site}/v1/bots/{bot_id}", timeout=10).json()["health"],
           lambda h: h["last_error"] is not None)
    page.goto(f"{site}/bots/{bot_id}")
    assert "bot.bad_response" in page.locator("main").inner_text()
    assert "I am not JSON" not in page.content()
    assert requests.get(f"{site}/bots/{bot_id}/owner", timeout=10).status_code == 401
    page.fill("#secret", "rk_not-a-key-of-anyone-" + "x" * 32)
    page.click("#ownerform button")
    page.wait_for_function("document.querySelector('#ownerstatus').textContent.includes('refused')")
    key = KEY["Authorization"].split()[1]
    page.goto(f"{site}/bots/{bot_id}#key={key}")
    page.wait_for_selector("#ownerview")
    assert "I am not JSON" in page.locator("#ownerview").inner_text()
    assert key not in page.url
    shot(page, "bot-owner-dschunke")


def test_the_cross_table_counts_what_the_standings_fold(app):
    """Three builtin:random entrants (kept apart as #2 and #3) at one 3-player table: the
    cross-table counts every finished match by tournament entrant, as the standings do (it
    used to name them all builtin:random, found no rateable result and showed 0-0-0), and
    the page reads the tournament's matches together."""
    import re

    client = app.test_client()
    client.environ_base["HTTP_AUTHORIZATION"] = KEY["Authorization"]
    tid = client.post("/v1/tournaments", json={"game": "dschunke", "players": 3,
                                                "entrants": ["builtin:random"] * 3,
                                                "seeds_per_table": 1}).json["id"]
    tour = _until(lambda: client.get(f"/v1/tournaments/{tid}").json,
                  lambda t: t["status"] == "finished")
    assert [r["matches"] for r in tour["standings"]] == [3, 3, 3]
    html = client.get(f"/tournaments/{tid}").get_data(as_text=True)
    cross = html[html.index('id="cross"'):html.index("</table>", html.index('id="cross"'))]
    cells = [tuple(map(int, c)) for c in re.findall(r"<td>(\d+)–(\d+)–(\d+)</td>", cross)]
    assert len(cells) == 6 and all(sum(c) == 3 for c in cells)
    assert sum(c[0] for c in cells) == sum(c[1] for c in cells)   # a win is a loss opposite
