"""Checking games played elsewhere: seeds as strings, log entries checked as they come,
a whole record verified (/v1/verify), moves checked one at a time (/v1/check-sessions)."""

from __future__ import annotations

import json

import pytest

from tests.api.helpers import auth, create, wait_until

BIG_SEED = "7374513755567299596"   # the 63-bit seed of issue 40, which JSON.parse rounds


@pytest.fixture
def app(shared_app):
    """Stateless routes and sessions of their own: the module shares one app."""
    return shared_app


def finished(client, seed=BIG_SEED, players=3):
    """A gops match played out by builtins; returns (log JSON, JSONL text)."""
    body = create(client, seats=["builtin:random"] * players, seed=seed, options={"cards": 5})
    assert body["seed"] == seed
    wait_until(lambda: client.get(f"/v1/matches/{body['id']}").json["status"] == "over")
    log = client.get(f"/v1/matches/{body['id']}/log").json
    jsonl = client.get(f"/v1/matches/{body['id']}/log?format=jsonl").data.decode()
    return log, jsonl


def test_seeds_are_strings_and_small_numbers_are_still_read(client):
    """A seed past 2^53 goes out as digits; a JSON number past 2^53 is refused (422), one up
    to 2^53 is read."""
    log, jsonl = finished(client)
    assert log["seed"] == BIG_SEED and log["seed_commitment"]["seed"] == BIG_SEED
    assert json.loads(jsonl.splitlines()[0])["seed"] == BIG_SEED
    too_big = client.post("/v1/games/gops/check", json={"players": 2, "seed": 2 ** 53 + 1})
    assert too_big.status_code == 422 and "string" in json.dumps(too_big.json)
    assert client.post("/v1/games/gops/check",
                       json={"players": 2, "seed": 2 ** 53}).status_code == 200
    for bad in ("-1", "01", "1e3", "", "9" * 20, True):
        assert client.post("/v1/games/gops/check",
                           json={"players": 2, "seed": bad}).status_code == 422, bad


def test_check_takes_log_entries_as_the_log_and_the_export_give_them(client):
    """Entries with version, at, by, … check as they are; the outcome is the record's."""
    log, jsonl = finished(client)
    moves = [json.loads(line) for line in jsonl.splitlines() if '"type":"move"' in line]
    assert "at" in log["moves"][0] and "version" in log["moves"][0]
    for entries in (log["moves"], moves):
        body = client.post("/v1/games/gops/check", json={
            "players": 3, "options": log["options"], "seed": log["seed"],
            "moves": entries}).json
        assert body["legal"] and body["over"], body
        assert body["outcome"]["scores"] == log["result"]["scores"]
    odd = {**log["moves"][0], "colour": "red"}
    assert client.post("/v1/games/gops/check", json={
        "players": 3, "seed": "1", "moves": [odd]}).status_code == 422


def test_a_record_verifies_whole_as_json_and_as_jsonl(client):
    """/v1/verify: legal, outcome and commitment match, for the log and its export."""
    log, jsonl = finished(client)
    for record in (log, {"jsonl": jsonl}):
        answer = client.post("/v1/verify", json=record).json
        assert answer["legal"] and answer["error"] is None, answer
        assert answer["outcome_matches"] is True and answer["commitment_matches"] is True
        assert answer["applied"] == answer["moves"] == len(log["moves"])
        assert answer["outcome"]["ranks"] == log["result"]["ranks"]


def test_a_tampered_record_is_caught_where_it_was_changed(client):
    """A changed move: illegal at its index; a changed result: outcome_matches false; another
    seed: commitment_matches false, and the failing replay says why."""
    log, _ = finished(client)
    moves = [dict(m) for m in log["moves"]]
    moves[4] = {**moves[4], "move": {"type": "bid", "card": 99}}
    answer = client.post("/v1/verify", json={**log, "moves": moves}).json
    assert answer["legal"] is False and answer["error"]["index"] == 4
    result = {**log["result"], "ranks": list(reversed(log["result"]["ranks"]))}
    if result["ranks"] != log["result"]["ranks"]:
        assert client.post("/v1/verify", json={**log, "result": result}).json[
            "outcome_matches"] is False
    rounded = str(int(BIG_SEED) - 12)   # what JSON.parse makes of it
    answer = client.post("/v1/verify", json={**log, "seed": rounded}).json
    assert answer["commitment_matches"] is False
    if not answer["legal"]:
        assert "commitment" in answer["error"]["hint"]
    mismatch = client.post("/v1/games/gops/check", json={
        "players": 3, "options": log["options"], "seed": rounded,
        "seed_commitment": {"commitment": log["seed_commitment"]["commitment"],
                            "salt": log["seed_commitment"]["salt"]},
        "moves": log["moves"]})
    assert (mismatch.status_code, mismatch.json["code"]) == (422, "seed.commitment_mismatch")


def test_a_seed_with_external_chance_is_refused(client):
    """chance external takes its chance as moves: a seed beside it is 422."""
    r = client.post("/v1/games/gops/check", json={"players": 2, "seed": "3",
                                                  "chance": "external"})
    assert (r.status_code, r.json["code"]) == (422, "chance.seed_unused")
    r = client.post("/v1/check-sessions", json={"game": "gops", "players": 2, "seed": "3",
                                                "chance": "external"})
    assert (r.status_code, r.json["code"]) == (422, "chance.seed_unused")


