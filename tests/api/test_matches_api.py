"""Matches through the real app on a real Redis, with real RQ worker threads."""

from __future__ import annotations

import json
import threading
import time

import pytest

from tests.api.helpers import auth, create, play_out, wait_until


@pytest.fixture
def app(shared_app):
    """The module's tests share one app (tests/conftest.py shared_app): each makes its own
    matches (the listing test asks for its two newest)."""
    return shared_app


def test_create_returns_id_tokens_and_version(client):
    """A new match: an id, one secret token per remote seat, version 0, seed kept secret."""
    body = create(client, seats=["remote", "builtin:random", "remote"])
    assert body["version"] == 0 and body["status"] == "active"
    assert set(body["tokens"]) == {"0", "2"}
    assert len(set(body["tokens"].values())) == 2
    assert "seed" not in body
    assert [s["kind"] for s in body["seats"]] == ["remote", "builtin:random", "remote"]


def test_a_person_with_curl_plays_a_whole_match_against_builtin_bots(client):
    """A remote seat against builtin:random seats plays to the end; bots move by themselves."""
    body = create(client, seats=["remote", "builtin:random", "builtin:random"], seed=3,
                  options={"cards": 5})
    match = play_out(client, body["id"], {0: body["tokens"]["0"]})
    assert match["status"] == "over"
    assert match["result"]["termination"] == "rules"
    assert sorted(match["result"]["ranks"])[0] == 1
    log = client.get(f"/v1/matches/{body['id']}/log").json
    assert len(log["moves"]) == match["version"]
    assert {m["seat"] for m in log["moves"]} == {0, 1, 2}


def test_bots_alone_finish_a_match(client):
    """A match of builtin seats only is played to the end by the workers."""
    body = create(client, seats=["builtin:random"] * 4, seed=8)
    match = wait_until(lambda: (m := client.get(f"/v1/matches/{body['id']}").json)["status"]
                       == "over" and m)
    assert len(match["result"]["scores"]) == 4


def test_the_view_depends_on_the_token(client):
    """With a token the caller sees its own sealed bid; spectators and others do not."""
    body = create(client, seed=1)
    t0, t1 = body["tokens"]["0"], body["tokens"]["1"]
    r = client.post(f"/v1/matches/{body['id']}/moves", json={"move": {"type": "bid", "card": 3}},
                    headers=auth(t0))
    assert r.status_code == 200 and r.json["version"] == 1
    assert r.json["view"]["my_bid"] == 3
    mine = client.get(f"/v1/matches/{body['id']}", headers=auth(t0)).json
    theirs = client.get(f"/v1/matches/{body['id']}", headers=auth(t1)).json
    spectator = client.get(f"/v1/matches/{body['id']}").json
    assert (mine["you"], theirs["you"], spectator["you"]) == (0, 1, None)
    assert mine["view"]["my_bid"] == 3
    assert theirs["view"]["my_bid"] is None and spectator["view"]["my_bid"] is None
    assert 3 in theirs["view"]["hands"][0]  # the sealed card still shows in seat 0's hand
    assert theirs["to_act"] == [{"seat": 1, "decision": "bid", "sealed": True}]


def test_prompt_lists_the_decision_and_legal_moves(client):
    """The prompt shows the seat's decision and every legal move."""
    body = create(client, seed=2, options={"cards": 3})
    prompt = client.get(f"/v1/matches/{body['id']}/prompt", headers=auth(body["tokens"]["1"])).json
    assert prompt["must_act"] and prompt["decision"]["kind"] == "bid"
    assert prompt["legal_moves"] == [{"type": "bid", "card": c} for c in (1, 2, 3)]


def test_prompt_long_poll_returns_when_the_match_changes(client):
    """A waiting prompt wakes as soon as another seat's move lands."""
    body = create(client, seed=2)
    mid, t0, t1 = body["id"], body["tokens"]["0"], body["tokens"]["1"]
    client.post(f"/v1/matches/{mid}/moves", json={"move": {"type": "bid", "card": 4}},
                headers=auth(t0))
    client.post(f"/v1/matches/{mid}/moves", json={"move": {"type": "bid", "card": 1}},
                headers=auth(t1))
    # seat 0 won the prize and must award it; seat 1 waits
    results = {}

    def waiter():
        start = time.monotonic()
        results["prompt"] = client.get(f"/v1/matches/{mid}/prompt?wait=10", headers=auth(t1)).json
        results["seconds"] = time.monotonic() - start

    thread = threading.Thread(target=waiter)
    thread.start()
    time.sleep(0.3)
    r = client.post(f"/v1/matches/{mid}/moves", json={"move": {"type": "keep"}}, headers=auth(t0))
    assert r.status_code == 200
    thread.join(10)
    assert results["prompt"]["must_act"] is True
    assert results["prompt"]["version"] == 3
    assert 0.25 < results["seconds"] < 5


