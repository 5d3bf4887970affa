"""The fan 2-player variant: general store on the grey junk, merchants moved after use."""

from __future__ import annotations

from dschunke_helpers import GAME, decision, layers, moves, new, play, rejects, set_hand

from referee.games.dschunke.common import refill_store


def _two(seed=0):
    state = new(2, seed, two_player_variant=True)
    state["start"] = 0
    assert decision(state).kind == "action" and decision(state).seat == 0
    return state


def test_two_player_no_assistant_actions():
    state = _two()
    assert all(m["type"] == "merchant" for m in moves(state, 0))
    rejects(state, 0, {"type": "assistant", "assistant": "lower", "junk": "white"},
            "move.illegal.assistant")


def test_two_player_used_merchant_moves_face_down_to_a_free_junk():
    state = _two()
    state = play(state, 0, {"type": "merchant", "merchant": "sell"})  # sells on grey
    d = decision(state)
    assert d.kind == "relocate_merchant" and d.seat == 0
    assert moves(state, 0) == [{"type": "relocate_merchant", "junk": "orange"},
                               {"type": "relocate_merchant", "junk": "white"}]
    rejects(state, 0, {"type": "relocate_merchant", "junk": "lilac"},
            "move.illegal.relocate_merchant")
    state = play(state, 0, {"type": "relocate_merchant", "junk": "white"})
    assert state["merchants"]["sell"] == {"junk": "white", "used": True}
    assert decision(state).seat == 1
    assert {"type": "merchant", "merchant": "sell"} not in moves(state, 1)


def test_two_player_take_on_grey_may_use_the_general_store():
    state = _two()
    set_hand(state, 0, {})
    state["merchants"]["take"]["junk"], state["merchants"]["sell"]["junk"] = "grey", "brown"
    layers(state, "grey", [[0]])
    state = play(state, 0, {"type": "merchant", "merchant": "take"})
    sources = {(m["goods"], m["junk"]) for m in moves(state, 0)}
    assert ("white", "white") in sources
    assert {j for _, j in sources} >= {"grey"}  # the store lies on the grey junk
    goods = next(g for g, j in sources if j == "grey")
    store, supply = dict(state["store"]), dict(state["supply"])
    assert sum(store.values()) == 8
    state = play(state, 0, {"type": "take_goods", "goods": goods, "junk": "grey"})
    assert state["store"][goods] == store[goods] - 1 and state["supply"] == supply
    assert state["seats"][0]["hand"][goods] == 1


def test_two_player_empty_store_refills_three_of_each_type_from_the_junks():
    state = _two()
    for goods in state["store"]:
        state["supply"][goods] += state["store"][goods]
        state["store"][goods] = 0
    supply = dict(state["supply"])
    refill_store(state)
    assert state["store"] == {g: 3 for g in state["store"]}
    assert all(state["supply"][g] == supply[g] - 3 for g in supply)
    assert GAME.view(state, 0)["junks"]["grey"]["goods"] == state["store"]
