"""Records made under older rules (issue 44): replayed only where the game says they replay
unchanged (GameSpec.older_rules), refused with a code otherwise; never read with rules they
were not played under."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from referee.core.versions import readable
from referee.games import GAMES
from tests.api.helpers import auth, create, wait_until


@pytest.fixture
def app(shared_app):
    """Each test makes its own matches: the module shares one app."""
    return shared_app


def _finished(client) -> dict:
    body = create(client, seats=["builtin:random"] * 3, seed="5", options={"cards": 5})
    wait_until(lambda: client.get(f"/v1/matches/{body['id']}").json["status"] == "over")
    return client.get(f"/v1/matches/{body['id']}/log").json


def _older(app, monkeypatch, **older):
    """Let gops say its records of `older` versions replay (as a rules bump would)."""
    game = app.extensions["referee"].games.get("gops")
    monkeypatch.setattr(game, "spec", replace(game.spec, older_rules=older))
    return game


def test_a_record_of_rules_these_do_not_replay_is_refused_not_misread(client, app, monkeypatch):
    """/v1/verify answered legal/illegal under the current rules whatever version a record
    named; now an older version the game does not read is 422 rules.version_unreadable,
    naming both versions, and the current one still verifies."""
    log = _finished(client)
    current = log["rules_version"]
    assert client.post("/v1/verify", json=log).json["legal"] is True
    old = client.post("/v1/verify", json={**log, "rules_version": "0"})
    assert old.status_code == 422 and old.json["code"] == "rules.version_unreadable", old.json
    assert old.json["details"] == {"recorded": "0", "current": current, "reads": {}}
    assert "rules_version 0" in old.json["detail"] and "not played under" in old.json["detail"]
    _older(app, monkeypatch, **{"0": "internal"})
    read = client.post("/v1/verify", json={**log, "rules_version": "0"}).json
    assert read["legal"] is True and read["rules_version_matches"] is False
    assert read["rules_version_read"] == "0"
    assert client.get("/v1/games/gops").json["older_rules"] == {"0": "internal"}


def test_a_stored_match_under_retired_rules_takes_no_move_and_keeps_its_log(client, app):
    """A match whose stored rules_version the service no longer plays: its state is not
    read (409 match.rules_retired on the prompt and on a move); its record and log are
    served as they were stored."""
    body = create(client, seats=["remote"] * 2, options={"cards": 5})
    service = app.extensions["referee"]
    store, match_id = service.store, body["id"]
    key = store.key(match_id, "meta")
    meta = json.loads(store.redis.get(key))
    store.redis.set(key, json.dumps({**meta, "rules_version": "0"}))
    store._meta_cache.clear()   # as a freshly started process reads it
    token = body["tokens"]["0"]
    prompt = client.get(f"/v1/matches/{match_id}/prompt", headers=auth(token))
    assert prompt.status_code == 409 and prompt.json["code"] == "match.rules_retired"
    move = client.post(f"/v1/matches/{match_id}/moves", headers=auth(token),
                       json={"move": {"type": "bid", "card": 1}})
    assert move.status_code == 409 and move.json["code"] == "match.rules_retired"
    log = client.get(f"/v1/matches/{match_id}/log")
    assert log.status_code == 200 and log.json["rules_version"] == "0"


def test_readable_says_which_chance_modes_an_older_version_covers():
    """'internal': matches dealt from their seed (no outcome in the log) replay; external
    ones do not; 'all' covers both; None (not said) is the current version."""
    spec = replace(GAMES.get("dschunke").spec, older_rules={"1": "internal", "0": "all"})
    assert readable(spec, None) and readable(spec, spec.rules_version, "external")
    assert readable(spec, "1", "internal") and not readable(spec, "1", "external")
    assert readable(spec, "0", "external") and not readable(spec, "7", "internal")


def test_dschunke_reads_its_version_2_records_of_internal_chance_only(client):
    """Dschunke's rules_version 3 wrote the market_card outcome as the card's id instead of
    its index in the market table ("a card's id, not its position in what is left", issue
    40); the same cards are dealt from a seed, so a version 2 record of internal chance
    verifies, and one of external chance (whose outcomes are indices) is refused."""
    body = create(client, game="dschunke", seats=["builtin:random"] * 3, seed="11")
    wait_until(lambda: client.get(f"/v1/matches/{body['id']}").json["status"] == "over",
               timeout=60)
    log = client.get(f"/v1/matches/{body['id']}/log").json
    assert log["rules_version"] == "3"
    read = client.post("/v1/verify", json={**log, "rules_version": "2"}).json
    assert read["legal"] and read["outcome_matches"] and read["rules_version_read"] == "2"
    external = client.post("/v1/verify", json={**log, "rules_version": "2", "chance": "external",
                                                "seed": None, "moves": []})
    assert external.status_code == 422 and external.json["code"] == "rules.version_unreadable"
