"""Yinzi: Ming through the check endpoint with chance from outside (issue 16): a converted
internal match, and moves checked from a hand-made position given as a state."""

from __future__ import annotations

import pytest

from referee.core import chance
from referee.core import chancelog
from referee.core.playout import random_playout
from referee.games.yinzi_ming import data, setup
from tests.games.yinzi_ming.yinzi_helpers import GAME

URL = "/v1/games/yinzi-ming/check"


def as_json(log) -> list[dict]:
    """A (seat, move) log as the endpoint takes it: the chance seat written "chance"."""
    return [{"seat": chance.seat_to_json(seat), "move": move} for seat, move in log]


@pytest.mark.parametrize("players, seed", [(2, 31), (4, 32)])
def test_an_internal_match_converted_checks_to_the_same_outcome(client, players, seed):
    """Internal chance, its log converted, checked with chance external: the same outcome and
    the same spectator's view at the end."""
    options, final, log = random_playout(GAME, players, {}, seed)
    converted = chancelog.external_log(GAME, players, options, seed, log)
    r = client.post(URL, json={"players": players, "options": options, "chance": "external",
                               "moves": as_json(converted), "view_seat": -1})
    body = r.json
    assert r.status_code == 200 and body["legal"] and body["over"], body.get("error")
    assert body["applied"] == len(converted)
    assert body["outcome"] == GAME.outcome(final).to_dict()
    assert body["view"] == GAME.view(final, None)


def hand_made() -> dict:
    """A position no seed gives, as plain state: round 1's last Regulation step of 2 players,
    seat 1 to pay; the Market deck used up (4 discarded), seat 0's cards 6-11 still to come."""
    markets = dict(zip(data.PROVINCES, ("M1", "M2", "M3", "M4")))
    seats = [{**setup.new_seat(list(range(6, len(data.CARDS)))), "gone": [0, 1, 2, 3, 4, 5]}
             for _ in range(2)]
    crops, shops, ships = sorted(data.CROP_TILES), sorted(data.WORKSHOP_TILES), sorted(data.SHIPS)
    slots = len(data.SLOTS)
    return {
        "players": 2, "options": GAME.spec.resolve_options({}), "seed": 0, "round": 1,
        "phase": "regulation", "stage": "step", "order": [0, 1], "queue": [1], "active": 1,
        "turn_no": 12, "dial": 3, "roll": 4, "occupants": {}, "tiles": {}, "covered": {},
        "admin": {b: None for b in data.BENEFIT_IDS},
        "trade_slots": {a: [] for a in data.TRADE_ACTIONS}, "seats": seats,
        "turn": {"seat": 1, "waived": False}, "final": None,
        "markets": {p: {"tile": t, "spaces": [None] * len(data.MARKETS[t]["spaces"])}
                    for p, t in markets.items()},
        "market_deck": [], "market_discard": ["M5", "M6", "M7", "M8"],
        "register": [{"tile": t, "merchant": None} for t in crops[:slots]],
        "crop_deck": crops[slots:], "crop_discard": [],
        "display": shops[:data.DISPLAY], "workshop_deck": shops[data.DISPLAY:], "workshops": {},
        "port": [{"ship": x, "slots": [None] * len(data.SHIPS[x]["goods"])}
                 for x in ships[:data.AT_PORT]],
        "ship_deck": ships[data.AT_PORT:], "ships_sailed": [],
    }


def _chance(*outcomes) -> list[dict]:
    return [{"seat": "chance", "move": chance.chance_move(o)} for o in outcomes]


def test_moves_are_checked_from_a_hand_made_position(client):
    """Seat 1 ends its step: Maintenance reshuffles all 8 Markets and draws 4, reveals 3 cards
    per seat, and round 2's die is rolled: every draw is entered as the dealer saw it."""
    moves = ([{"seat": 1, "move": {"type": "done"}}] + _chance("M8", "M1", "M5", "M2")
             + _chance(11, 6, 7, 8, 9, 10) + _chance(6))
    r = client.post(URL, json={"players": 2, "chance": "external", "state": hand_made(),
                               "moves": moves, "view_seat": -1})
    body = r.json
    assert r.status_code == 200 and body["legal"] and not body["over"], body.get("error")
    assert body["applied"] == len(moves)
    view = body["view"]
    assert (view["round"], view["exchange"]["last_roll"], view["exchange"]["space"]) == (2, 6, 4)
    assert [m["tile"] for m in view["markets"].values()] == ["M8", "M1", "M5", "M2"]
    assert [c["card"] for c in view["seats"][0]["cards"]] == [11, 6, 7]
    assert view["decks"]["market_deck"] == ["M3", "M4", "M6", "M7"]
    (pending,) = body["pending"]
    assert (pending["seat"], pending["kind"]) == (0, "merchant")


def test_a_drawn_card_cannot_come_out_again(client):
    """A Market tile already drawn this Maintenance: move.illegal.chance.outcome, with the
    tiles still possible listed in the pending chance decision."""
    moves = [{"seat": 1, "move": {"type": "done"}}] + _chance("M8", "M8")
    body = client.post(URL, json={"players": 2, "chance": "external", "state": hand_made(),
                                  "moves": moves}).json
    assert body["legal"] is False and body["error"]["index"] == 2
    assert body["error"]["code"] == chance.ILLEGAL_OUTCOME
    (pending,) = body["pending"]
    assert pending["kind"] == "chance:market_tile"
    assert [o["outcome"] for o in pending["prompt"]["outcomes"]] == [
        "M1", "M2", "M3", "M4", "M5", "M6", "M7"]


BAD = [
    (lambda s: s["crop_deck"].append("C01"), "$.crop_deck"),
    (lambda s: s["seats"][0]["deck"].remove(6), "$.seats[0].deck"),
    (lambda s: s.update(roll=7), "$.roll"),
]


@pytest.mark.parametrize("change, path", BAD, ids=[p for _, p in BAD])
def test_a_bad_position_is_refused_with_the_path_of_its_first_bad_field(client, change, path):
    """422 state.invalid problem details naming the field at fault."""
    state = hand_made()
    change(state)
    r = client.post(URL, json={"players": 2, "chance": "external", "state": state})
    assert r.status_code == 422 and r.json["code"] == "state.invalid"
    assert r.json["details"]["path"] == path
