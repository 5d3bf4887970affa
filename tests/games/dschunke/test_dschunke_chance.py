"""Dschunke with external chance (issue 16): every random event is a move of the chance seat.

Internal matches convert to external logs that replay to the very same match; set-up draws
come with their odds; hand-made positions given as states play on; random external playouts
(chance's moves random too) finish for every player count and set-up.
"""

from __future__ import annotations

import json
from collections import Counter
from math import comb

import pytest

from referee.core import InvalidState, Rng, chance, engine, suspend
from referee.core import chancelog
from referee.core.chance import CHANCE, EXTERNAL, NOBODY
from referee.core.playout import random_playout
from referee.games.dschunke import GAME
from referee.games.dschunke.data import MARKET, market_id
from tests.games.dschunke.dschunke_helpers import at_poker, new, play, set_hand
from tests.support.replays import REPLAY_DIR, digest

REPLAYS = sorted((REPLAY_DIR / "dschunke").glob("*.json"))
CONFIGS = [(3, {}), (4, {}), (2, {"two_player_variant": True}),
           (2, {"two_player_variant": True, "setup_variant": True}),
           (3, {"setup_variant": True}), (4, {"setup_variant": True}),
           (3, {"load_single_last_strip": False}), (4, {"s_tie_settles": False})]
IDS = [f"{p}p-{'-'.join(o) or 'defaults'}" for p, o in CONFIGS]


def outcome_move(value) -> dict:
    """The chance seat's move supplying `value`."""
    return chance.chance_move(value)


def supply(state: dict, *outcomes) -> dict:
    """Play the chance seat's moves, in order, each while chance is what is pending."""
    for value in outcomes:
        assert [d.seat for d in GAME.pending(state)] == [CHANCE]
        state, _ = engine.play(GAME, state, 0, CHANCE, outcome_move(value))
    return state


def external(state: dict) -> dict:
    """A hand-made internal position as an external-chance state (decks unordered)."""
    out = json.loads(json.dumps(state))
    out["market"]["deck"].sort()
    out["chance"] = suspend.idle()
    return GAME.from_dict(out)  # validated like any state given from outside


def odds(state: dict) -> dict:
    """The pending chance decision's outcomes (canonical JSON) with their probabilities."""
    return {chance.canonical(m["outcome"]): p for m, p in GAME.chance_outcomes(state)}


# -- internal matches, converted ------------------------------------------------------------

@pytest.mark.parametrize("path", REPLAYS, ids=[p.stem for p in REPLAYS])
def test_golden_replays_convert_to_external_logs_that_reach_the_same_final_state(path):
    """The stored match, its chance drawn as moves, ends in the stored state (bar the seed)."""
    data = json.loads(path.read_text())
    moves = [(m["seat"], m["move"]) for m in data["moves"]]
    log = chancelog.external_log(GAME, data["players"], data["options"], data["seed"], moves)
    assert len(log) > len(moves) and log[0][0] == CHANCE
    state = engine.replay(GAME, data["players"], data["options"], 0, log, chance=EXTERNAL)
    assert state.pop("chance") == suspend.idle()
    outcome = GAME.outcome(state)
    assert [list(outcome.scores), list(outcome.ranks)] == [data["result"]["scores"],
                                                           data["result"]["ranks"]]
    assert digest(GAME, {**state, "seed": data["seed"]}) == data["result"]["digest"]


@pytest.mark.parametrize("players, options", CONFIGS[:4], ids=IDS[:4])
def test_a_converted_match_shows_every_seat_the_same_views_move_by_move(players, options):
    """Internal and external replays agree after every player move and its chance moves."""
    _, _, moves = random_playout(GAME, players, options, 21)
    log = chancelog.external_log(GAME, players, options, 21, moves)
    _, inner = engine.start(GAME, players, options, 21)
    _, outer = engine.start(GAME, players, options, 0, chance=EXTERNAL)
    turn, version = iter(moves), 0
    for at, (seat, move) in enumerate(log):
        outer, _ = engine.play(GAME, outer, at, seat, move)
        if seat != CHANCE:
            inner, _ = engine.play(GAME, inner, version, *next(turn))
            version += 1
        if at + 1 < len(log) and log[at + 1][0] == CHANCE:
            continue  # this move's draws are still being supplied
        for viewer in (None, *range(players)):
            assert GAME.view(outer, viewer) == GAME.view(inner, viewer), (at, viewer)


def test_each_event_has_its_owner_hands_to_their_seat_stacks_to_nobody():
    """Start player and market cards are public, a hand its seat's, stack cards nobody's."""
    with chance.tracing() as events:
        engine.start(GAME, 4, {}, 5)
    owners = {}
    for event in events:
        owners.setdefault(event.kind, []).append(event.owner)
    assert owners["start_player"] == [None] and owners["market_card"] == [None]
    assert owners["goods_hand"] == [0, 1, 2]  # the fourth hand is what is left: forced
    assert set(owners["special_card"]) == {NOBODY} and 20 < len(owners["special_card"]) <= 30


