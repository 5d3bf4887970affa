"""Build & Travel: building rules, journeys and Border Passes, bridges and the blocked gorge,
displacement (chains, guards, never over bridges), and the connected-route check."""

from __future__ import annotations

import pytest

from referee.games.yunnan import GAME
from referee.games.yunnan.data import GORGE_INDEX
from tests.games.yunnan.helpers import code_of, new, play, put, travel_turn


def step(a, b):
    return {"type": "step", "from": a, "to": b}


STOP = {"type": "stop"}
DONE = {"type": "done"}


def arrive(s, a, b):
    """One step from a to b, then end the journey there (unless it ended by itself)."""
    s = play(s, step(a, b))
    return play(s, STOP) if s["step"] == "journey" else s


def turn(players=3, seat=0, horse=4, passes=2, **options):
    """Seat `seat` to travel with its horse at `horse`; the other seats keep a market trader,
    so the flow stops at the next seat's turn after `done`."""
    s = travel_turn(new(players, **options), seat)
    s["horse"] = [horse] * players
    s["passes"][seat] = passes
    for p in range(players):
        if p != seat:
            put(s, p, {"market": 1})
    return s


@pytest.mark.parametrize("exit_costs, passes_left", [(False, 2), (True, 1)])
def test_leaving_the_market_for_yunnan(exit_costs, passes_left):
    s = put(turn(market_exit_costs_pass=exit_costs), 0, {"market": 2})
    assert {m["to"] for m in GAME.legal_moves(s, 0) if m["type"] == "step"} == {"yunnan"}
    s = play(s, step("market", "yunnan"))
    assert s["passes"][0] - s["passes_used"] == passes_left and s["step"] == "journey"


def test_border_passes_are_shared_among_traders():
    s = put(turn(passes=3), 0, {"market": 3, "sichuan": 1})
    s = play(s, step("market", "yunnan"))
    s = play(s, step("yunnan", "sichuan"))
    s = play(s, step("sichuan", "kang"))  # 2 passes used
    s = play(s, STOP)
    s = play(s, step("market", "yunnan"))
    s = play(s, step("yunnan", "sichuan"))  # the 3rd and last pass: the journey stops itself
    assert s["step"] == "travel" and s["passes_used"] == 3
    assert code_of(s, step("sichuan", "kang")) == "move.illegal.travel.step"
    s = play(s, step("market", "yunnan"))  # leaving the Market is free by default
    assert s["traders"][0][:3] == [1, 2, 1]
    assert s["actor"] == 1  # nothing left to do: the turn ended by itself


def test_only_provinces_the_horse_has_reached():
    s = put(turn(horse=1), 0, {"yunnan": 1})
    s = play(s, step("yunnan", "sichuan"))
    assert s["step"] == "travel"  # no further step: Kang is beyond the horse
    s = put(turn(horse=1), 0, {"sichuan": 1})
    assert code_of(s, step("sichuan", "kang")) == "move.illegal.travel.step"


def test_each_province_entered_once_per_journey():
    s = put(turn(passes=4), 0, {"sichuan": 1})
    s = play(s, step("sichuan", "kang"))
    moves = GAME.legal_moves(s, 0)
    assert step("kang", "sichuan") not in moves and step("kang", "tibet") in moves
    assert code_of(s, step("kang", "sichuan")) == "move.illegal.travel.step"


def test_a_trader_travels_once_per_turn():
    s = put(turn(passes=4), 0, {"yunnan": 1, "market": 1})
    s = arrive(s, "yunnan", "sichuan")
    assert code_of(s, step("sichuan", "kang")) == "move.illegal.travel.no_trader"


@pytest.mark.parametrize("bridge, blocked, reachable", [
    (True, False, True), (False, False, False), (True, True, False)],
    ids=["own_bridge", "no_bridge", "blocked_gorge"])
def test_bridges_and_the_blocked_gorge(bridge, blocked, reachable):
    s = put(turn(passes=2), 0, {"yunnan": 1})
    if bridge:
        s["bridges"][0] = [GORGE_INDEX["yunnan-kang"]]
    if blocked:
        s["blocker"] = GORGE_INDEX["yunnan-kang"]
    assert (step("yunnan", "kang") in GAME.legal_moves(s, 0)) is reachable


def test_other_players_bridges_are_not_used():
    s = put(turn(), 0, {"yunnan": 1})
    s["bridges"][1] = [GORGE_INDEX["yunnan-kang"]]
    assert step("yunnan", "kang") not in GAME.legal_moves(s, 0)


@pytest.mark.parametrize("structure, place, patch, code", [
    ("trading_post", "kang", lambda s: s["horse"].__setitem__(0, 1), "build.trading_post"),
    ("trading_post", "yunnan", lambda s: s["posts"][0].__setitem__(0, 1), "build.trading_post"),
    ("teahouse", "sichuan", lambda s: s["teahouses"].__setitem__(1, 2), "build.teahouse"),
    ("bridge", "yunnan-tibet", lambda s: s["horse"].__setitem__(0, 2), "build.bridge"),
    ("bridge", "kang-qinghai", lambda s: s.__setitem__("blocker", 3), "build.bridge"),
    ("bridge", "kang", lambda s: None, "build.bridge"),
    ("teahouse", "yunnan-kang", lambda s: None, "build.teahouse"),
], ids=["post_beyond_horse", "second_post_in_province", "teahouse_taken", "bridge_end_unreached",
        "bridge_blocked", "bridge_not_on_gorge", "teahouse_not_in_province"])