def test_the_check_stops_at_its_move_cap(client):
    """max_moves 2: after two moves the position is over (adjudicated), a third is refused."""
    moves = [{"seat": 0, "move": {"type": "bid", "card": 1}},
             {"seat": 1, "move": {"type": "bid", "card": 2}}]
    capped = client.post("/v1/games/gops/check", json={
        "players": 2, "seed": "1", "options": {"cards": 3}, "max_moves": 2,
        "moves": moves}).json
    assert capped["legal"] and capped["over"] and capped["capped"] and not capped["pending"]
    assert capped["outcome"]["termination"] == "move_cap"
    over = client.post("/v1/games/gops/check", json={
        "players": 2, "seed": "1", "options": {"cards": 3}, "max_moves": 2,
        "moves": moves + [{"seat": 0, "move": {"type": "bid", "card": 2}}]}).json
    assert over["legal"] is False and over["error"]["code"] == "check.move_cap"
    assert over["error"]["index"] == 2


def test_a_session_replays_a_match_one_move_at_a_time(client, app):
    """Each move's verdict and the next decision; an illegal move changes nothing; the end
    is the record's outcome; the session's state lives in the store with a TTL."""
    log, _ = finished(client)
    created = client.post("/v1/check-sessions", json={
        "game": "gops", "players": 3, "options": log["options"], "seed": log["seed"]})
    assert created.status_code == 201, created.json
    sid, token = created.json["id"], created.json["token"]
    assert created.json["version"] == 0 and created.json["pending"]
    store = app.extensions["referee"].store
    assert 0 < store.redis.ttl(f"{store.prefix}:checksession:{sid}") <= 3600
    bad = client.post(f"/v1/check-sessions/{sid}/moves", headers=auth(token),
                      json={"seat": 0, "move": {"type": "bid", "card": 99}}).json
    assert bad["legal"] is False and bad["version"] == 0 and bad["error"]["code"]
    for number, entry in enumerate(log["moves"], 1):
        answer = client.post(f"/v1/check-sessions/{sid}/moves", headers=auth(token),
                             json=entry).json
        assert answer["legal"] and answer["version"] == number, answer
    assert answer["over"] and answer["outcome"]["scores"] == log["result"]["scores"]
    shown = client.get(f"/v1/check-sessions/{sid}?view_seat=-1", headers=auth(token)).json
    assert shown["over"] and shown["view"] is not None
    assert client.delete(f"/v1/check-sessions/{sid}", headers=auth(token)).status_code == 204
    gone = client.get(f"/v1/check-sessions/{sid}", headers=auth(token))
    assert (gone.status_code, gone.json["code"]) == (404, "session.not_found")


def test_a_session_is_its_creators_alone(client):
    """Without the session's token, or with another's, every call is 401."""
    one = client.post("/v1/check-sessions", json={"game": "gops", "players": 2,
                                                  "seed": "4"}).json
    two = client.post("/v1/check-sessions", json={"game": "gops", "players": 2,
                                                  "seed": "4"}).json
    for headers in ({}, auth(two["token"]), auth("cs_guess")):
        for r in (client.get(f"/v1/check-sessions/{one['id']}", headers=headers),
                  client.post(f"/v1/check-sessions/{one['id']}/moves", headers=headers,
                              json={"move": {"type": "bid", "card": 1}, "seat": 0}),
                  client.delete(f"/v1/check-sessions/{one['id']}", headers=headers)):
            assert (r.status_code, r.json["code"]) == (401, "session.token_invalid")
    for made in (one, two):
        client.delete(f"/v1/check-sessions/{made['id']}", headers=auth(made["token"]))


def test_external_chance_in_a_session_is_chosen_by_the_caller(client):
    """chance external: the chance seat's decision lists outcomes; the caller picks them."""
    made = client.post("/v1/check-sessions", json={"game": "gops", "players": 2,
                                                   "chance": "external",
                                                   "options": {"cards": 3}}).json
    answer, steps, seats = made, 0, set()
    while not answer["over"]:
        decision = answer["pending"][0]
        seats.add(decision["seat"])
        item = {"seat": decision["seat"], "move": decision["legal_moves"][-1]}
        answer = client.post(f"/v1/check-sessions/{made['id']}/moves",
                             headers=auth(made["token"]), json=item).json
        assert answer["legal"], answer
        steps += 1
        assert steps < 100
    assert seats == {"chance", 0, 1}  # the chance seat is named "chance", never -1
    assert answer["outcome"]["termination"] == "rules"
    client.delete(f"/v1/check-sessions/{made['id']}", headers=auth(made["token"]))


def test_sessions_are_bounded_per_caller(app):
    """A caller (here an address) holds at most 20; deleting one frees a place."""
    client = app.test_client()
    environ = {"REMOTE_ADDR": "198.51.100.7"}
    made = []
    while True:
        r = client.post("/v1/check-sessions", environ_base=environ,
                        json={"game": "gops", "players": 2, "seed": "1"})
        if r.status_code != 201:
            break
        made.append(r.json)
        assert len(made) <= 20
    assert (r.status_code, r.json["code"], len(made)) == (429, "session.too_many", 20)
    first = made.pop(0)
    client.delete(f"/v1/check-sessions/{first['id']}", environ_base=environ,
                  headers=auth(first["token"]))
    again = client.post("/v1/check-sessions", environ_base=environ,
                        json={"game": "gops", "players": 2, "seed": "1"})
    assert again.status_code == 201
    for item in made + [again.json]:
        client.delete(f"/v1/check-sessions/{item['id']}", environ_base=environ,
                      headers=auth(item["token"]))


def test_the_chance_seat_is_named_chance_in_messages(client):
    """A seat's move while the set-up waits for chance: the refusal names "chance", never -1."""
    body = client.post("/v1/games/gops/check", json={
        "players": 2, "chance": "external",
        "moves": [{"seat": 0, "move": {"type": "bid", "card": 1}}]}).json
    assert body["error"]["code"] == "turn.not_yours"
    assert "'chance'" in body["error"]["message"] and "-1" not in body["error"]["message"]
    assert body["error"]["details"]["waiting_for"] == ["chance"]
