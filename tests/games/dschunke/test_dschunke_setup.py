"""Set-up: the FOUND set-up for 3 and 4 players, the fan 2-player variant, the set-up variant."""

from __future__ import annotations

import pytest
from dschunke_helpers import GAME, GOODS, JUNKS, decision, moves, new, play, rejects

from referee.core import InvalidPlayers, engine
from referee.games.dschunke.board import strip_count, strips_of
from referee.games.dschunke.data import MERCHANTS

START_STRIPS = {
    3: {"orange": ["red", "green"], "lilac": ["blue", "green"], "brown": ["red", "blue", "green"],
        "white": ["red", "blue"], "grey": ["red", "blue", "green"]},
    4: {"orange": ["red", "yellow"], "lilac": ["blue", "green"],
        "brown": ["red", "yellow", "green"], "white": ["yellow", "blue"],
        "grey": ["red", "blue", "green"]},
}


@pytest.mark.parametrize("players, colours, per_type, on_junk", [
    pytest.param(3, ["red", "blue", "green"], 6, 12, id="3p: 6 of each type dealt, 12 on junks"),
    pytest.param(4, ["red", "yellow", "blue", "green"], 8, 10, id="4p: 8 dealt, 10 on junks"),
])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_setup_deals_found_hands_money_and_resupply(players, colours, per_type, on_junk, seed):
    state = new(players, seed)
    assert state["colours"] == colours
    hands = [s["hand"] for s in state["seats"]]
    assert all(sum(h.values()) == 8 for h in hands)
    assert all(sum(h[g] for h in hands) == per_type for g in GOODS)
    assert state["supply"] == {g: on_junk for g in GOODS} and state["store"] is None
    assert all(s["cash"] == 0 and s["resupply"] == 2 for s in state["seats"])
    assert [sorted(s) for s in state["stacks"]] == state["stacks"]
    assert sorted(len(s) for s in state["stacks"]) == [7, 7, 8, 8]


@pytest.mark.parametrize("players", [3, 4])
def test_setup_lays_found_cargo_strips_and_merchants(players):
    state = new(players, 5)
    for junk, colours in START_STRIPS[players].items():
        layers = state["junks"][junk]["layers"]
        assert len(layers) == 1
        assert sorted(layers[0]) == sorted(state["colours"].index(c) for c in colours)
    per_seat = 4 if players == 3 else 3
    assert all(s["strips"] == 20 - per_seat for s in state["seats"])
    assert {m: f["junk"] for m, f in state["merchants"].items()} == \
        {"load": "lilac", "take": "brown", "sell": "grey"}


@pytest.mark.parametrize("players, tracks", [(3, ["lower"]), (4, ["lower", "upper"])])
def test_setup_assistants_lower_track_only_with_three(players, tracks):
    state = new(players)
    assert sorted(state["assistants"]) == tracks
    assert GAME.view(state, 0)["assistants"]["lower"]["space"] == 0


def test_setup_turns_the_first_market_card_and_asks_the_start_player():
    state = new(3, 9)
    assert state["market"]["card"] is not None and len(state["market"]["deck"]) == 9
    assert decision(state).seat == state["start"] and decision(state).kind == "action"


@pytest.mark.parametrize("players, options", [
    pytest.param(2, {}, id="2 players need the fan variant"),
    pytest.param(3, {"two_player_variant": True}, id="the fan variant is for 2 only"),
    pytest.param(5, {}, id="5 players"),
])
def test_setup_player_counts_and_two_player_option(players, options):
    with pytest.raises(InvalidPlayers):
        engine.start(GAME, players, options, 0)


def test_two_player_variant_setup_store_and_strips():
    state = new(2, 3, two_player_variant=True)
    p1, p2 = state["start"], 1 - state["start"]
    table = {"grey": (1, 2), "orange": (1, 0), "lilac": (1, 1), "brown": (2, 1), "white": (0, 1)}
    for junk, (n1, n2) in table.items():
        layers = state["junks"][junk]["layers"]
        assert (strips_of(layers, p1), strips_of(layers, p2)) == (n1, n2)
    assert sum(state["store"].values()) == 8
    assert all(sum(s["hand"].values()) == 8 for s in state["seats"])
    assert state["supply"] == {g: 12 for g in GOODS}
    assert state["assistants"] == {}


@pytest.mark.parametrize("players, passed", [(3, 3), (4, 3)])
def test_setup_variant_merchants_face_down_then_strips_of_right_neighbour(players, passed):
    state = new(players, 4, setup_variant=True)
    start = state["start"]
    assert decision(state).kind == "place_merchant" and decision(state).seat == start
    for junk in ("orange", "white", "grey"):
        view = GAME.view(state, start)["merchants"]
        assert "load" not in view  # identities stay hidden until the strips are placed
        state = play(state, start, {"type": "place_merchant", "junk": junk})
    assert GAME.view(state, 0)["merchants"] == {"face_down": ["grey", "orange", "white"]}
    placed = 0
    while decision(state).kind == "place_strip":
        seat = decision(state).seat
        assert seat == (start + placed) % players
        junk = moves(state, seat)[0]["junk"]
        before = strips_of(state["junks"][junk]["layers"], (seat - 1) % players)
        state = play(state, seat, {"type": "place_strip", "junk": junk})
        assert strips_of(state["junks"][junk]["layers"], (seat - 1) % players) == before + 1
        placed += 1
    assert placed == passed * players
    assert all(strip_count(state["junks"][j]["layers"]) <= 3 for j in JUNKS)
    assert all(s["strips"] == 20 - passed for s in state["seats"])
    merchants = GAME.view(state, 0)["merchants"]
    assert sorted(merchants) == sorted(MERCHANTS)
    assert sorted(m["junk"] for m in merchants.values()) == ["grey", "orange", "white"]


def test_setup_variant_at_most_three_strips_per_junk():
    state = new(3, 4, setup_variant=True)
    start = state["start"]
    for junk in ("orange", "white", "grey"):
        state = play(state, start, {"type": "place_merchant", "junk": junk})
    rejects(state, start, {"type": "place_merchant", "junk": "lilac"}, "move.unexpected")
    for _ in range(3):
        seat = decision(state).seat
        state = play(state, seat, {"type": "place_strip", "junk": "brown"})
    seat = decision(state).seat
    assert {"type": "place_strip", "junk": "brown"} not in moves(state, seat)
    rejects(state, seat, {"type": "place_strip", "junk": "brown"}, "move.illegal.place_strip")


def test_setup_variant_two_players_never_three_of_one_player_on_a_junk():
    state = new(2, 1, two_player_variant=True, setup_variant=True)
    start = state["start"]
    for junk in ("orange", "white", "grey"):
        state = play(state, start, {"type": "place_merchant", "junk": junk})
    assert decision(state).prompt["held"] == 5
    state = play(state, start, {"type": "place_strip", "junk": "lilac"})
    other = decision(state).seat
    state = play(state, other, {"type": "place_strip", "junk": "brown"})
    state = play(state, start, {"type": "place_strip", "junk": "lilac"})
    owner = 1 - start
    assert strips_of(state["junks"]["lilac"]["layers"], owner) == 2
    assert {"type": "place_strip", "junk": "lilac"} in moves(state, other)  # other colour
    state = play(state, other, {"type": "place_strip", "junk": "white"})
    assert {"type": "place_strip", "junk": "lilac"} not in moves(state, start)
