"""The pages' server side without a browser: replay frames rebuilt from the log agree with the
live board, the live fragment waits for a change, and only a seat token shows a hand."""

from __future__ import annotations

import re
import threading
import time

import pytest

from arena.web import cross_table
from tests.api.helpers import auth, create, wait_until
from tests.web.conftest import GAMES, PLAYERS


def _svg(html: str) -> str:
    """The board drawing (not a seat chip, also an <svg>)."""
    return re.search(r'<svg[^>]*class="board"[^>]*>.*?</svg>', html, re.S).group(0)


@pytest.mark.parametrize("game", GAMES)
def test_the_last_replay_frame_is_the_finished_board(client, game):
    """Replaying the whole log through the engine gives the board the match ended with."""
    match = create(client, game, ["builtin:random"] * PLAYERS[game], seed=9)
    done = wait_until(lambda: (m := client.get(f"/v1/matches/{match['id']}").json)["status"]
                      != "active" and m, timeout=60)
    page = client.get(f"/matches/{match['id']}").get_data(as_text=True)
    frame = client.get(f"/matches/{match['id']}/frame/{done['version']}").get_data(as_text=True)
    first = client.get(f"/matches/{match['id']}/frame/0").get_data(as_text=True)
    assert _svg(page) == _svg(frame) != _svg(first)


def test_the_live_fragment_waits_for_the_next_version(client):
    match = create(client, "dschunke", ["remote"] * 3)  # nothing moves but what we send
    version = client.get(f"/v1/matches/{match['id']}").json["version"]
    token = next(t for t in match["tokens"].values()
                 if client.get(f"/v1/matches/{match['id']}/prompt", headers=auth(t)).json["must_act"])
    prompt = client.get(f"/v1/matches/{match['id']}/prompt", headers=auth(token)).json
    answered = {}

    def poll():
        started = time.monotonic()
        r = client.get(f"/matches/{match['id']}/board?after={version}")
        answered.update(version=int(r.headers["X-Version"]), seconds=time.monotonic() - started)

    waiter = threading.Thread(target=poll)
    waiter.start()
    time.sleep(0.5)
    assert not answered  # held: nothing has changed yet
    client.post(f"/v1/matches/{match['id']}/moves", headers=auth(token),
                json={"move": prompt["legal_moves"][0]})
    waiter.join(10)
    assert answered["version"] > version and answered["seconds"] >= 0.5


def test_only_the_seat_token_shows_the_hand(client):
    match = create(client, "dschunke", ["remote", "remote", "builtin:random"])
    url = f"/matches/{match['id']}/board"
    spectator = client.get(url).get_data(as_text=True)
    seat0 = client.get(url, headers=auth(match["tokens"]["0"])).get_data(as_text=True)
    assert 'id="hand"' in seat0 and "Your goods cards" in seat0
    assert 'id="hand"' not in spectator
    assert client.get(url, headers=auth("st_wrong")).status_code == 403


def test_cross_table_counts_each_pair_by_rank():
    results = [{"entrants": ["a", "b", "c"], "ranks": [1, 2, 2]},
               {"entrants": ["b", "c", "a"], "ranks": [1, 3, 2]}]
    cells = cross_table(["a", "b", "c"], results)
    assert cells[("a", "b")] == [1, 1, 0] and cells[("b", "c")] == [1, 0, 1]
    assert cells[("c", "a")] == [0, 2, 0]


def test_twins_of_a_running_match_show_no_board_until_all_are_over(client, app):
    """Matches dealt from one seed (a duplicate event): while one runs, the pages draw no
    board of any of them and replay none, as the API shows no view (disclosure.py)."""
    service = app.extensions["referee"]
    group = "web-test-" + str(time.time_ns())
    service.seeds.open_group(group, 2)
    done = service.create("dschunke", ["builtin:random"] * 3, seed=5, seed_group=group)
    running = service.create("dschunke", ["remote"] * 3, seed=5, seed_group=group)
    wait_until(lambda: client.get(f"/v1/matches/{done.meta.id}").json["status"] != "active",
               timeout=60)
    for match_id in (done.meta.id, running.meta.id):
        for url in (f"/matches/{match_id}", f"/matches/{match_id}/board"):
            html = client.get(url).get_data(as_text=True)
            assert 'id="withheld"' in html and 'class="board"' not in html, url
        assert client.get(f"/matches/{match_id}/frame/3").status_code == 409
    seat0 = client.get(f"/matches/{running.meta.id}/board",
                       headers=auth(running.tokens[0])).get_data(as_text=True)
    assert 'class="board"' in seat0 and 'id="hand"' in seat0  # a seat still sees its own view
    for token in running.tokens.values():
        client.post(f"/v1/matches/{running.meta.id}/resign", headers=auth(token))
    wait_until(lambda: client.get(f"/v1/matches/{running.meta.id}").json["status"] != "active",
               timeout=60)
    # the group closes in the commit hooks, just after the last member's end is stored (never
    # before: a commit that failed would have shown the twins' boards), so it may lag a read
    wait_until(lambda: client.get(f"/matches/{done.meta.id}/frame/3").status_code == 200,
               timeout=10)
    assert 'class="board"' in client.get(f"/matches/{done.meta.id}").get_data(as_text=True)


def test_a_table_being_dealt_shows_a_notice_instead_of_a_board(client, app):
    """An external-chance match whose set-up waits for the organiser has no view yet: the
    page says the table is being set up (not the duplicate-event notice)."""
    created = app.extensions["referee"].create("gops", ["remote"] * 2, chance="external")
    for url in (f"/matches/{created.meta.id}", f"/matches/{created.meta.id}/board"):
        html = client.get(url).get_data(as_text=True)
        assert 'id="withheld"' in html and "being set up" in html and 'class="board"' not in html, url
