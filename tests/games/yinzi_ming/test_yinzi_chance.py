"""External chance on Yinzi: Ming (issue 16): every die roll and card drawn is a chance move.

The events (listed in referee/games/yinzi_ming/setup.py's docstring): the seating (one
permutation), each Order card revealed, each Market / Crop / Workshop / Ship tile turned up, and
the die. All are public (owner None): Yinzi deals nothing into a hand; only the ORDER of the
decks is hidden, and an external-chance state keeps its decks sorted, so it has none.
"""

from __future__ import annotations

from itertools import permutations

import pytest

from referee.core import chance, engine
from referee.core import chancelog
from referee.core.errors import IllegalMove, InvalidState
from referee.core.playout import random_playout
from referee.core.rng import Rng
from referee.core.schema import schema_errors
from tests.games.yinzi_ming.yinzi_helpers import GAME

DECKS = ("market_deck", "crop_deck", "workshop_deck", "ship_deck")


def _plain(s) -> dict:
    """The game part of a state (without the core's chance record)."""
    return {k: v for k, v in s.items() if k != "chance"}


def _views(s) -> list:
    """The spectator's and seat 0's views (Yinzi shows every seat the same, but for `you`)."""
    return [GAME.view(s, None), GAME.view(s, 0)]


def _external(players: int, supplied=()) -> dict:
    """An external-chance set-up, with these outcomes supplied in order."""
    _, s = engine.start(GAME, players, {}, 0, chance=chance.EXTERNAL)
    for version, outcome in enumerate(supplied):
        s, _ = engine.play(GAME, s, version, chance.CHANCE, chance.chance_move(outcome))
    return s


def _need(s) -> dict:
    """The pending chance decision's prompt (event, owner, outcomes, about)."""
    (decision,) = GAME.pending(s)
    assert decision.seat == chance.CHANCE
    return decision.prompt


def test_internal_setup_traces_every_draw_in_order():
    """Internal chance: the same state as ever (no chance key), its draws traced in order."""
    with chance.tracing() as events:
        state = GAME.setup(3, GAME.spec.resolve_options({}), 7)
    assert "chance" not in state
    kinds = [e.kind for e in events]
    assert kinds == (["seating"] + ["order_card"] * 9 + ["market_tile"] * 4 + ["crop_tile"] * 6
                     + ["workshop_tile"] * 3 + ["ship_tile"] * 3)
    assert all(e.owner is None for e in events), "Yinzi turns every card face up"
    assert events[0].outcome == Rng(7, "seating").shuffled(range(3)) == state["order"]
    assert [e.outcome for e in events[1:4]] == [c["card"] for c in state["seats"][0]["cards"]]


def test_external_setup_asks_seating_then_each_card():
    """The set-up waits for the seating (any order of the seats, equally likely), then each
    revealed Order card of seat 0, then seat 1, then the tiles laid out."""
    s = _external(2)
    need = _need(s)
    assert need["event"] == "seating" and need["owner"] is None
    assert [(o["outcome"], o["probability"]) for o in need["outcomes"]] == [
        ([0, 1], 0.5), ([1, 0], 0.5)]
    assert GAME.view(s, None) is None  # no board yet while the set-up waits
    s = _external(2, [[1, 0], 11])
    need = _need(s)
    assert need["event"] == "order_card" and need["about"] == {"seat": 0}
    assert [o["outcome"] for o in need["outcomes"]] == list(range(11))
    assert {o["probability"] for o in need["outcomes"]} == {1 / 11}
    with pytest.raises(IllegalMove) as info:
        engine.play(GAME, s, 2, chance.CHANCE, chance.chance_move(11))  # already revealed
    assert info.value.code == chance.ILLEGAL_OUTCOME


def test_external_setup_complete_keeps_decks_sorted():
    """Supplying every set-up draw gives the chosen layout; the undrawn cards stay sorted."""
    supplied = ([[1, 0], 11, 0, 5, 3, 2, 1] + ["M8", "M1", "M2", "M3"]
                + ["C16", "C01", "C02", "C03", "C04", "C05"] + ["W05", "W04", "W03"]
                + ["S8", "S1", "S2"])
    s = _external(2, supplied)
    assert s["chance"]["waiting"] is None and s["order"] == [1, 0] and s["active"] == 0
    assert [c["card"] for c in s["seats"][0]["cards"]] == [11, 0, 5]
    assert s["seats"][1]["deck"] == [0, 4, 5, 6, 7, 8, 9, 10, 11]
    assert [m["tile"] for m in s["markets"].values()] == ["M8", "M1", "M2", "M3"]
    assert [r["tile"] for r in s["register"]] == ["C16", "C01", "C02", "C03", "C04", "C05"]
    assert s["display"] == ["W05", "W04", "W03"]
    assert [p["ship"] for p in s["port"]] == ["S8", "S1", "S2"]
    assert all(s[k] == sorted(s[k]) for k in DECKS)
    assert s["market_deck"] == ["M4", "M5", "M6", "M7"]
    GAME.from_dict(GAME.to_dict(s))


