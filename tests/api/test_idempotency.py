"""Idempotency-Key on move submission: a retried move lands once (issue 12: the same move
sent by 10 clients without expected_version landed 21 extra times over 54 decisions)."""

from __future__ import annotations

from tests.conftest import organiser_client
from tests.support.threads import run_threads


def _match(client):
    r = client.post("/v1/matches", json={"game": "gops", "seats": ["remote", "remote"],
                                         "options": {"cards": 4}, "seed": 3})
    assert r.status_code == 201, r.json
    return r.json["id"], r.json["tokens"]


def _legal(client, match_id, token):
    r = client.get(f"/v1/matches/{match_id}/prompt", headers={"Authorization": f"Bearer {token}"})
    return r.json["legal_moves"]


def test_the_same_key_lands_a_move_once_and_answers_the_retry(client):
    match_id, tokens = _match(client)
    move = _legal(client, match_id, tokens["0"])[0]
    headers = {"Authorization": f"Bearer {tokens['0']}", "Idempotency-Key": "move-1"}
    first = client.post(f"/v1/matches/{match_id}/moves", json={"move": move}, headers=headers)
    again = client.post(f"/v1/matches/{match_id}/moves", json={"move": move}, headers=headers)
    assert first.status_code == again.status_code == 200
    assert "Idempotent-Replayed" not in first.headers
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json["version"] == first.json["version"] == 1
    assert len(client.get(f"/v1/matches/{match_id}/log").json["moves"]) == 1


def test_ten_clients_sending_one_move_with_one_key_land_it_once(app):
    clients = [organiser_client(app) for _ in range(10)]
    match_id, tokens = _match(clients[0])
    move = _legal(clients[0], match_id, tokens["0"])[0]
    headers = {"Authorization": f"Bearer {tokens['0']}", "Idempotency-Key": "k-7"}
    answers = []

    def send(c):
        answers.append(c.post(f"/v1/matches/{match_id}/moves", json={"move": move},
                              headers=headers).status_code)

    run_threads(send, [(c,) for c in clients])
    assert answers == [200] * 10
    assert len(clients[0].get(f"/v1/matches/{match_id}/log").json["moves"]) == 1


def test_keys_are_per_seat_and_checked(client):
    match_id, tokens = _match(client)
    for seat in ("0", "1"):
        move = _legal(client, match_id, tokens[seat])[0]
        r = client.post(f"/v1/matches/{match_id}/moves", json={"move": move},
                        headers={"Authorization": f"Bearer {tokens[seat]}",
                                 "Idempotency-Key": "same"})
        assert r.status_code == 200 and "Idempotent-Replayed" not in r.headers
    r = client.post(f"/v1/matches/{match_id}/moves", json={"move": {"type": "keep"}},
                    headers={"Authorization": f"Bearer {tokens['0']}",
                             "Idempotency-Key": "with space"})
    assert r.status_code == 400 and r.json["code"] == "request.invalid"
