"""Event streams resumed with Last-Event-ID send every missed version once, in order, as the
caller may see it; past the window, one `snapshot` (issue 40: with `Last-Event-ID: 82` after
54 missed versions the stream resumed at 137, and 83-136 never came). A real HTTP server on
loopback, on the real Redis."""

from __future__ import annotations

import json
import os
import threading

import pytest
import requests

from referee.core import engine
from referee.games import GAMES
from tests.conftest import own_settings
from tests.support.http import serve_in_thread

SEED = 11


@pytest.fixture(scope="module")
def served(real_redis_url):
    """Two apps on the real Redis (own prefixes): the default window, and a window of 5."""
    from referee.root import create_app, stop_app

    with own_settings(real_redis_url) as wide, own_settings(real_redis_url) as narrow:
        apps = [create_app(wide), create_app({**narrow, "EVENT_WINDOW": 5})]
        with serve_in_thread(apps[0]) as base, serve_in_thread(apps[1]) as small:
            yield base, small
        for app in apps:
            stop_app(app)


def _auth(token):
    return {"Authorization": f"Bearer {token}"}


class Table:
    """A Dschunke match with three remote seats, played here with each seat's first legal
    move, remembering every move so that each version's state can be replayed."""

    def __init__(self, base):
        body = {"game": "dschunke", "seats": ["remote"] * 3, "seed": SEED}
        created = requests.post(f"{base}/v1/matches", json=body, timeout=10,
                                headers=_auth(os.environ["REFEREE_ORGANISER_KEY"]))
        assert created.status_code == 201, created.text
        self.base, self.id = base, created.json()["id"]
        self.tokens = created.json()["tokens"]
        self.url = f"{base}/v1/matches/{self.id}/events"
        self.moves, self.game = [], GAMES.get("dschunke")

    def play(self, count: int) -> int:
        """Make `count` moves (the first seat to act, its first legal move); the version."""
        for _ in range(count):
            match = requests.get(f"{self.base}/v1/matches/{self.id}", timeout=10).json()
            assert match["status"] == "active"
            seat = match["to_act"][0]["seat"]
            token = self.tokens[str(seat)]
            prompt = requests.get(f"{self.base}/v1/matches/{self.id}/prompt",
                                  headers=_auth(token), timeout=10).json()
            move = prompt["legal_moves"][0]
            answer = requests.post(f"{self.base}/v1/matches/{self.id}/moves",
                                   headers=_auth(token), timeout=10,
                                   json={"move": move, "expected_version": prompt["version"]})
            assert answer.status_code == 200, answer.text
            self.moves.append((seat, move))
        return len(self.moves)

    def views(self, viewer):
        """Each version's view for `viewer`, from a replay of the moves made (as JSON)."""
        _, state = engine.start(self.game, 3, {}, SEED)
        views = [self.game.view(state, viewer)]
        for seat, move in self.moves:
            state = self.game.apply(state, seat, move)
            views.append(self.game.view(state, viewer))
        return json.loads(json.dumps(views))


def _events(url, headers, until: int):
    """The SSE messages of a stream, as (event, id, data), up to the one with id `until`."""
    got, message = [], {}
    with requests.get(url, headers=headers, stream=True, timeout=(5, 30)) as response:
        assert response.status_code == 200, response.text
        for line in response.iter_lines(chunk_size=None, decode_unicode=True):
            if line == "":
                if "event" in message:
                    got.append((message["event"], int(message["id"]),
                                json.loads(message["data"])))
                    if got[-1][1] >= until:
                        return got
                message = {}
            elif not line.startswith(":"):
                name, _, value = line.partition(":")
                message[name] = value[1:] if value.startswith(" ") else value
    return got


def _hands(data):
    return [s["hand"] for s in data["view"]["seats"]]


def test_a_reconnect_gets_every_missed_version_once_as_each_viewer_may_see_it(served):
    """Streams read to version 2 and dropped; 40 moves later, each reconnects with
    Last-Event-ID: 2 and gets versions 3..42 in order, each once, each the view a replay of
    the moves gives that viewer: the spectator sees no hand, seat 0 (token) its own, seat 1
    (ticket) its own; then the stream goes on live with the next moves, none twice."""
    table = Table(served[0])
    table.play(2)
    ticket = requests.post(f"{table.url}/ticket", headers=_auth(table.tokens["1"]),
                           timeout=10).json()["ticket"]
    readers = {None: ({}, table.url), 0: (_auth(table.tokens["0"]), table.url),
               1: ({}, f"{table.url}?ticket={ticket}")}
    for headers, url in readers.values():
        assert [v for _, v, _ in _events(url, headers, 2)] == [2]
    current = table.play(40)
    for viewer, (headers, url) in readers.items():
        views = table.views(viewer)
        resumed = _events(url, {**headers, "Last-Event-ID": "2"}, current)
        assert [(kind, v) for kind, v, _ in resumed] == \
            [("version", v) for v in range(3, current + 1)]
        for _, version, data in resumed:
            assert data["version"] == version and data["you"] == viewer
            assert data["view"] == views[version]
            hands = _hands(data)
            assert all(h is None or s == viewer for s, h in enumerate(hands))
            assert viewer is None or hands[viewer] is not None
        seat_headers = {} if viewer is None else _auth(table.tokens[str(viewer)])
        assert resumed[-1][2] == requests.get(f"{table.base}/v1/matches/{table.id}",
                                              headers=seat_headers, timeout=10).json()

    # mid-match, live: a stream resumed at 30 catches up, then follows moves made meanwhile
    got, done = [], threading.Event()

    def follow():
        got.extend(_events(table.url, {"Last-Event-ID": "30"}, current + 15))
        done.set()

    reader = threading.Thread(target=follow, daemon=True)
    reader.start()
    table.play(15)
    assert done.wait(30)
    assert [v for _, v, _ in got] == list(range(31, current + 16))
    views = table.views(None)
    assert all(data["view"] == views[v] for _, v, data in got)


def test_past_the_window_a_snapshot_says_what_was_skipped(served):
    """Window 5: 5 missed versions come one by one; 20 missed give one `snapshot` (the
    skipped range, the window, the current summary as that viewer may see it), then the
    stream goes on with each new version."""
    table = Table(served[1])
    current = table.play(25)
    near = _events(table.url, {"Last-Event-ID": str(current - 6)}, current)
    assert [(k, v) for k, v, _ in near] == [("version", v) for v in range(current - 5,
                                                                           current + 1)]
    seat = _auth(table.tokens["0"])
    far = _events(table.url, {**seat, "Last-Event-ID": str(current - 21)}, current)
    assert [(k, v) for k, v, _ in far] == [("snapshot", current)]
    data = far[0][2]
    assert data["skipped"] == {"from": current - 20, "to": current - 1}
    assert data["window"] == 5
    summary = requests.get(f"{table.base}/v1/matches/{table.id}", headers=seat,
                           timeout=10).json()
    assert data["match"] == summary and data["match"]["you"] == 0
    assert _hands(data["match"])[0] is not None and _hands(data["match"])[1] is None
    spectator = _events(table.url, {"Last-Event-ID": "0"}, current)[0][2]["match"]
    assert all(h is None for h in _hands(spectator))

    got, done = [], threading.Event()
    threading.Thread(target=lambda: (got.extend(_events(
        table.url, {"Last-Event-ID": "1"}, current + 3)), done.set()), daemon=True).start()
    table.play(3)
    assert done.wait(30)
    assert [(k, v) for k, v, _ in got][0] == ("snapshot", got[0][1])
    assert [v for _, v, _ in got] == list(range(got[0][1], current + 4))