@pytest.mark.parametrize("players, seed", [(2, 11), (3, 12), (4, 13)])
def test_internal_match_converted_replays_externally_to_the_same_end(players, seed):
    """An internal match's log, turned into an external-chance log, replays from the supplied
    outcomes alone to the same outcome, and every seat sees the same after each player move."""
    options, internal, moves = random_playout(GAME, players, {}, seed)
    log = chancelog.external_log(GAME, players, options, seed, moves)
    assert [m for m in log if m[0] != chance.CHANCE] == moves
    internal_states = [engine.start(GAME, players, options, seed)[1]]
    for version, (seat, move) in enumerate(moves):
        internal_states.append(engine.play(GAME, internal_states[-1], version, seat, move)[0])
    _, s = engine.start(GAME, players, options, 0, chance=chance.EXTERNAL)
    played = compared = 0
    for version, (seat, move) in enumerate(log):
        s, _ = engine.play(GAME, s, version, seat, move)
        played += seat != chance.CHANCE
        if s["chance"]["waiting"] is None:  # the set-up or a player's move is complete
            assert _views(s) == _views(internal_states[played]), f"views differ at {version}"
            compared += 1
    assert compared == len(moves) + 1
    assert GAME.outcome(s) == GAME.outcome(internal)
    assert all(s[k] == sorted(s[k]) for k in DECKS)


def test_a_move_that_draws_waits_and_shows_the_board_before_it():
    """The last Regulation step of round 1 runs Maintenance (new Markets, cards) and rolls the
    die: the move waits for each draw, and every view stays the one before the move."""
    s = _hand_made_regulation()
    before = _views(s)
    version = 0
    s, _ = engine.play(GAME, s, version, s["active"], {"type": "done"})
    kinds = []
    while s["chance"]["waiting"] is not None:
        need = _need(s)
        kinds.append(need["event"])
        assert _views(s) == before, "a waiting move shows nothing of its draws"
        assert GAME.legal_moves(s, 0) == [] and GAME.legal_moves(s, 1) == []
        version += 1
        outcome = need["outcomes"][-1]["outcome"]
        s, _ = engine.play(GAME, s, version, chance.CHANCE, chance.chance_move(outcome))
        s = GAME.from_dict(GAME.to_dict(s))  # a waiting state round-trips, checked
    assert kinds == ["market_tile"] * 4 + ["order_card"] * 6 + ["die"]
    assert s["round"] == 2 and s["roll"] == 6 and s["phase"] == "bonus"
    assert [m["tile"] for m in s["markets"].values()] == ["M8", "M7", "M6", "M5"]
    assert [c["card"] for c in s["seats"][0]["cards"]] == [11, 10, 9]


def _hand_made_regulation() -> dict:
    """A hand-made position given as a state: round 1's last Regulation step, 2 players, all
    Markets of the deck used up, so Maintenance reshuffles the 8 tiles and draws 4."""
    s = _external(2, [[0, 1], 0, 1, 2, 3, 4, 5, "M1", "M2", "M3", "M4",
                      "C01", "C02", "C03", "C04", "C05", "C06", "W01", "W02", "W03",
                      "S1", "S2", "S3"])
    s = GAME.to_dict(s)
    s.update(phase="regulation", stage="step", queue=[1], active=1,
             turn={"seat": 1, "waived": False}, market_deck=[],
             market_discard=["M5", "M6", "M7", "M8"])
    for st in s["seats"]:
        st["gone"], st["cards"] = [c["card"] for c in st["cards"]], []
    return GAME.from_dict(s)


def test_a_hand_made_state_is_checked_and_names_the_bad_field():
    """A position given as a state is validated: a card in two places names its path."""
    s = GAME.to_dict(_hand_made_regulation())
    s["crop_deck"].append("C01")
    with pytest.raises(InvalidState) as info:
        GAME.from_dict(s)
    assert info.value.details["path"] == "$.crop_deck"


def test_the_die_offers_each_face_with_one_sixth():
    """Phase A 'Roll the die': the chance decision lists 1..6, each 1/6, for everyone to see."""
    s = _hand_made_regulation()
    s, _ = engine.play(GAME, s, 0, 1, {"type": "done"})
    for version in range(1, 11):
        s, _ = engine.play(GAME, s, version, chance.CHANCE,
                           chance.chance_move(GAME.chance_outcomes(s)[0][0]["outcome"]))
    assert GAME.chance_outcomes(s) == [(chance.chance_move(face), 1 / 6) for face in range(1, 7)]
    assert _need(s)["about"] == {"round": 2} and _need(s)["owner"] is None


@pytest.mark.parametrize("players, seed", [(2, 21), (3, 22), (4, 23)])
def test_random_external_playouts_reach_the_end(players, seed):
    """Random legal moves for every seat and random outcomes for chance, to the final score."""
    rng = Rng(seed, "external playout")
    s, version = _external(players), 0
    while GAME.pending(s):
        decision = rng.choice(GAME.pending(s))
        moves = GAME.legal_moves(s, decision.seat)
        if decision.seat == chance.CHANCE:
            weighted = GAME.chance_outcomes(s)
            assert [m for m, _ in weighted] == moves
            assert abs(sum(p for _, p in weighted) - 1) < 1e-9
        s, _ = engine.play(GAME, s, version, decision.seat, rng.choice(moves))
        version += 1
        if version % 97 == 0:
            assert GAME.from_dict(GAME.to_dict(s)) == s
            for viewer in (None, 0):
                assert not schema_errors(GAME.view(s, viewer), GAME.view_schema(viewer is None),
                                         "view", "view")
    assert GAME.outcome(s) is not None and s["phase"] == "over"
    assert GAME.redetermine(s, 0, rng) is s  # nothing is hidden in an external state


def test_permutations_are_listed_in_order():
    """The seating event lists every turn order once, lexicographically."""
    s = _external(3)
    assert [o["outcome"] for o in _need(s)["outcomes"]] == [list(p) for p in
                                                            permutations(range(3))]