def test_building_rules(structure, place, patch, code):
    s = turn()
    s["stock"][0] = {"trading_post": 1, "bridge": 1, "teahouse": 1}
    patch(s)
    assert code_of(s, {"type": "build", "structure": structure, "place": place}) == \
        f"move.illegal.{code}"


def test_building_from_the_personal_supply():
    s = turn()
    s["stock"][0]["teahouse"] = 1
    s = play(s, {"type": "build", "structure": "teahouse", "place": "tibet"})
    assert s["teahouses"][3] == 0 and s["stock"][0]["teahouse"] == 0
    s2 = turn()
    s2["teahouses"][2] = 1  # another player's teahouse in Kang: one per province
    s2["stock"][0]["teahouse"] = 1
    move = {"type": "build", "structure": "teahouse", "place": "kang"}
    assert move not in GAME.legal_moves(s2, 0)
    assert code_of(turn(), {"type": "build", "structure": "bridge", "place": "yunnan-kang"}) == \
        "move.illegal.build.none_in_supply"


# ---- displacement ------------------------------------------------------------------------

def arrive_in_kang(influences, guards=None, **options):
    s = turn(passes=3, **options)
    s["influence"][:3] = influences
    put(s, 0, {"sichuan": 1, "yunnan": 1})
    put(s, 1, {"kang": 1})
    put(s, 2, {"kang": 2})
    if guards:
        s["guards"] = guards
    return arrive(s, "sichuan", "kang")


def test_displace_a_lower_influence_trader_down_the_road():
    s = arrive_in_kang([2, 1, 1])
    assert s["step"] == "displace"
    assert {m.get("owner") for m in GAME.legal_moves(s, 0)} == {1, 2, None}
    s = play(s, {"type": "displace", "owner": 2})
    assert s["traders"][2][1:3] == [1, 1] and s["step"] == "travel"


def test_no_displacement_of_equal_or_higher_influence():
    s = arrive_in_kang([1, 1, 2])
    assert s["step"] == "travel"
    s = arrive_in_kang([2, 1, 2])
    assert code_of(s, {"type": "displace", "owner": 2}) == "move.illegal.displace.target"


def test_displacement_never_goes_over_a_bridge():
    s = arrive_in_kang([2, 0, 0])
    s["bridges"][1] = [GORGE_INDEX["yunnan-kang"]]
    s = play(s, {"type": "displace", "owner": 1})
    assert s["traders"][1][1] == 1 and s["traders"][1][0] == 0  # Sichuan, not Yunnan


def test_displaced_from_yunnan_goes_to_the_market():
    s = turn()
    s["influence"][0] = 1
    put(s, 0, {"sichuan": 1})
    put(s, 1, {"yunnan": 1})
    s = arrive(s, "sichuan", "yunnan")
    market = s["market"][1]
    s = play(s, {"type": "displace", "owner": 1})
    assert s["traders"][1][0] == 0 and s["market"][1] == market + 1


def test_guards_protect_from_displacement():
    s = arrive_in_kang([2, 0, 0], guards=[None, 2, None])
    assert {m.get("owner") for m in GAME.legal_moves(s, 0)} == {2, None}


def test_displacement_chain_a_displaced_trader_is_displaced_again_by_another_trader():
    s = turn(passes=4)
    s["influence"][:3] = [2, 0, 0]
    put(s, 0, {"sichuan": 1, "yunnan": 1})
    put(s, 1, {"kang": 1, "sichuan": 1})
    s = arrive(s, "sichuan", "kang")
    s = play(s, {"type": "displace", "owner": 1})      # Kang -> Sichuan
    assert s["traders"][1][:3] == [0, 2, 0]
    s = arrive(s, "yunnan", "sichuan")
    s = play(s, {"type": "displace", "owner": 1})      # Sichuan -> Yunnan, by another trader
    assert s["traders"][1][:3] == [1, 1, 0]
    assert s["traders"][1][0] == 1  # the displaced trader displaced nobody in Yunnan


# ---- the connected route -----------------------------------------------------------------

@pytest.mark.parametrize("mine, post, bridge, isolated", [
    ({"sichuan": 1, "kang": 1}, None, None, {"sichuan": 1, "kang": 1}),
    ({"yunnan": 1, "kang": 1}, None, None, {"kang": 1}),
    ({"yunnan": 1, "sichuan": 1, "kang": 1}, None, None, {}),
    ({"kang": 1}, "sichuan", None, {"kang": 1}),  # no presence in Yunnan
    ({"yunnan": 1, "kang": 1}, "sichuan", None, {}),
    ({"yunnan": 1, "kang": 1}, None, "yunnan-kang", {}),
    ({"yunnan": 1, "qinghai": 1}, "sichuan", "sichuan-qinghai", {}),
], ids=["no_yunnan", "gap_sichuan", "gap_free", "post_but_no_yunnan", "post_fills_gap",
        "own_bridge", "bridge_from_a_higher_province"])
def test_connected_route_check_at_done(mine, post, bridge, isolated):
    s = put(turn(), 0, mine)
    if post:
        s["posts"][0][["yunnan", "sichuan", "kang", "tibet", "qinghai"].index(post)] = 1
    if bridge:
        s["bridges"][0] = [GORGE_INDEX[bridge]]
    s["teahouses"][1] = 0  # a teahouse never connects
    before = s["market"][0]
    s = play(s, DONE)
    assert s["market"][0] - before == sum(isolated.values())
    assert s["actor"] == 1


def test_isolated_by_others_later_stay_put():
    s = put(turn(), 0, {"yunnan": 1, "sichuan": 1})
    s = play(s, DONE)
    s["traders"][0][0] = 0  # e.g. displaced later in the round
    s["market"][0] += 1
    assert s["traders"][0][1] == 1