# -- the set-up's draws, with their odds --------------------------------------------------------

def test_the_external_setup_asks_start_player_then_hands_then_stack_cards_with_odds():
    """3 players: start 1/3 each; hands by the hypergeometric law; cards by copies left."""
    _, state = engine.start(GAME, 3, {}, 0, chance=EXTERNAL)
    (decision,) = GAME.pending(state)
    assert decision.kind == "chance:start_player" and decision.prompt["owner"] is None
    assert odds(state) == {"0": 1 / 3, "1": 1 / 3, "2": 1 / 3}
    assert GAME.view(state, None) is None and GAME.view(state, 0) is None
    state = supply(state, 2)
    (decision,) = GAME.pending(state)
    assert decision.kind == "chance:goods_hand" and decision.prompt["owner"] == 0
    law = odds(state)  # 6 of each type, 8 dealt: every split with no type above 6
    assert len(law) == 165 - 16 and sum(law.values()) == pytest.approx(1)
    even = {"white": 2, "brown": 2, "lilac": 2, "orange": 2}
    assert law[chance.canonical(even)] == pytest.approx(comb(6, 2) ** 4 / comb(24, 8))
    state = supply(state, {"white": 6, "brown": 2, "lilac": 0, "orange": 0})
    assert GAME.pending(state)[0].prompt["owner"] == 1
    assert all(json.loads(o)["white"] == 0 for o in odds(state))  # no white card is left
    state = supply(state, {"white": 0, "brown": 4, "lilac": 4, "orange": 0})
    (decision,) = GAME.pending(state)
    assert decision.kind == "chance:special_card" and decision.prompt["owner"] == NOBODY
    assert odds(state)['"resupply"'] == pytest.approx(4 / 30)
    while GAME.pending(state)[0].seat == CHANCE:  # the rest of the stacks, then round 1's card
        state = supply(state, GAME.legal_moves(state, CHANCE)[0]["outcome"])
    assert state["start"] == 2 and state["market"]["card"] == 0
    assert [s["hand"] for s in state["seats"]] == [
        {"white": 6, "brown": 2, "lilac": 0, "orange": 0},
        {"white": 0, "brown": 4, "lilac": 4, "orange": 0},
        {"white": 0, "brown": 0, "lilac": 2, "orange": 6}]  # the rest: not asked
    assert state["market"]["deck"] == list(range(1, len(MARKET)))  # undrawn cards, sorted
    assert GAME.view(state, 1)["seats"][0]["hand"] is None  # a dealt hand stays hidden


def test_an_impossible_outcome_is_refused_with_the_chance_code():
    """A fourth seat as start player, or a hand of 9 cards: move.illegal.chance.outcome."""
    _, state = engine.start(GAME, 3, {}, 0, chance=EXTERNAL)
    for bad in (3, "1"):
        with pytest.raises(Exception) as err:
            engine.play(GAME, state, 0, CHANCE, outcome_move(bad))
        assert err.value.code == chance.ILLEGAL_OUTCOME
    state = supply(state, 0)
    with pytest.raises(Exception) as err:
        engine.play(GAME, state, 0, CHANCE, outcome_move(
            {"white": 3, "brown": 2, "lilac": 2, "orange": 2}))
    assert err.value.code == chance.ILLEGAL_OUTCOME


# -- hand-made positions given as states -------------------------------------------------------

def _round_nine_poker() -> dict:
    """Round 9's poker, market cards 3 and 7 still face down, only seat 0 holds goods."""
    state = at_poker(3, card=5, hands={0: {"white": 2}}, rnd=9)
    seen = [c for c in range(10) if c not in (3, 7, 5)] + [5]
    state["market"].update(deck=[7, 3], seen=seen, card=5)
    return state


def test_a_hand_made_poker_position_draws_round_tens_market_card_from_the_two_left():
    """The last bid ends round 9's poker; it waits for the market card: 3 or 7, 1/2 each."""
    state = external(_round_nine_poker())
    for goods, count in (("white", 2), ("brown", 0), ("lilac", 0)):
        state = play(state, 0, {"type": "bid", "goods": goods, "count": count})
    before = state
    state = play(before, 0, {"type": "bid", "goods": "orange", "count": 0})
    (decision,) = GAME.pending(state)
    assert (decision.seat, decision.kind, decision.prompt["owner"]) == (CHANCE,
                                                                        "chance:market_card", None)
    # rules version 3, issue 40: "Every chance event's outcome is documented and names the
    # thing drawn (a card's id, not its position in what is left)": cards 3 and 7 of the
    # market table are named by what is printed on them
    assert odds(state) == {'"W2B1L4OS"': 0.5, '"W1B4L2OS"': 0.5}
    assert (market_id(3), market_id(7)) == ("W2B1L4OS", "W1B4L2OS")
    assert GAME.view(state, 1) == GAME.view(before, 1)  # the bid waits: nothing shows yet
    with pytest.raises(Exception) as err:
        engine.play(GAME, state, 0, CHANCE, outcome_move(market_id(5)))
    assert err.value.code == chance.ILLEGAL_OUTCOME
    with pytest.raises(Exception) as err:   # the table index the outcome was before
        engine.play(GAME, state, 0, CHANCE, outcome_move(7))
    assert err.value.code == chance.ILLEGAL_OUTCOME
    state = supply(state, "W1B4L2OS")
    assert (state["round"], state["market"]["card"], state["market"]["deck"]) == (10, 7, [3])
    assert state["seats"][0]["cash"] == MARKET[5]["white"]  # round 9's poker was paid


