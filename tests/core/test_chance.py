"""External chance in the core: draws, suspension and re-play in the kit, log conversion."""

from __future__ import annotations

import json

import pytest

from referee.core import Rng, chance, engine
from referee.core import chancelog
from referee.core.chance import CHANCE, EXTERNAL, NOBODY, NeedChance
from referee.core.errors import (ChanceUnsupported, IllegalMove, InvalidState, MalformedMove,
                                 NotYourTurn)
from referee.core.playout import random_playout
from tests.support.gops import GAME, Gops


def text(state) -> str:
    """A state as canonical JSON."""
    return json.dumps(state, sort_keys=True)


def external_playout(players, seed, options=None):
    """Play gops with external chance to the end: random legal moves, chance's too."""
    rng = Rng(seed, "test")
    _, state = engine.start(GAME, players, options, 0, chance=EXTERNAL)
    log, version = [], 0
    while GAME.pending(state):
        seat = GAME.pending(state)[0].seat
        move = rng.choice(GAME.legal_moves(state, seat))
        state, _ = engine.play(GAME, state, version, seat, move)
        log.append((seat, move))
        version += 1
    return state, log


# -- draw, take, shuffled --------------------------------------------------------------------

def test_without_a_session_draws_run_the_internal_code():
    """Outside any session (today's path) a draw is exactly its internal function."""
    deck = [5, 3, 9]
    assert chance.draw("die", range(1, 7), lambda: 4) == 4
    assert chance.take(deck, "card") == 5 and deck == [3, 9]
    assert chance.take(deck, "card", index=-1) == 9 and deck == [3]
    assert chance.shuffled([2, 1], lambda: [7]) == [7]


def test_external_draws_take_the_supplied_outcomes_in_order_then_ask():
    """Supplied outcomes answer draws in order; then NeedChance with the weighed outcomes."""
    deck = [1, 1, 2, 3]
    with chance.session(EXTERNAL, [2, 1]) as active:
        assert chance.shuffled([3, 1, 2], lambda: pytest.fail("no shuffle")) == [1, 2, 3]
        assert chance.take(deck, "card") == 2 and deck == [1, 1, 3]
        assert chance.take(deck, "card") == 1 and deck == [1, 3]
        with pytest.raises(NeedChance) as need:
            chance.draw("die", [1, 2, 2], lambda: 1, owner=NOBODY, prompt={"why": "test"})
    assert active.used == 2
    assert need.value.to_dict() == {
        "kind": "die", "owner": NOBODY, "prompt": {"why": "test"},
        "outcomes": [{"outcome": 1, "probability": 1 / 3}, {"outcome": 2, "probability": 2 / 3}]}


def test_an_impossible_supplied_outcome_is_refused_with_a_stable_code():
    """A supplied outcome outside the draw's outcomes: move.illegal.chance.outcome."""
    with chance.session(EXTERNAL, [7]), pytest.raises(IllegalMove) as err:
        chance.draw("die", range(1, 7), lambda: 1)
    assert err.value.code == chance.ILLEGAL_OUTCOME


def test_weights_and_owners():
    """Weights weigh parallel outcomes; owners are None, a seat or NOBODY, nothing else."""
    assert chance.weighed(["a", "b"], [3, 1]) == [("a", 0.75), ("b", 0.25)]
    assert chance.weighed([[1, 2], (1, 2)]) == [([1, 2], 1.0)]
    for owner in (-1, "seat", True):
        with pytest.raises(ValueError):
            chance.draw("x", [1], lambda: 1, owner=owner)
    with pytest.raises(ValueError):
        chance.weighed([])


def test_tracing_records_internal_draws_and_catches_an_outcome_not_listed():
    """Tracing records (kind, outcome, owner); an internal value outside outcomes is a bug."""
    with chance.tracing() as events:
        chance.draw("die", range(1, 7), lambda: 6, owner=1)
    assert events == [chance.ChanceEvent("die", 6, 1)]
    with chance.tracing(), pytest.raises(ValueError, match="not among its outcomes"):
        chance.draw("die", range(1, 7), lambda: 7)


# -- internal chance unchanged ---------------------------------------------------------------

@pytest.mark.parametrize("seed", range(4))
def test_internal_setup_is_what_it_always_was(seed):
    """The deck is the seeded shuffle minus its first card, turned up; no chance key."""
    _, state = engine.start(GAME, 2, {"cards": 6}, seed)
    deck = Rng(seed, "deck").shuffled(range(1, 7))
    assert (state["prize"], state["deck"]) == ([deck[0]], deck[1:])
    assert "chance" not in state and GAME.chance_outcomes(state) == []
    assert GAME.legal_moves(state, CHANCE) == []


def test_tracing_changes_nothing_in_an_internal_match():
    """Converting a match replays it with tracing on: the states are the same."""
    _, final, log = random_playout(GAME, 3, None, 11)
    with chance.tracing() as events:
        assert text(engine.replay(GAME, 3, None, 11, log)) == text(final)
    assert events and all(e.kind == "prize" and e.owner is None for e in events)


