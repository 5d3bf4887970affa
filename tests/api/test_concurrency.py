"""Two submissions at one version never both land: over real HTTP and at the store."""

from __future__ import annotations

import threading

import requests

from referee.service.store import Live
from tests.api.helpers import auth, create
from tests.support.http import serve_in_thread
from tests.support.threads import run_threads


def _race(url, token, moves, version):
    """Send the moves at once from threads (a barrier lines them up); the responses."""
    barrier = threading.Barrier(len(moves))
    results = [None] * len(moves)

    def send(i):
        session = requests.Session()
        barrier.wait()
        results[i] = session.post(url, json={"move": moves[i], "expected_version": version},
                                  headers=auth(token), timeout=10)

    run_threads(send, [(i,) for i in range(len(moves))])
    return results


def test_two_simultaneous_moves_at_one_version_over_http(app, client):
    """The seat that won a prize sends keep and give at once: exactly one lands."""
    with serve_in_thread(app) as base:
        for attempt in range(5):
            body = create(client, seed=attempt)
            mid, t0, t1 = body["id"], body["tokens"]["0"], body["tokens"]["1"]
            client.post(f"/v1/matches/{mid}/moves", json={"move": {"type": "bid", "card": 4}},
                        headers=auth(t0))
            client.post(f"/v1/matches/{mid}/moves", json={"move": {"type": "bid", "card": 1}},
                        headers=auth(t1))
            responses = _race(f"{base}/v1/matches/{mid}/moves", t0,
                              [{"type": "keep"}, {"type": "give", "to": 1}], 2)
            codes = sorted(r.status_code for r in responses)
            assert codes == [200, 409], [r.json() for r in responses]
            loser = next(r for r in responses if r.status_code == 409).json()
            assert loser["code"] in ("match.version_stale", "turn.not_yours")
            log = client.get(f"/v1/matches/{mid}/log", headers=auth(t0)).json
            assert len(log["moves"]) == 3
            assert client.get(f"/v1/matches/{mid}").json["version"] == 3


def test_many_writers_at_one_version_only_one_commits(app):
    """Twenty threads commit at the same version straight to the store: one wins."""
    service = app.extensions["referee"]
    created = service.create("gops", ["remote", "remote"], None, 1)
    live = service.store.live(created.meta.id)
    barrier = threading.Barrier(20)
    wins = []

    def writer(i):
        new = Live(**{**live.__dict__, "version": live.version + 1})
        barrier.wait()
        if service.store.commit(created.meta.id, live.version, new, [{"seat": 0, "i": i}]):
            wins.append(i)

    run_threads(writer, [(i,) for i in range(20)])
    assert len(wins) == 1
    assert len(service.store.log(created.meta.id)) == 1
    assert service.store.live(created.meta.id).version == 1
