"""Matches with external chance over REST: a physical table refereed live.

The organiser who creates the match plays the chance seat (/v1/matches/{id}/chance); the
players move with their seat tokens. While the match runs, a chance outcome is shown in the
log to everyone when public, to its owner seat alone, or to nobody (chance.NOBODY); all of
it once the match is over. Views never show what the rules keep hidden.
"""

from __future__ import annotations

import pytest

from tests.api.helpers import auth, create
from tests.conftest import account_client, organiser_client

CHANCE_URL = "/v1/matches/{}/chance"


@pytest.fixture
def dealt_app(redis_settings, monkeypatch):
    """The app with the test games gops and gops-dealt (secret bonuses, a buried card)."""
    from referee.root import create_app, stop_app

    monkeypatch.setenv("REFEREE_EXTRA_GAMES", "tests.support.gops:GAME,tests.support.dealt:GAME")
    app = create_app(redis_settings)
    yield app
    stop_app(app)


def deal(client, match_id, outcome, status=200):
    """The organiser supplies one chance outcome; returns the answer's JSON."""
    r = client.post(CHANCE_URL.format(match_id), json={"move": {"type": "chance",
                                                                "outcome": outcome}})
    assert r.status_code == status, r.json
    return r.json


def move(client, match_id, token, body, status=200):
    """A seat's move; returns the answer's JSON."""
    r = client.post(f"/v1/matches/{match_id}/moves", json={"move": body}, headers=auth(token))
    assert r.status_code == status, r.json
    return r.json


def test_a_live_table_is_refereed_with_the_dealer_entering_chance(client):
    """gops with external chance: the set-up waits for the dealer, the players bid, a tie
    waits for the next prize; the chance prompt lists outcomes with probabilities."""
    match = create(client, chance="external", options={"cards": 3})
    mid, tokens = match["id"], match["tokens"]
    assert match["chance"] == "external"
    summary = client.get(f"/v1/matches/{mid}").json
    assert summary["to_act"] == [{"seat": "chance", "decision": "chance:prize",
                                  "sealed": False}]
    assert summary["view"] is None and summary["chance"] == "external"
    seat0 = client.get(f"/v1/matches/{mid}/prompt", headers=auth(tokens["0"])).json
    assert seat0["must_act"] is False
    prompt = client.get(CHANCE_URL.format(mid)).json
    assert prompt["seat"] == "chance" and prompt["must_act"] is True
    assert prompt["outcomes"] == [{"move": {"type": "chance", "outcome": c},
                                   "probability": 1 / 3} for c in (1, 2, 3)]
    assert prompt["legal_moves"] == [o["move"] for o in prompt["outcomes"]]
    answer = deal(client, mid, 2)
    assert {a["seat"] for a in answer["to_act"]} == {0, 1} and answer["view"]["prize"] == [2]
    assert deal(client, mid, 2, 409)["code"] == "turn.not_yours"
    move(client, mid, tokens["0"], {"type": "bid", "card": 3})
    answer = move(client, mid, tokens["1"], {"type": "bid", "card": 3})
    assert answer["to_act"] == [{"seat": "chance", "decision": "chance:prize", "sealed": False}]
    assert deal(client, mid, 2, 422)["code"] == "move.illegal.chance.outcome"
    deal(client, mid, 3)
    move(client, mid, tokens["0"], {"type": "bid", "card": 2})
    move(client, mid, tokens["1"], {"type": "bid", "card": 1})
    move(client, mid, tokens["0"], {"type": "keep"})
    answer = deal(client, mid, 1)
    move(client, mid, tokens["0"], {"type": "bid", "card": 1})
    answer = move(client, mid, tokens["1"], {"type": "bid", "card": 2})
    move(client, mid, tokens["1"], {"type": "keep"})
    final = client.get(f"/v1/matches/{mid}").json
    assert final["status"] == "over" and final["result"]["scores"] == [3, 1]
    log = client.get(f"/v1/matches/{mid}/log").json
    assert [m["seat"] for m in log["moves"]][:4] == ["chance", 0, 1, "chance"]
    assert log["chance"] == "external"
    assert all(m["by"] == "organiser" for m in log["moves"] if m["seat"] == "chance")


