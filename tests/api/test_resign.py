"""A remote seat can resign: it ranks last and the match still ends (issue 12: a remote seat
whose player walked away kept the match active forever)."""

from __future__ import annotations

from tests.api.helpers import auth, create, wait_until


def test_a_resigned_seat_ranks_last_and_the_match_ends(client):
    body = create(client, seats=("remote", "remote", "remote"), options={"cards": 4})
    match_id, tokens = body["id"], body["tokens"]
    r = client.post(f"/v1/matches/{match_id}/resign", headers=auth(tokens["1"]))
    assert r.status_code == 200, r.json
    again = client.post(f"/v1/matches/{match_id}/resign", headers=auth(tokens["1"]))
    assert again.status_code == 200 and again.json["version"] == r.json["version"]
    for seat in ("0", "2"):
        client.post(f"/v1/matches/{match_id}/resign", headers=auth(tokens[seat]))
    wait_until(lambda: client.get(f"/v1/matches/{match_id}").json["status"] == "over")
    result = client.get(f"/v1/matches/{match_id}").json["result"]
    assert result["failures"]["1"]["code"] == "seat.resigned"
    assert result["ranks"][1] == max(result["ranks"])
    after = client.post(f"/v1/matches/{match_id}/resign", headers=auth(tokens["0"]))
    assert after.status_code == 409 and after.json["code"] == "match.over"


def test_resigning_needs_the_seats_token(client):
    match_id = create(client)["id"]
    assert client.post(f"/v1/matches/{match_id}/resign").status_code == 401
    r = client.post(f"/v1/matches/{match_id}/resign", headers=auth("not-a-token"))
    assert r.status_code == 403