# -- external chance in the kit ----------------------------------------------------------------

def test_an_external_setup_waits_for_its_chance_and_has_no_view_yet():
    """The set-up's prize is the chance seat's decision; views are null until it is supplied."""
    _, state = engine.start(GAME, 2, None, 123, chance=EXTERNAL)
    (decision,) = GAME.pending(state)
    assert (decision.seat, decision.kind, decision.move_types) == (CHANCE, "chance:prize",
                                                                   ("chance",))
    assert decision.prompt["owner"] is None and len(decision.prompt["outcomes"]) == 4
    assert GAME.legal_moves(state, CHANCE) == [chance.chance_move(c) for c in (1, 2, 3, 4)]
    assert [p for _, p in GAME.chance_outcomes(state)] == [0.25] * 4
    assert GAME.legal_moves(state, 0) == [] and GAME.outcome(state) is None
    assert GAME.view(state, 0) is None and GAME.view(state, None) is None
    state, _ = engine.play(GAME, state, 0, CHANCE, chance.chance_move(3))
    assert (state["prize"], state["deck"], state["seed"]) == ([3], [1, 2, 4], 0)
    assert state["chance"] == {"mode": EXTERNAL, "waiting": None}


def test_a_move_that_draws_waits_and_shows_the_state_before_it():
    """The last bid of a round with a winner waits for nothing; a tie (discard) draws the
    next prize: the bid waits, views stay those of the state before it, then it completes."""
    _, state = engine.start(GAME, 2, None, 0, chance=EXTERNAL)
    state = engine.play(GAME, state, 0, CHANCE, chance.chance_move(2))[0]
    state = engine.play(GAME, state, 1, 0, {"type": "bid", "card": 4})[0]
    before = state
    state = engine.play(GAME, state, 2, 1, {"type": "bid", "card": 4})[0]
    waiting = state["chance"]["waiting"]
    assert (waiting["seat"], waiting["move"], waiting["supplied"]) == (1, {"type": "bid",
                                                                          "card": 4}, [])
    assert [d.seat for d in GAME.pending(state)] == [CHANCE]
    for viewer in (None, 0, 1):
        assert GAME.view(state, viewer) == GAME.view(before, viewer)
    with pytest.raises(NotYourTurn):
        engine.play(GAME, state, 3, 0, {"type": "bid", "card": 3})
    state = engine.play(GAME, state, 3, CHANCE, chance.chance_move(3))[0]
    assert (state["prize"], state["deck"], state["last"]) == ([3], [1, 4], [4, 4])
    assert state["hands"] == [[1, 2, 3], [1, 2, 3]] and GAME.pending(state)[0].seat == 0


@pytest.mark.parametrize("players, seed", [(2, 1), (3, 2), (4, 3), (2, 4)])
def test_external_playouts_end_and_every_state_round_trips(players, seed):
    """Random legal moves (chance's among them) reach an outcome; states survive from_dict."""
    final, log = external_playout(players, seed)
    assert GAME.outcome(final) is not None
    assert sum(1 for seat, _ in log if seat == CHANCE) >= 1
    again = engine.replay(GAME, players, None, 0, log, chance=EXTERNAL)
    assert text(again) == text(final)
    state = engine.start(GAME, players, None, 0, chance=EXTERNAL)[1]
    for seat, move in log:
        assert text(GAME.from_dict(json.loads(text(state)))) == text(state)
        state = GAME.apply(state, seat, move)


@pytest.mark.parametrize("players, options, seed", [
    (2, None, 5), (3, None, 6), (4, {"cards": 8}, 7), (3, {"ties": "carry"}, 8),
    (2, {"cards": 2}, 9)])
def test_a_log_converted_to_external_chance_replays_to_the_same_outcome(players, options,
                                                                         seed):
    """internal match -> external_log -> replay with external chance: same outcome, views."""
    _, final, log = random_playout(GAME, players, options, seed)
    converted = chancelog.external_log(GAME, players, options, seed, log)
    assert [m for m in converted if m[0] != CHANCE] == log
    assert converted[0][0] == CHANCE  # the set-up's prize comes first
    again = engine.replay(GAME, players, options, 0, converted, chance=EXTERNAL)
    assert GAME.outcome(again) == GAME.outcome(final)
    for viewer in (None, *range(players)):
        assert GAME.view(again, viewer) == GAME.view(final, viewer)


def test_illegal_and_malformed_chance_moves():
    """An impossible outcome, a malformed chance move, a player's 'chance' move: refused."""
    _, state = engine.start(GAME, 2, None, 0, chance=EXTERNAL)
    with pytest.raises(IllegalMove) as err:
        engine.play(GAME, state, 0, CHANCE, chance.chance_move(9))
    assert err.value.code == "move.illegal.chance.outcome"
    for move in ({"type": "chance"}, {"type": "chance", "outcome": 1, "x": 1},
                 {"type": "bid", "card": 1}):
        with pytest.raises(MalformedMove):
            engine.play(GAME, state, 0, CHANCE, move)
    state = engine.play(GAME, state, 0, CHANCE, chance.chance_move(1))[0]
    with pytest.raises(MalformedMove):
        engine.play(GAME, state, 1, 0, chance.chance_move(1))
    with pytest.raises(NotYourTurn):
        engine.play(GAME, state, 1, CHANCE, chance.chance_move(1))


