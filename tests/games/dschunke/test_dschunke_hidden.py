"""Hidden information: what views show, and that redetermine re-deals exactly the hidden parts."""

from __future__ import annotations

import json

import pytest
from dschunke_helpers import GAME, at_poker, bid, hidden_card, new, phase2, play, round_start

from referee.core import Rng

DRAWS = 40


def _draws(state, viewer):
    return [GAME.redetermine(state, viewer, Rng(7, "test", i)) for i in range(DRAWS)]


def _same_view(state, other, viewer):
    return json.dumps(GAME.view(state, viewer), sort_keys=True) == \
        json.dumps(GAME.view(other, viewer), sort_keys=True)


@pytest.mark.parametrize("viewer", [0, 1, None])
def test_redetermine_redeals_other_hands_keeps_own_and_sizes(viewer):
    state = phase2(4, 3)
    others = [s for s in range(4) if s != viewer]
    changed = False
    for other in _draws(state, viewer):
        assert _same_view(state, other, viewer)
        if viewer is not None:
            assert other["seats"][viewer]["hand"] == state["seats"][viewer]["hand"]
        for s in others:
            assert sum(other["seats"][s]["hand"].values()) == \
                sum(state["seats"][s]["hand"].values())
            changed |= other["seats"][s]["hand"] != state["seats"][s]["hand"]
        assert other["supply"] == state["supply"]  # junk piles are visible in phase 2
    assert changed


def test_redetermine_redeals_junk_piles_only_in_phases_three_and_four():
    state = at_poker(3, 0, {0: {"white": 2}, 1: {"brown": 3, "orange": 2}, 2: {"lilac": 4}})
    piles = set()
    for other in _draws(state, 0):
        assert _same_view(state, other, 0)
        piles.add(json.dumps(other["supply"], sort_keys=True))
        assert all((other["supply"][g] > 0) == (state["supply"][g] > 0) for g in other["supply"])
    assert len(piles) > 1


def test_redetermine_keeps_empty_piles_empty():
    state = at_poker(3, 0, {0: {"white": 2}, 1: {"brown": 3, "white": 14}, 2: {"white": 2}})
    assert state["supply"]["white"] == 0
    for other in _draws(state, 0):
        assert other["supply"]["white"] == 0 and _same_view(state, other, 0)


def test_redetermine_repicks_other_sealed_bids_keeps_own():
    state = at_poker(3, 0, {0: {"white": 2}, 1: {"brown": 3, "orange": 2}, 2: {"lilac": 4}})
    state = bid(state, 0, {"white": 1})
    state = bid(state, 1, {"orange": 2})
    stakes = set()
    for other in _draws(state, 0):
        assert other["poker"]["bids"][0]["stake"] == {"white": 1}
        assert other["poker"]["bids"][1]["steps"] == 4
        stakes.add(json.dumps(other["poker"]["bids"][1]["stake"], sort_keys=True))
        assert _same_view(state, other, 0)
    assert len(stakes) > 1


def test_redetermine_keeps_cards_seen_returned_from_an_invalid_bid():
    state = at_poker(3, 0, {0: {"white": 2}, 1: {"brown": 3, "orange": 2}, 2: {"white": 1}})
    state = bid(state, 0, {"white": 1})
    state = bid(state, 1, {"brown": 1, "orange": 1})  # two colours: returned to seat 1
    state = bid(state, 2, {"white": 1})
    assert state["poker"]["round"] == 2
    for other in _draws(state, 0):
        hand = other["seats"][1]["hand"]
        stake = (other["poker"]["bids"][1] or {}).get("stake", {})
        assert hand["brown"] + stake.get("brown", 0) >= 1
        assert hand["orange"] + stake.get("orange", 0) >= 1


def test_redetermine_reshuffles_market_deck_and_unseen_stacks():
    state = new(3, 2)
    decks, stacks = set(), set()
    for other in _draws(state, 0):
        decks.add(tuple(other["market"]["deck"]))
        stacks.add(json.dumps(other["stacks"]))
        assert sorted(other["market"]["deck"]) == sorted(state["market"]["deck"])
    assert len(decks) > 1 and len(stacks) > 1


def _looked(state):
    hidden_card(state, 0, state["stacks"][1][0], rnd=1)  # seat 0 looked through stack 1


def test_redetermine_keeps_a_looked_through_stack_as_seen():
    state = round_start(3, 2, prepare=_looked)
    seen = GAME.view(state, 0)["stacks"][1]["seen"]
    assert seen["cards"] == sorted(state["stacks"][1]) and seen["round"] == 1
    for other in _draws(state, 0):
        assert other["stacks"][1] == state["stacks"][1]
    assert any(o["stacks"][1] != state["stacks"][1] for o in _draws(state, 2))


def test_seen_stack_stays_as_of_then_after_another_seat_takes_from_it():
    def prepare(state):
        _looked(state)
        kind = next(c for c in state["stacks"][1] if c not in ("resupply", "tie_breaker"))
        hidden_card(state, 2, kind, rnd=1)  # later, seat 2 took a hidden card from stack 1
    state = round_start(3, 2, prepare=prepare)
    seen = GAME.view(state, 0)["stacks"][1]["seen"]["cards"]
    assert len(seen) == len(state["stacks"][1]) + 1
    taken = set()
    for other in _draws(state, 0):
        cards = other["stacks"][1] + [r["card"] for r in other["seats"][2]["cards"]]
        assert sorted(cards) == seen  # the set seat 0 saw, only not who has which
        taken.add(other["seats"][2]["cards"][0]["card"])
        assert _same_view(state, other, 0)
    assert len(taken) > 1 or len(set(seen)) == 1


def test_redetermine_resplits_others_cash_above_the_announced_totals():
    def prepare(state):
        for seat, cash in enumerate([4, 9, 2]):
            state["seats"][seat]["cash"] = cash
    state = round_start(3, 5, prepare=prepare)  # Y event announces 4, 9, 2
    for seat, gain in enumerate([1, 5, 3]):
        state["seats"][seat]["cash"] += gain
    cash = set()
    for other in _draws(state, 0):
        assert other["seats"][0]["cash"] == 5
        assert other["seats"][1]["cash"] >= 9 and other["seats"][2]["cash"] >= 2
        assert other["seats"][1]["cash"] + other["seats"][2]["cash"] == 14 + 5
        cash.add(other["seats"][1]["cash"])
    assert len(cash) > 1


def test_setup_variant_face_down_merchants_are_unknown_to_all():
    state = new(3, 1, setup_variant=True)
    for junk in ("orange", "white", "grey"):
        state = play(state, state["start"], {"type": "place_merchant", "junk": junk})
    identities = {json.dumps(o["merchants"], sort_keys=True) for o in _draws(state, 0)}
    assert len(identities) > 1


def test_final_view_reveals_everything():
    state = new(3, 1)
    state["round"] = 10
    from referee.games.dschunke import flow
    flow.end_round(state)
    view = GAME.view(state, 1)
    assert all(s["hand"] is not None and s["cash"] is not None for s in view["seats"])
    assert all(st["cards"] is not None for st in view["stacks"])
    assert "final" in view
