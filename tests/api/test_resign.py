"""A remote seat can resign: it ranks last and the match still ends (issue 12: a remote seat
whose player walked away kept the match active forever)."""

from __future__ import annotations

from tests.conftest import organiser_client

from tests.api.helpers import auth, create, wait_until


def test_a_resigned_seat_ranks_last_and_the_match_ends(client):
    body = create(client, seats=("remote", "remote", "remote"), options={"cards": 4})
    match_id, tokens = body["id"], body["tokens"]
    r = client.post(f"/v1/matches/{match_id}/resign", headers=auth(tokens["1"]))
    assert r.status_code == 200, r.json
    prompt = client.get(f"/v1/matches/{match_id}/prompt", headers=auth(tokens["1"])).json
    assert prompt["must_act"] is False and prompt["legal_moves"] == []
    refused = client.post(f"/v1/matches/{match_id}/moves", json={"move": {"type": "keep"}},
                          headers=auth(tokens["1"]))
    assert refused.status_code == 409 and refused.json["code"] == "seat.forfeited"
    again = client.post(f"/v1/matches/{match_id}/resign", headers=auth(tokens["1"]))
    # harmless: no second forfeit (the referee may have played the seat's bid meanwhile,
    # which raises the version; the forfeit recorded below is the first one's)
    assert again.status_code == 200 and again.json["version"] >= r.json["version"]
    for seat in ("0", "2"):
        client.post(f"/v1/matches/{match_id}/resign", headers=auth(tokens[seat]))
    wait_until(lambda: client.get(f"/v1/matches/{match_id}").json["status"] == "over")
    result = client.get(f"/v1/matches/{match_id}").json["result"]
    assert result["failures"]["1"] == {"code": "seat.resigned",
                                       "version": r.json["version"] - 1}
    assert result["ranks"][1] == max(result["ranks"])
    after = client.post(f"/v1/matches/{match_id}/resign", headers=auth(tokens["0"]))
    assert after.status_code == 409 and after.json["code"] == "match.over"


def test_resigning_needs_the_seats_token(client):
    match_id = create(client)["id"]
    assert client.post(f"/v1/matches/{match_id}/resign").status_code == 401
    r = client.post(f"/v1/matches/{match_id}/resign", headers=auth("not-a-token"))
    assert r.status_code == 403


def test_a_remote_seat_that_lets_its_time_run_out_forfeits_on_time(app):
    """limits: remote_move_s; the janitor forfeits with seat.timeout and the match ends."""
    from referee.service.worker import expire_remote

    client = organiser_client(app)
    body = create(client, seats=("remote", "builtin:random"), remote_move_s=1)
    service = app.extensions["referee"]
    # the bot bids first (its worker thread): a commit landing while the janitor forfeits
    # makes it leave the seat to its next round, which this test does not run
    wait_until(lambda: service.store.live(body["id"]).version >= 1)
    assert expire_remote(service) == 0   # in time
    import time
    assert expire_remote(service, now=time.time() + 1.5) == 1
    wait_until(lambda: client.get(f"/v1/matches/{body['id']}").json["status"] == "over")
    result = client.get(f"/v1/matches/{body['id']}").json["result"]
    assert result["failures"]["0"]["code"] == "seat.timeout"
    assert service.store.remote_overdue(time.time() + 10 ** 6) == []


def test_a_match_that_reaches_its_move_cap_ends_adjudicated(client):
    """Every match ends: max_moves stops it with termination move_cap, ranked by the game's
    standing (a tie where the game gives none), and no further move lands."""
    body = create(client, seats=("remote", "remote"), max_moves=2)
    match_id, tokens = body["id"], body["tokens"]
    for seat in ("0", "1"):
        move = client.get(f"/v1/matches/{match_id}/prompt",
                          headers=auth(tokens[seat])).json["legal_moves"][0]
        r = client.post(f"/v1/matches/{match_id}/moves", json={"move": move},
                        headers=auth(tokens[seat]))
        assert r.status_code == 200, r.json
    match = client.get(f"/v1/matches/{match_id}").json
    assert match["status"] == "over" and match["result"]["termination"] == "move_cap"
    assert match["result"]["details"] == {"move_cap": 2, "adjudicated": "standing"}
    assert match["to_act"] == []
    prompt = client.get(f"/v1/matches/{match_id}/prompt", headers=auth(tokens["0"])).json
    assert prompt["legal_moves"] == []
