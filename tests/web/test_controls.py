"""The seat page's controls route without a browser: only the seat's token opens it, it words
every legal move, and a sealed decision (Dschunke's bids) stays with its seat."""

from __future__ import annotations

import json

from tests.api.helpers import auth, create


def _controls(client, match_id, token=None):
    return client.get(f"/matches/{match_id}/controls", headers=auth(token) if token else {})


def test_controls_need_this_matchs_seat_token(client):
    match = create(client, "dschunke", ["remote", "builtin:random", "builtin:random"])
    other = create(client, "dschunke", ["remote", "builtin:random", "builtin:random"])
    assert _controls(client, match["id"]).status_code == 401
    refused = _controls(client, match["id"], other["tokens"]["0"])
    assert refused.status_code == 403 and refused.json["code"] == "auth.token_invalid"
    assert _controls(client, "nosuchmatch", match["tokens"]["0"]).status_code == 404


def test_every_legal_move_is_listed_once_in_words_by_type(client):
    match = create(client, "yunnan", ["remote", "remote", "remote"], seed=3)
    for seat, token in match["tokens"].items():
        prompt = client.get(f"/v1/matches/{match['id']}/prompt", headers=auth(token)).json
        controls = _controls(client, match["id"], token).json
        assert controls["must_act"] == prompt["must_act"]
        listed = [m for g in controls["groups"] for m in g["moves"]]
        assert [m["move"] for m in listed] == prompt["legal_moves"]
        assert all(m["words"] and m["words"] != json.dumps(m["move"]) for m in listed)
        for group in controls["groups"]:
            assert {m["move"]["type"] for m in group["moves"]} == {group["type"]}
        if prompt["must_act"]:
            assert controls["decision"]["kind"] == prompt["decision"]["kind"]
            assert controls["decision"]["words"]


def _play_until_sealed(client, match_id, tokens):
    """First legal moves until some seat must take a sealed decision: (its seat, the others)."""
    for _ in range(200):
        for seat, token in tokens.items():
            prompt = client.get(f"/v1/matches/{match_id}/prompt", headers=auth(token)).json
            if not prompt["must_act"]:
                continue
            if prompt["decision"]["sealed"]:
                return seat, prompt
            r = client.post(f"/v1/matches/{match_id}/moves", headers=auth(token),
                            json={"move": prompt["legal_moves"][0]})
            assert r.status_code == 200, r.json
    raise AssertionError("no sealed decision came")


def test_a_sealed_bid_is_shown_to_no_one_but_its_seat(client):
    """Dschunke's bids: marked private in the bidder's controls; once it has bid, neither
    another seat's controls and board, nor the spectator's board, log or match summary (what
    the public event stream sends) tell what it bid."""
    match = create(client, "dschunke", ["remote", "remote", "remote"], seed=4)
    match_id, tokens = match["id"], match["tokens"]
    seat, prompt = _play_until_sealed(client, match_id, tokens)
    controls = _controls(client, match_id, tokens[seat]).json
    assert controls["decision"]["sealed"] and "only you" in controls["decision"]["note"]
    bid = prompt["legal_moves"][-1]
    r = client.post(f"/v1/matches/{match_id}/moves", headers=auth(tokens[seat]),
                    json={"move": bid, "expected_version": prompt["version"]})
    assert r.status_code == 200, r.json
    words = next(m["words"] for g in controls["groups"] for m in g["moves"] if m["move"] == bid)
    others = [t for s, t in tokens.items() if s != seat]
    seen = [client.get(f"/matches/{match_id}/board").get_data(as_text=True),
            client.get(f"/v1/matches/{match_id}/log").get_data(as_text=True),
            client.get(f"/v1/matches/{match_id}").get_data(as_text=True)]
    for token in others:  # their controls are their own prompt's moves, nothing else
        theirs = client.get(f"/v1/matches/{match_id}/prompt", headers=auth(token)).json
        listed = [m["move"] for g in _controls(client, match_id, token).json["groups"]
                  for m in g["moves"]]
        assert listed == theirs["legal_moves"]
        seen.append(client.get(f"/matches/{match_id}/board", headers=auth(token))
                    .get_data(as_text=True))
    own = client.get(f"/v1/matches/{match_id}/log", headers=auth(tokens[seat])).json
    assert any(e["move"] == bid for e in own["moves"])  # its own seat sees what it bid
    assert all(words not in text for text in seen)
    assert all(json.dumps(bid) not in text and json.dumps(bid, separators=(",", ":")) not in text
               for text in seen)
    assert "a sealed move" in seen[0]