def test_a_hand_made_setup_variant_position_reveals_the_merchants_when_turned_up():
    """The last set-up strip: which merchant stood on which junk is drawn then, 1/6 each."""
    state = json.loads(json.dumps(new(3, 0, setup_variant=True)))
    for junk in ("white", "orange", "grey"):
        state = engine.play(GAME, state, 0, state["start"], {"type": "place_merchant",
                                                               "junk": junk})[0]
    state = external(state)
    while GAME.pending(state)[0].seat != CHANCE:
        decision = GAME.pending(state)[0]
        state, _ = engine.play(GAME, state, 0, decision.seat,
                               GAME.legal_moves(state, decision.seat)[0])
    (decision,) = GAME.pending(state)
    assert decision.kind == "chance:merchants" and decision.prompt["owner"] is None
    assert decision.prompt["about"]["junks"] == ["white", "orange", "grey"]
    assert sorted(odds(state).values()) == [pytest.approx(1 / 6)] * 6
    state = supply(state, {"white": "sell", "orange": "load", "grey": "take"}, market_id(4))
    assert {m: f["junk"] for m, f in state["merchants"].items()} == {
        "sell": "white", "load": "orange", "take": "grey"}
    assert state["hidden_merchants"] is None and state["market"]["card"] == 4


def test_a_hand_made_state_with_a_bad_field_is_refused_with_its_path():
    """An external position is validated like any: the first bad field is named."""
    state = json.loads(json.dumps(new(3, 0)))
    set_hand(state, 0, {"white": 3})
    state["chance"] = suspend.idle()
    GAME.from_dict(state)
    state["market"]["deck"].append(state["market"]["card"])
    with pytest.raises(InvalidState) as err:
        GAME.from_dict(state)
    assert err.value.details["path"] == "$.market.deck"


# -- random external playouts ---------------------------------------------------------------

def external_playout(players: int, options: dict, seed: int, check_every: int):
    """Random legal moves, chance's included, to the end; hidden parts checked on the way.

    Returns the final state and how many times each chance event was asked."""
    rng = Rng(seed, "external-playout")
    _, state = engine.start(GAME, players, options, 0, chance=EXTERNAL)
    asked = Counter()
    for version in range(5000):
        decisions = GAME.pending(state)
        if not decisions:
            return state, asked
        decision = rng.choice(decisions)
        moves = GAME.legal_moves(state, decision.seat)
        if decision.seat == CHANCE:
            asked[decision.kind.split(":")[1]] += 1
            assert sum(p for _, p in GAME.chance_outcomes(state)) == pytest.approx(1)
        if version % check_every == 0:
            _check_hidden(state, players, rng)
        state, _ = engine.play(GAME, state, version, decision.seat, rng.choice(moves))
    raise AssertionError("no end after 5000 moves")


def _check_hidden(state: dict, players: int, rng: Rng) -> None:
    """The state round-trips; re-dealing what a viewer cannot see changes none of its views."""
    data = json.loads(json.dumps(GAME.to_dict(state)))
    assert GAME.to_dict(GAME.from_dict(data)) == state
    for viewer in (None, *range(players)):
        other = GAME.redetermine(state, viewer, rng)
        assert GAME.view(other, viewer) == GAME.view(state, viewer), viewer
        assert [d.seat for d in GAME.pending(other)] == [d.seat for d in GAME.pending(state)]


@pytest.mark.parametrize("players, options", CONFIGS, ids=IDS)
def test_random_external_playouts_finish(players, options):
    """Every set-up plays to its end with random outcomes, each event asked when it happens."""
    state, asked = external_playout(players, options, 3, check_every=25)
    assert GAME.outcome(state) is not None and state["market"]["deck"] == []
    assert GAME.to_dict(GAME.from_dict(json.loads(json.dumps(state)))) == state
    hands = players if players == 2 else players - 1  # 3-4 players: the last hand is the rest
    assert (asked["start_player"], asked["goods_hand"], asked["market_card"]) == (1, hands, 9)
    assert asked["merchants"] == int(options.get("setup_variant", False))
    assert 20 < asked["special_card"] <= 30


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("players, options", CONFIGS, ids=IDS)
def test_random_external_playouts_keep_hidden_parts_hidden_at_every_state(players, options,
                                                                          seed):
    """The conformance suite's no-leak check, at every state of external playouts."""
    state, _ = external_playout(players, options, seed, check_every=1)
    assert GAME.outcome(state) is not None
