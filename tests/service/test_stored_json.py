"""A move after this process's own commit copies its state from the JSON that commit sent
(MatchService.submit, StateCache.stored_json, Game.apply_stored): the state is written once
per move, and the record Redis gets is byte for byte the one written without it."""

from __future__ import annotations

import random

import pytest

from referee.core import engine, kit
from referee.core.chance import INTERNAL
from referee.games import GAMES
from referee.service import fastjson
from referee.service.states import StateCache
from tests.api.helpers import auth, create


@pytest.mark.parametrize("name", GAMES.names())
def test_the_record_with_the_states_json_spliced_in_is_the_record_written_whole(name):
    """`dumpb_with` copies the state's JSON into the live record as it is: the same bytes
    as writing the whole record, at every step of a playout."""
    game, rng = GAMES.get(name), random.Random(3)
    _, state = engine.start(game, 3, None, 8, INTERNAL)
    for version in range(60):
        if not game.pending(state):
            break
        record = {"version": version, "status": "active", "state": game.stored(state),
                  "pending": [d.seat for d in game.pending(state)], "result": None}
        written = fastjson.dumpb_orjson(record["state"])
        assert written is not None
        assert fastjson.dumpb_with(record, "state", written) == fastjson.dumpb(record)
        decision = rng.choice(game.pending(state))
        state, _ = engine.play(game, state, version, decision.seat,
                               rng.choice(game.legal_moves(state, decision.seat)))
    assert version > 20


def test_dumpb_with_writes_whole_what_orjson_refuses():
    """An integer beyond 64 bits (which orjson refuses) anywhere: the record is written by
    `json`, whole, and equals `dumpb`; no state JSON given: the same."""
    record = {"state": {"n": 1}, "clock": 2**70}
    assert fastjson.dumpb_orjson(2**70) is None
    assert fastjson.dumpb_with(record, "state", b'{"n":1}') == fastjson.dumpb(record) == \
        b'{"state":{"n":1},"clock":1180591620717411303424}'
    assert fastjson.dumpb_with({"state": [1]}, "state", None) == b'{"state":[1]}'


def test_the_cache_gives_the_json_only_of_the_very_state_at_that_version():
    cache, state, other = StateCache(), {"s": 1}, {"s": 1}
    cache.put("m", 3, state, "live 3", b'{"s":1}')
    assert cache.stored_json("m", 3, state) == b'{"s":1}'
    assert cache.stored_json("m", 3, other) is None        # an equal state, not this one
    assert cache.stored_json("m", 2, state) is None        # another version
    cache.put("m", 3, live="live 3 read again")             # the same version read again
    assert cache.stored_json("m", 3, state) == b'{"s":1}'
    cache.put("m", 3, other)                                # another state object: no JSON
    assert cache.stored_json("m", 3, other) is None and cache.stored_json("m", 3, state) is None
    cache.put("m", 4, {"s": 2})                             # the next version, read from Redis
    assert cache.stored_json("m", 4, cache.get("m", 4)) is None


def test_a_move_after_this_process_committed_copies_from_the_json_it_sent(embedded_app,
                                                                         monkeypatch):
    """Through the API: the second move of a match (this process committed the first) is
    applied from the commit's JSON; once the process has forgotten the match (another
    process moved it, say), the state read back is copied by `apply` as before."""
    client, service = embedded_app.test_client(), embedded_app.extensions["referee"]
    calls = []
    real_apply, real_stored = kit.KitGame.apply, kit.KitGame.apply_stored
    monkeypatch.setattr(kit.KitGame, "apply", lambda self, *a: calls.append("apply") or
                        real_apply(self, *a))
    monkeypatch.setattr(kit.KitGame, "apply_stored", lambda self, s, seat, m, raw: calls.append(
        ("stored", raw == fastjson.dumpb(service.store.live(match_id).state))) or
        real_stored(self, s, seat, m, raw))
    created = create(client, game="dschunke", seats=["remote"] * 3, seed=2)
    match_id, tokens = created["id"], created["tokens"]

    def move():
        seat = str(service.store.live(match_id).pending[0])
        prompt = client.get(f"/v1/matches/{match_id}/prompt", headers=auth(tokens[seat])).json
        answer = client.post(f"/v1/matches/{match_id}/moves", headers=auth(tokens[seat]),
                             json={"move": prompt["legal_moves"][0],
                                   "expected_version": prompt["version"]})
        assert answer.status_code == 200, answer.json

    move()
    move()
    service._states = StateCache()
    move()
    assert calls == ["apply", ("stored", True), "apply"]
