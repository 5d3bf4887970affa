"""Redis round trips per request on the hot REST path (issue 17), counted on the socket.

A count, not a time: every packet redis-py sends to Redis from the request's thread is one
round trip (a pipeline is one packet), and so is every command the store's hot scripts send
over their own sockets (referee/service/scripts.py). A prompt reads the live record once (only its version
while this process holds the current one); a move is judged on the record this process last
saw and committed in one round trip (the commit checks the version; a move refused on an old
record is judged again on the current one).
"""

from __future__ import annotations

import threading

import pytest
import redis.connection

from referee.service import scripts
from tests.api.helpers import auth, create

pytestmark = pytest.mark.usefixtures("needs_real_redis")


@pytest.fixture
def sent(monkeypatch):
    """The commands this thread sends to Redis, one entry per round trip (health PINGs,
    which redis-py adds after 30 s idle, left out)."""
    packets, me = [], threading.get_ident()
    send = redis.connection.AbstractConnection.send_packed_command

    def counting(self, command, check_health=True):
        data = command if isinstance(command, (bytes, str)) else b"".join(command)
        data = data.encode() if isinstance(data, str) else data
        if threading.get_ident() == me and b"PING" not in data[:20]:
            packets.append(data)
        return send(self, command, check_health)
    monkeypatch.setattr(redis.connection.AbstractConnection, "send_packed_command", counting)
    encode = scripts._command

    def counting_script(args, *more):
        data = encode(args, *more)
        if threading.get_ident() == me:
            packets.append(data)
        return data
    monkeypatch.setattr(scripts, "_command", counting_script)
    return packets


def _turn(client, match_id, tokens, sent) -> tuple[int, int]:
    """One prompt and one move by the seat that must act; their round trips."""
    for token in tokens.values():
        sent.clear()
        prompt = client.get(f"/v1/matches/{match_id}/prompt", headers=auth(token)).json
        prompt_trips = len(sent)
        if prompt["must_act"]:
            sent.clear()
            response = client.post(f"/v1/matches/{match_id}/moves", headers=auth(token),
                                   json={"move": prompt["legal_moves"][0],
                                         "expected_version": prompt["version"]})
            assert response.status_code == 200, response.json
            return prompt_trips, len(sent)
    raise AssertionError("no seat must act")


def test_a_move_makes_one_round_trip_and_a_prompt_one(client, sent):
    """POST /moves after the seat's prompt: the commit alone; GET /prompt: one read."""
    created = create(client, game="gops", seats=("remote", "remote"))
    _turn(client, created["id"], created["tokens"], sent)   # warm: meta cached, scripts loaded
    for _ in range(3):
        prompt_trips, move_trips = _turn(client, created["id"], created["tokens"], sent)
        assert prompt_trips == 1, sent
        assert move_trips == 1, sent


def test_a_match_moved_on_by_another_process_is_read_whole_in_one_round_trip(
        client, redis_settings, sent):
    """Another API process (its own cache) moves the match on: this one's next prompt still
    makes one round trip, and brings the new version, not the one it had cached."""
    from referee.root import create_app, stop_app

    created = create(client, game="gops", seats=("remote", "remote"))
    match_id, tokens = created["id"], created["tokens"]
    _turn(client, match_id, tokens, sent)
    other = create_app({**redis_settings, "INLINE_WORKERS": 0})
    try:
        _turn(other.test_client(), match_id, tokens, sent)
        moved = other.test_client().get(f"/v1/matches/{match_id}").json["version"]
    finally:
        stop_app(other)
    prompt_trips, move_trips = _turn(client, match_id, tokens, sent)
    assert (prompt_trips, move_trips) == (1, 1), sent
    assert client.get(f"/v1/matches/{match_id}").json["version"] == moved + 1


def test_a_move_judged_on_an_old_record_is_judged_again_on_the_current_one(
        client, redis_settings):
    """This process last saw version 0 (it created the match); another process takes seat
    0's sealed bid (version 1). Here, seat 1's bid sent against version 1 (stale for the old
    record) lands; sent again against version 1, it is refused as stale."""
    from referee.root import create_app, stop_app

    created = create(client, game="gops", seats=("remote", "remote"))
    match_id, tokens = created["id"], created["tokens"]
    other = create_app({**redis_settings, "INLINE_WORKERS": 0})
    try:
        elsewhere = other.test_client()
        first = elsewhere.get(f"/v1/matches/{match_id}/prompt", headers=auth(tokens["0"])).json
        assert elsewhere.post(f"/v1/matches/{match_id}/moves", headers=auth(tokens["0"]),
                              json={"move": first["legal_moves"][0],
                                    "expected_version": 0}).status_code == 200
        second = elsewhere.get(f"/v1/matches/{match_id}/prompt", headers=auth(tokens["1"])).json
    finally:
        stop_app(other)
    assert second["must_act"] and second["version"] == 1
    bid = {"move": second["legal_moves"][0]}
    landed = client.post(f"/v1/matches/{match_id}/moves", headers=auth(tokens["1"]),
                         json={**bid, "expected_version": 1})
    assert landed.status_code == 200, landed.json
    assert landed.json["version"] == 2
    stale = client.post(f"/v1/matches/{match_id}/moves", headers=auth(tokens["1"]),
                        json={**bid, "expected_version": 1})
    assert stale.status_code == 409 and stale.json["code"] == "match.version_stale"
