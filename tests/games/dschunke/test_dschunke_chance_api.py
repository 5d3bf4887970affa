"""Dschunke through POST /v1/games/dschunke/check with chance from outside (issue 16)."""

from __future__ import annotations

import json

from referee.core import chance, engine
from referee.core import chancelog
from referee.games.dschunke import GAME
from tests.games.dschunke.dschunke_helpers import at_poker
from tests.support.replays import REPLAY_DIR

URL = "/v1/games/dschunke/check"


def as_json(log):
    """A (seat, move) log as the endpoint takes it: the chance seat as "chance"."""
    return [{"seat": chance.seat_to_json(seat), "move": move} for seat, move in log]


def test_a_stored_internal_match_converted_checks_to_the_same_outcome_and_view(client):
    """The 4-player golden replay, its chance drawn as moves, checked with chance external."""
    data = json.loads((REPLAY_DIR / "dschunke" / "4p-seed12.json").read_text())
    moves = [(m["seat"], m["move"]) for m in data["moves"]]
    log = chancelog.external_log(GAME, data["players"], data["options"], data["seed"], moves)
    r = client.post(URL, json={"players": data["players"], "options": data["options"],
                               "chance": "external", "moves": as_json(log), "view_seat": -1})
    body = r.json
    assert r.status_code == 200 and body["legal"] and body["over"], body.get("error")
    assert body["applied"] == len(log)
    assert body["outcome"]["scores"] == data["result"]["scores"]
    final = engine.replay(GAME, data["players"], data["options"], data["seed"], moves)
    assert body["view"] == GAME.view(final, None)


def round_nine_poker() -> dict:
    """A hand-made position: round 9's poker, market cards 3 and 7 left, seat 0 holding goods."""
    state = json.loads(json.dumps(at_poker(3, card=5, hands={0: {"white": 2}}, rnd=9)))
    seen = [c for c in range(10) if c not in (3, 7, 5)] + [5]
    state["market"].update(deck=[3, 7], seen=seen, card=5)
    return state


BIDS = [{"seat": 0, "move": {"type": "bid", "goods": g, "count": n}}
        for g, n in (("white", 2), ("brown", 0), ("lilac", 0), ("orange", 0))]


def test_moves_are_checked_from_a_hand_made_position_and_wait_for_the_dealer(client):
    """The last bid ends round 9: round 10's market card is the chance seat's, 3 or 7."""
    r = client.post(URL, json={"players": 3, "chance": "external", "state": round_nine_poker(),
                               "moves": BIDS})
    body = r.json
    assert r.status_code == 200 and body["legal"] and not body["over"], body
    (pending,) = body["pending"]
    assert (pending["seat"], pending["kind"]) == ("chance", "chance:market_card")
    # the market cards by their ids (what is printed on them; rules version 3)
    assert pending["prompt"]["outcomes"] == [{"outcome": "W2B1L4OS", "probability": 0.5},
                                             {"outcome": "W1B4L2OS", "probability": 0.5}]
    dealt = BIDS + [{"seat": "chance", "move": {"type": "chance", "outcome": "W1B4L2OS"}}]
    body = client.post(URL, json={"players": 3, "chance": "external", "view_seat": 0,
                                  "state": round_nine_poker(), "moves": dealt}).json
    assert body["legal"] and body["applied"] == 5
    assert body["view"]["round"] == 10 and body["view"]["market"]["deck_size"] == 1
    wrong = BIDS + [{"seat": "chance", "move": {"type": "chance", "outcome": 7}}]
    body = client.post(URL, json={"players": 3, "chance": "external",
                                  "state": round_nine_poker(), "moves": wrong}).json
    assert body["legal"] is False and body["error"]["code"] == chance.ILLEGAL_OUTCOME


def test_a_hand_made_position_with_a_bad_field_is_refused_with_its_path(client):
    """A market card both face down and played: state.invalid at $.market.deck."""
    state = round_nine_poker()
    state["market"]["deck"].append(5)
    r = client.post(URL, json={"players": 3, "chance": "external", "state": state})
    assert r.status_code == 422 and r.json["code"] == "state.invalid"
    assert r.json["details"]["path"] == "$.market.deck"