def test_prompt_long_poll_times_out_unchanged(client):
    """With nothing happening, a long poll returns after about `wait` seconds."""
    body = create(client, seed=2)
    t0 = body["tokens"]["0"]
    client.post(f"/v1/matches/{body['id']}/moves", json={"move": {"type": "bid", "card": 4}},
                headers=auth(t0))
    start = time.monotonic()
    prompt = client.get(f"/v1/matches/{body['id']}/prompt?wait=0.5", headers=auth(t0)).json
    assert 0.45 < time.monotonic() - start < 3
    assert prompt["must_act"] is False and prompt["version"] == 1


def test_log_withholds_seed_and_hidden_moves_until_the_end(client):
    """While running: no seed, others' sealed moves hidden; after the end: everything."""
    body = create(client, seed=77, options={"cards": 2})
    mid, t0, t1 = body["id"], body["tokens"]["0"], body["tokens"]["1"]
    client.post(f"/v1/matches/{mid}/moves", json={"move": {"type": "bid", "card": 2}},
                headers=auth(t0))
    running = client.get(f"/v1/matches/{mid}/log", headers=auth(t1)).json
    assert running["seed"] is None
    assert running["moves"][0]["move"] is None and running["moves"][0]["hidden"] is True
    own = client.get(f"/v1/matches/{mid}/log", headers=auth(t0)).json
    assert own["moves"][0]["move"] == {"type": "bid", "card": 2}
    play_out(client, mid, {0: t0, 1: t1})
    final = client.get(f"/v1/matches/{mid}/log").json
    assert final["seed"] == "77" and final["status"] == "over"
    assert final["moves"][0]["move"] == {"type": "bid", "card": 2}
    assert not any(m.get("hidden") for m in final["moves"])


def test_log_as_json_lines(client):
    """format=jsonl: a match line, a line per move, a result line."""
    body = create(client, seats=["builtin:random", "builtin:random"], seed=5)
    wait_until(lambda: client.get(f"/v1/matches/{body['id']}").json["status"] == "over")
    response = client.get(f"/v1/matches/{body['id']}/log?format=jsonl")
    assert response.mimetype == "application/jsonl"
    lines = [json.loads(line) for line in response.data.decode().splitlines()]
    assert lines[0]["type"] == "match" and lines[0]["seed"] == "5"
    assert lines[-1]["type"] == "result"
    moves = [line for line in lines if line["type"] == "move"]
    assert [m["version"] for m in moves] == list(range(len(moves)))


def test_a_replayed_log_rebuilds_the_result(client):
    """The stored log replays, through the stateless check, to the stored result."""
    body = create(client, seats=["builtin:random"] * 3, seed=12, options={"cards": 6})
    wait_until(lambda: client.get(f"/v1/matches/{body['id']}").json["status"] == "over")
    # the seed is revealed by the match's ending, which may follow the final commit by a
    # moment (a loaded machine once read the log in between: seed null, check refused)
    log = wait_until(lambda: (got := client.get(f"/v1/matches/{body['id']}/log").json)["seed"]
                     is not None and got)
    check = client.post("/v1/games/gops/check", json={
        "players": 3, "options": log["options"], "seed": log["seed"],
        "moves": [{"seat": m["seat"], "move": m["move"]} for m in log["moves"]]}).json
    assert check.get("legal") and check["over"], check
    assert check["outcome"]["scores"] == log["result"]["scores"]


def test_list_matches(client):
    """Matches are listed newest first with a total."""
    first = create(client)
    second = create(client)
    listing = client.get("/v1/matches?limit=2").json
    assert [m["id"] for m in listing["matches"]] == [second["id"], first["id"]]
    assert listing["total"] >= 2
