"""Positions over the API: GET /v1/games/{game}/state-schema, and `position` given to and
answered by /check and check sessions (issue 40)."""

from __future__ import annotations

import pytest

from referee.core.statedoc import undescribed
from referee.games import GAMES as REGISTRY

GAMES = ("dschunke", "yunnan", "yinzi-ming")


@pytest.fixture
def app(shared_app):
    """Stateless routes and sessions of their own: the module shares one app."""
    return shared_app


@pytest.mark.parametrize("game", GAMES)
def test_state_schema_is_served_with_every_field_described(client, game):
    """Anyone reads the state schema, every field described, and the notation's field order
    is the schema's; the example position starts a check as it is."""
    r = client.get(f"/v1/games/{game}/state-schema")
    assert r.status_code == 200
    doc = r.json
    assert doc["game"] == game and "hidden" in doc["contains"]
    assert undescribed(doc["schema"]) == []
    assert [f["name"] for f in doc["position"]["fields"]] == list(doc["schema"]["properties"])
    example = doc["position"]["example"]
    assert example.startswith(doc["position"]["prefix"]) and len(example) < 2000
    checked = client.post(f"/v1/games/{game}/check", json={
        "players": 2, "position": example})
    assert checked.status_code == 200, checked.json
    assert checked.json["position"] == example and checked.json["pending"]


def test_a_game_without_notation_says_so(client):
    """gops (a test game) has neither: null, and answers carry a null position."""
    doc = client.get("/v1/games/gops/state-schema").json
    assert doc["position"] is None and doc["schema"]
    body = {"players": 2, "seed": 1, "options": {"cards": 3}}
    assert client.post("/v1/games/gops/check", json=body).json["position"] is None


def _moves(client, game, seed, count):
    """`count` moves of a seeded check, each the first legal move of the first pending seat."""
    moves = []
    for _ in range(count):
        answer = client.post(f"/v1/games/{game}/check", json={
            "players": 3, "seed": str(seed), "moves": moves}).json
        first = answer["pending"][0]
        moves.append({"seat": first["seat"], "move": first["legal_moves"][-1]})
    return moves


@pytest.mark.parametrize("game", GAMES)
def test_a_position_goes_on_as_the_moves_that_led_there(client, game):
    """Checking moves 0..k then k..n from the position after k answers as checking 0..n."""
    seed = 7_374_513_755_567_299_596
    moves = _moves(client, game, seed, 12)
    whole = client.post(f"/v1/games/{game}/check", json={
        "players": 3, "seed": str(seed), "moves": moves}).json
    half = client.post(f"/v1/games/{game}/check", json={
        "players": 3, "seed": str(seed), "moves": moves[:5]}).json
    rest = client.post(f"/v1/games/{game}/check", json={
        "players": 3, "position": half["position"], "moves": moves[5:]}).json
    assert rest["legal"] and rest["position"] == whole["position"]
    assert rest["pending"] == whole["pending"]
    assert str(seed) in half["position"]  # the seed travels exactly, all 63 bits


def test_a_session_starts_from_a_position_and_answers_positions(client):
    """A check session takes `position` and answers the position after each move."""
    start = client.post("/v1/games/dschunke/check", json={"players": 3, "seed": "5"}).json
    r = client.post("/v1/check-sessions", json={"game": "dschunke", "players": 3,
                                                "position": start["position"]})
    assert r.status_code == 201, r.json
    created = r.json
    assert created["position"] == start["position"]
    first = created["pending"][0]
    move = {"seat": first["seat"], "move": first["legal_moves"][0]}
    played = client.post(f"/v1/check-sessions/{created['id']}/moves", json=move,
                         headers={"Authorization": f"Bearer {created['token']}"}).json
    stateless = client.post("/v1/games/dschunke/check", json={
        "players": 3, "seed": "5", "moves": [move]}).json
    assert played["legal"] and played["position"] == stateless["position"]


def test_external_chance_from_a_position_waits_with_no_position(client):
    """With chance external a position is played on with chance moves; while a move waits on
    an outcome there is no position to write (null), and the outcome given, there is."""
    start = client.post("/v1/games/dschunke/check", json={"players": 3, "seed": "5"}).json
    body = {"players": 3, "position": start["position"], "chance": "external"}
    moves = []
    for _ in range(40):
        answer = client.post("/v1/games/dschunke/check", json={**body, "moves": moves}).json
        assert answer["legal"], answer["error"]
        first = answer["pending"][0]
        if first["seat"] == "chance":
            assert answer["position"] is None
            moves.append({"seat": "chance", "move": first["legal_moves"][0]})
            after = client.post("/v1/games/dschunke/check", json={**body, "moves": moves}).json
            assert after["position"] is not None
            return
        moves.append({"seat": first["seat"], "move": first["legal_moves"][-1]})
    pytest.fail("no chance event in 40 moves")


@pytest.mark.parametrize("position, where", [
    ("yunnan:(3)", "position[0]"),
    ("dschunke:(3,", "position[12]"),
    ("dschunke:(x", "position[10]"),
])
def test_a_bad_position_names_the_character(client, position, where):
    """A position of another game, cut short or with a wrong value: 422 state.invalid at the
    character where it breaks."""
    r = client.post("/v1/games/dschunke/check", json={"players": 3, "position": position})
    assert (r.status_code, r.json["code"]) == (422, "state.invalid")
    assert r.json["details"]["path"] == where, r.json


def test_a_position_that_breaks_the_rules_names_the_field(client):
    """A well-formed position whose values disagree (4 players with 3 seats and 3 colours)
    is refused with the state field at fault."""
    start = client.post("/v1/games/dschunke/check", json={"players": 3, "seed": "5"}).json
    wrong = start["position"].replace("dschunke:(3,", "dschunke:(4,", 1)
    r = client.post("/v1/games/dschunke/check", json={"players": 3, "position": wrong})
    assert (r.status_code, r.json["code"]) == (422, "state.invalid")
    assert r.json["details"]["path"].startswith("$."), r.json


def test_state_and_position_together_are_refused(client):
    """One starting point: a state and a position together are 422 request.invalid."""
    start = client.post("/v1/games/dschunke/check", json={"players": 3, "seed": "5"}).json
    r = client.post("/v1/games/dschunke/check", json={
        "players": 3, "position": start["position"], "state": {"x": 1}})
    assert (r.status_code, r.json["code"]) == (422, "request.invalid")


def test_a_state_given_with_its_seed_as_a_string_is_read_exactly(client):
    """A JavaScript tool writes a 63-bit seed in a state as digits: read as the integer the
    state holds (the position answered shows it exactly), and the check goes on alike."""
    seed = 7_374_513_755_567_299_596
    start = client.post("/v1/games/yinzi-ming/check", json={"players": 3, "seed": str(seed)})
    position = start.json["position"]
    assert f",{seed}," in position
    state = REGISTRY.get("yinzi-ming").notation.decode(position)
    given = client.post("/v1/games/yinzi-ming/check", json={
        "players": 3, "state": {**state, "seed": str(seed)}}).json
    assert given["position"] == position and given["pending"] == start.json["pending"]