def test_apply_never_mutates_its_input_in_external_chance():
    """Neither a waiting move, nor a chance move, nor a plain move changes the state given."""
    final, log = external_playout(3, 21)
    state = engine.start(GAME, 3, None, 0, chance=EXTERNAL)[1]
    for seat, move in log:
        before = text(state)
        new = GAME.apply(state, seat, move)
        assert text(state) == before and new is not state
        state = new


class NoChance(Gops):
    """gops as a game that has not moved its draws into referee.core.chance."""

    external_chance = False


def test_a_game_without_external_chance_refuses_it_with_a_stable_code():
    """engine.start refuses external chance; an unknown mode too; from_dict refuses a state."""
    game = NoChance()
    for mode in (EXTERNAL, "dice"):
        with pytest.raises(ChanceUnsupported) as err:
            engine.start(game, 2, None, 0, chance=mode)
        assert err.value.code == "chance.unsupported"
    state = engine.start(GAME, 2, None, 0, chance=EXTERNAL)[1]
    with pytest.raises(InvalidState) as err:
        game.from_dict(state)
    assert err.value.details["path"] == "$.chance"


# -- validating external states ----------------------------------------------------------------

def waiting_bid():
    """An external state whose tied last bid waits for the next prize."""
    _, state = engine.start(GAME, 2, None, 0, chance=EXTERNAL)
    for seat, move in ((CHANCE, chance.chance_move(2)), (0, {"type": "bid", "card": 4}),
                       (1, {"type": "bid", "card": 4})):
        state = GAME.apply(state, seat, move)
    return json.loads(text(state))


def broken(change):
    """A waiting state with one change made by `change(state)`."""
    state = waiting_bid()
    change(state)
    return state


BAD_STATES = [
    (lambda s: s["chance"].update(mode="internal"), "$.chance.mode"),
    (lambda s: s["chance"].update(extra=1), "$.chance.extra"),
    (lambda s: s["chance"]["waiting"]["need"]["outcomes"][0].update(probability=2),
     "$.chance.waiting.need.outcomes[0].probability"),
    (lambda s: s["chance"]["waiting"]["need"]["outcomes"].pop(), "$.chance.waiting.need"),
    (lambda s: s["chance"]["waiting"]["need"].update(owner=-3), "$.chance.waiting.need.owner"),
    (lambda s: s["chance"]["waiting"].update(supplied=[1]), "$.chance.waiting"),
    (lambda s: s["chance"]["waiting"].update(move={"type": "bid", "card": 1}),
     "$.chance.waiting"),
    (lambda s: s["chance"]["waiting"].update(move={"type": "bid", "card": 9}),
     "$.chance.waiting.move"),  # not in seat 1's hand
    (lambda s: s["chance"]["waiting"].update(move={"type": "bid"}), "$.chance.waiting.move"),
    (lambda s: s["chance"]["waiting"].update(seat=0), "$.chance.waiting.seat"),
    (lambda s: s["chance"]["waiting"].update(seat=None), "$.chance.waiting.seat"),
    (lambda s: s.update(scores=[0]), "$.scores"),
    (lambda s: s.update(winner="x"), "$.winner"),
]


@pytest.mark.parametrize("change, path", BAD_STATES, ids=[p for _, p in BAD_STATES])
def test_from_dict_names_the_first_bad_field_of_an_external_state(change, path):
    """The chance record is checked by schema and by playing the waiting move again."""
    with pytest.raises(InvalidState) as err:
        GAME.from_dict(broken(change))
    assert err.value.details["path"] == path, err.value.message


def test_a_waiting_setup_has_no_game_state_and_is_checked_too():
    """Game keys beside a waiting set-up are refused; a good one round-trips."""
    state = engine.start(GAME, 3, None, 0, chance=EXTERNAL)[1]
    assert GAME.from_dict(json.loads(text(state))) == state
    with pytest.raises(InvalidState) as err:
        GAME.from_dict({**state, "scores": [0, 0, 0]})
    assert err.value.details["path"] == "$.scores"
    bad = json.loads(text(state))
    bad["chance"]["waiting"]["setup"]["players"] = 9
    with pytest.raises(InvalidState) as err:
        GAME.from_dict(bad)
    assert err.value.details["path"] == "$.chance.waiting.setup"
    assert GAME.from_dict(waiting_bid()) == waiting_bid()


def test_a_game_not_on_external_chance_refuses_it_cleanly():
    """Until a game moves its draws into referee.core.chance (every registered game has),
    it refuses external chance: here the test game with its support switched off."""
    game = type(GAME)()
    game.external_chance = False
    with pytest.raises(ChanceUnsupported):
        engine.start(game, game.spec.min_players, None, 0, chance=EXTERNAL)
