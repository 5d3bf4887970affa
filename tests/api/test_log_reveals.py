"""A running match's log shows a sealed move to everyone once the game has revealed it.

Dschunke's goods poker: "All reveal simultaneously." Before the reveal, another seat and a
spectator see that a bid was laid, not what; after it, they see every bid of that round.
"""

from __future__ import annotations

from tests.api.helpers import auth, create


def _prompt(client, mid, token):
    return client.get(f"/v1/matches/{mid}/prompt", headers=auth(token)).json


def _move(client, mid, token, move):
    response = client.post(f"/v1/matches/{mid}/moves", json={"move": move}, headers=auth(token))
    assert response.status_code == 200, response.json


def _to_the_poker(client, mid, tokens):
    """Play first-listed moves until the only decisions pending are sealed bids."""
    while True:
        prompts = {seat: _prompt(client, mid, t) for seat, t in tokens.items()}
        acting = {s: p for s, p in prompts.items() if p["must_act"]}
        if acting and all(p["decision"]["kind"] == "bid" for p in acting.values()):
            return sorted(acting)
        seat, prompt = next(iter(acting.items()))
        _move(client, mid, tokens[seat], prompt["legal_moves"][0])


def _bid_entries(log, seat):
    return [m for m in log["moves"] if m["seat"] == seat and m.get("sealed")]


def test_a_bid_is_shown_to_others_once_its_poker_round_is_revealed(client):
    body = create(client, game="dschunke", seats=["remote"] * 3, seed=5)
    mid, tokens = body["id"], {int(s): t for s, t in body["tokens"].items()}
    bidders = _to_the_poker(client, mid, tokens)
    first, others = bidders[0], bidders[1:]
    laid = []
    for _ in range(4):  # one sealed bid move per colour; lay as many as held of each
        move = _prompt(client, mid, tokens[first])["legal_moves"][-1]
        _move(client, mid, tokens[first], move)
        laid.append(move)
    other_seat = others[0]
    spectator = client.get(f"/v1/matches/{mid}/log").json
    as_other = client.get(f"/v1/matches/{mid}/log", headers=auth(tokens[other_seat])).json
    own = client.get(f"/v1/matches/{mid}/log", headers=auth(tokens[first])).json
    for log in (spectator, as_other):
        assert [(m["move"], m.get("hidden")) for m in _bid_entries(log, first)] == \
            [(None, True)] * 4, "a sealed bid must stay hidden before the reveal"
    assert [m["move"] for m in _bid_entries(own, first)] == laid
    assert all("public" not in m and "reveals" not in m for m in own["moves"])

    played = {first: laid}
    for seat in others:  # the others lay nothing; the last move reveals the round
        played[seat] = []
        for _ in range(4):
            move = _prompt(client, mid, tokens[seat])["legal_moves"][0]
            _move(client, mid, tokens[seat], move)
            played[seat].append(move)
    spectator = client.get(f"/v1/matches/{mid}/log").json
    as_other = client.get(f"/v1/matches/{mid}/log", headers=auth(tokens[other_seat])).json
    assert spectator["status"] == "active"
    for log in (spectator, as_other):
        for seat, moves in played.items():
            assert [m["move"] for m in _bid_entries(log, seat)][:4] == moves
            assert not any(m.get("hidden") for m in _bid_entries(log, seat)[:4])