def test_who_may_create_and_deal(app, client):
    """A player may not create an external-chance match; only its creator deals; seat tokens
    and strangers are refused; an internal match takes no chance moves; the arena refuses."""
    player, _ = account_client(app, "table-player")
    r = player.post("/v1/matches", json={"game": "gops", "seats": ["remote"] * 2,
                                         "chance": "external"})
    assert (r.status_code, r.json["code"]) == (403, "auth.organiser_only")
    match = create(client, chance="external")
    url = CHANCE_URL.format(match["id"])
    other, _ = account_client(app, "other-organiser", "organiser")
    for caller, status, code in ((other, 403, "auth.forbidden"),
                                 (player, 403, "auth.organiser_only")):
        for r in (caller.get(url), caller.post(url, json={"move": {"type": "chance",
                                                                  "outcome": 1}})):
            assert (r.status_code, r.json["code"]) == (status, code)
    r = app.test_client().post(url, json={"move": {"type": "chance", "outcome": 1}},
                               headers=auth(match["tokens"]["0"]))
    assert r.status_code == 401
    internal = create(client)
    r = client.get(CHANCE_URL.format(internal["id"]))
    assert (r.status_code, r.json["code"]) == (409, "chance.internal")
    for path, body in (("/v1/arena/matches", {"seats": ["builtin:random"] * 2}),
                       ("/v1/tournaments", {"entrants": ["builtin:random"] * 2})):
        r = client.post(path, json={"game": "gops", "chance": "external", **body})
        assert (r.status_code, r.json["code"]) == (422, "chance.unsupported"), r.json


def test_builtin_seats_play_on_while_the_organiser_deals(client):
    """A robot seat of an external-chance match is played by the referee; chance never is."""
    match = create(client, seats=["builtin:random", "builtin:random"], chance="external")
    mid = match["id"]
    for _ in range(40):
        prompt = client.get(CHANCE_URL.format(mid) + "?wait=2").json
        if prompt["status"] != "active":
            break
        if prompt["must_act"]:
            deal(client, mid, prompt["legal_moves"][0]["outcome"])
    final = client.get(f"/v1/matches/{mid}").json
    assert final["status"] == "over" and final["result"]["termination"] == "rules"


def entries(client, mid, token=None):
    """The chance entries of the log, as the caller (a seat token, or a spectator) sees them."""
    headers = auth(token) if token else {"Authorization": ""}
    log = client.get(f"/v1/matches/{mid}/log", headers=headers).json
    return [m for m in log["moves"] if m["seat"] == "chance"]


def test_chance_outcomes_are_shown_only_to_their_owner_while_the_match_runs(dealt_app):
    """Bonuses (owned by a seat), the buried card (nobody's), prizes (everyone's): the log
    and the views of each seat and of a spectator; everything once the match is over."""
    client = organiser_client(dealt_app)
    match = create(client, game="gops-dealt", chance="external", options={"cards": 3})
    mid, tokens = match["id"], match["tokens"]
    kinds = []
    for outcome in (2, 0, 1, 3):  # prize 2; bonus 0 for seat 0, 1 for seat 1; bury 3
        kinds.append(client.get(CHANCE_URL.format(mid)).json["decision"]["kind"])
        deal(client, mid, outcome)
    assert kinds == ["chance:prize", "chance:bonus", "chance:bonus", "chance:bury"]
    spectator = entries(client, mid)
    assert [m.get("owner") for m in spectator] == [None, 0, 1, "nobody"]
    assert [m["move"] for m in spectator] == [{"type": "chance", "outcome": 2}, None, None,
                                              None]
    assert all(m.get("hidden") for m in spectator[1:])
    for seat, bonus in ((0, 0), (1, 1)):
        seen = entries(client, mid, tokens[str(seat)])
        shown = [m["move"]["outcome"] if m["move"] else None for m in seen]
        assert shown == [2, bonus if seat == 0 else None, bonus if seat == 1 else None, None]
        view = client.get(f"/v1/matches/{mid}", headers=auth(tokens[str(seat)])).json["view"]
        assert view["bonus"] == [bonus if s == seat else None for s in (0, 1)]
        assert "buried" not in view and view["deck_size"] == 1  # 1 left: 3 is buried
    assert client.get(f"/v1/matches/{mid}").json["view"]["bonus"] == [None, None]
    prompt = client.get(f"/v1/matches/{mid}/prompt", headers=auth(tokens["0"])).json
    assert prompt["view"]["bonus"] == [0, None]
    for seat, card in ((0, 1), (1, 2)):
        move(client, mid, tokens[str(seat)], {"type": "bid", "card": card})
    move(client, mid, tokens["1"], {"type": "keep"})
    deal(client, mid, 1)  # the last prize; the buried 3 never comes up
    for seat, card in ((0, 3), (1, 1)):
        move(client, mid, tokens[str(seat)], {"type": "bid", "card": card})
    move(client, mid, tokens["0"], {"type": "keep"})
    final = client.get(f"/v1/matches/{mid}").json
    assert final["status"] == "over" and final["view"]["bonus"] == [0, 1]
    assert final["result"]["scores"] == [1, 3]  # prizes plus bonus
    assert [m["move"]["outcome"] for m in entries(client, mid)] == [2, 0, 1, 3, 1]
    assert not any(m.get("hidden") for m in entries(client, mid, tokens["0"]))
