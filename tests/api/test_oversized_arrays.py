"""Oversized or ill-typed arrays are refused before any item is loaded (issue 42): a check
with 100,000 small integers as `moves` loaded 100,000 nested schemas (1.9 s) before its 422.
The work is bounded by counting the nested loads, never by timing."""

from __future__ import annotations

import json

import pytest

from referee.service.checkschemas import MAX_CHECK_MOVES, SeatedMoveSchema
from tests.conftest import organiser_client


@pytest.fixture
def loads(monkeypatch):
    """How many times a seated move was loaded by marshmallow (one per item it reads)."""
    counted = []
    original = SeatedMoveSchema.load

    def load(self, *args, **kwargs):
        counted.append(1)
        return original(self, *args, **kwargs)
    monkeypatch.setattr(SeatedMoveSchema, "load", load)
    return counted


@pytest.fixture
def client(embedded_app):
    return organiser_client(embedded_app)


def _post(client, path, body):
    data = json.dumps(body, separators=(",", ":"))
    assert len(data) <= 256 * 1024, "the body must pass the size limit to reach the schema"
    return client.post(path, data=data, content_type="application/json")


def test_a_check_of_100000_integers_is_refused_by_its_count_with_nothing_loaded(client, loads):
    r = _post(client, "/v1/games/gops/check", {"players": 2, "moves": [1] * 100_000})
    assert r.status_code == 422 and r.json["code"] == "request.invalid", r.json
    assert r.mimetype == "application/problem+json"
    assert f"at most {MAX_CHECK_MOVES} items; this has 100000" in r.json["detail"]
    assert loads == []


def test_one_move_over_the_cap_is_refused_with_nothing_loaded(client, loads):
    moves = [{"move": {}}] * (MAX_CHECK_MOVES + 1)
    r = _post(client, "/v1/games/gops/check", {"players": 2, "moves": moves})
    assert r.status_code == 422 and "at most" in r.json["detail"], r.json
    assert loads == []


def test_at_the_cap_the_moves_are_read(client, loads):
    moves = [{"move": {"type": "nonsense"}}] * 3
    r = _post(client, "/v1/games/gops/check", {"players": 2, "seed": "1", "moves": moves})
    assert r.status_code == 200, r.json
    assert len(loads) == 3   # the counter counts: the refusals above loaded none


def test_a_record_with_a_bad_item_names_it_alone_and_loads_none(client, loads):
    moves = [{"move": {"type": "bid", "card": 1}}] * 5 + [7] * 90_000
    r = _post(client, "/v1/verify", {"game": "gops", "players": 2, "seed": "1",
                                     "moves": moves})
    assert r.status_code == 422 and r.json["code"] == "request.invalid", r.json
    assert "json.moves.5" in r.json["detail"] and "json.moves.6" not in r.json["detail"]
    assert loads == []


def test_a_match_with_60000_seats_is_refused_by_its_count(client):
    r = _post(client, "/v1/matches", {"game": "gops", "seats": ["x"] * 60_000})
    assert r.status_code == 422 and "at most 16 items" in r.json["detail"], r.json
