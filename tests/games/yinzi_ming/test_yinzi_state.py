"""The state document, views and redetermination: validation, what is hidden, registry."""

from __future__ import annotations

import json

import pytest

from referee.core import Rng
from referee.core.errors import InvalidState
from referee.core.playout import random_playout
from referee.games import GAMES
from tests.games.yinzi_ming.yinzi_helpers import GAME, at_directives, command, new


def test_registered_with_two_to_four_players():
    """The registry knows the game as 'yinzi-ming', 2-4 players, with its options listed."""
    game = GAMES.get("yinzi-ming")
    spec = game.spec.to_dict()
    assert (spec["min_players"], spec["max_players"]) == (2, 4)
    assert {o["name"] for o in spec["options"]} >= {
        "unattended_excludes_workshops", "supply_ignores_transport", "yangtze_capacity",
        "command_after_trade", "exclusive_trade_slots"}


def _mid_game():
    _, s, _ = random_playout(GAME, 3, {}, 21, max_moves=100_000)
    return s


@pytest.mark.parametrize("case, patch", [
    ("missing key", lambda s: s.pop("dial")),
    ("unknown key", lambda s: s.update(extra=1)),
    ("peasant lost", lambda s: s["seats"][0].update(peasants=s["seats"][0]["peasants"] + 1)),
    ("overseer lost", lambda s: s["seats"][1].update(overseers=s["seats"][1]["overseers"] + 1)),
    ("card twice", lambda s: s["seats"][0]["deck"].append(s["seats"][0]["deck"][0])),
    ("ship twice", lambda s: s["ship_deck"].append(s["port"][0]["ship"])),
    ("crop tile lost", lambda s: s["crop_deck"].pop()),
    ("bad phase", lambda s: s.update(phase="lunch")),
    ("bad option", lambda s: s["options"].update(yangtze_capacity="fast")),
    ("dial off", lambda s: s.update(dial=9)),
    ("seats not a list", lambda s: s.update(seats=None)),
    ("occupant shape", lambda s: s["occupants"].update(YZ1=[0, 2])),
    ("covered mismatch", lambda s: s["covered"].update(YZ1="W01")),
])
def test_from_dict_rejects_inconsistent_states(case, patch):
    """from_dict raises InvalidState (never a crash) naming what is wrong."""
    s = json.loads(json.dumps(GAME.to_dict(new(3, seed=2))))
    patch(s)
    with pytest.raises(InvalidState):
        GAME.from_dict(s)


def test_from_dict_round_trip_through_json():
    """A state survives JSON with sorted keys, and legal moves keep their order."""
    s = command(at_directives(3, seed=4), "sell", 3)
    back = GAME.from_dict(json.loads(json.dumps(GAME.to_dict(s), sort_keys=True)))
    assert GAME.legal_moves(back, back["active"]) == GAME.legal_moves(s, s["active"])


def test_views_hide_deck_order_and_seed_only():
    """No deck order and no seed in any view; every seat sees the same thing otherwise."""
    s = at_directives(3, seed=6)
    views = [GAME.view(s, seat) for seat in (None, 0, 1, 2)]
    for v in views:
        text = json.dumps(v)
        assert "seed" not in v and "crop_deck" not in v and "deck" not in v["seats"][0]
        assert v["decks"]["crop_deck"] == sorted(s["crop_deck"])
        assert json.dumps(s["crop_deck"]) not in text or len(s["crop_deck"]) < 2
        v.pop("you")
    assert all(v == views[0] for v in views)


def test_redetermine_reshuffles_every_deck_consistently():
    """Decks (Order cards included) and future rolls change; every view stays the same."""
    s = at_directives(4, seed=8)
    other = GAME.redetermine(s, 1, Rng(5, "test"))
    assert other["seed"] != s["seed"]
    assert other["crop_deck"] != s["crop_deck"] and sorted(other["crop_deck"]) == sorted(
        s["crop_deck"])
    assert any(a["deck"] != b["deck"] for a, b in zip(other["seats"], s["seats"]))
    for seat in (None, 0, 1, 2, 3):
        assert GAME.view(other, seat) == GAME.view(s, seat)
    assert GAME.from_dict(other)


def test_no_legal_moves_for_a_seat_that_is_not_pending():
    """legal_moves is empty for every seat but the active one, and for all once it is over."""
    s = _mid_game()
    assert GAME.pending(s) == () and all(GAME.legal_moves(s, p) == [] for p in range(3))
    t = at_directives(3)
    assert [p for p in range(3) if GAME.legal_moves(t, p)] == [t["active"]]


def test_outcome_ranks_everybody():
    """The outcome has a score and a distinct rank per seat, with the score breakdown."""
    outcome = GAME.outcome(_mid_game())
    assert sorted(outcome.ranks) == [1, 2, 3]
    assert [b["total"] for b in outcome.details["breakdown"]] == list(outcome.scores)


def test_bulk_checked_candidates_are_each_legal():
    """The Build shortcut in legal_moves lists exactly what checking each candidate would."""
    from referee.core.bots import random_move
    from referee.games.yinzi_ming import board
    from referee.games.yinzi_ming.game import BULK, CANDIDATES, HANDLERS
    checked = 0
    for seed in range(4):
        s = new(2, seed)
        for version in range(2000):
            if not GAME.pending(s):
                break
            seat = s["active"]
            if s["stage"] == "act" and s["turn"]["action"] == "build":
                for move_type in BULK:
                    listed = [m for m in GAME.legal_moves(s, seat) if m["type"] == move_type]
                    slow = [m for m in CANDIDATES[move_type](s, seat)
                            if board.accepts(HANDLERS[move_type], s, seat, m)]
                    assert listed == slow
                    checked += bool(slow)
            s = GAME.apply(s, seat, random_move(GAME, s, seat, seed, version))
    assert checked >= 5


@pytest.mark.parametrize("players", [2, 4])
def test_legal_moves_and_pending_never_touch_the_state(players):
    """Dry runs of every handler leave the state exactly as it was."""
    s = new(players, 12, exclusive_trade_slots=True, supply_ignores_transport=False)
    for version in range(3000):
        before = json.dumps(GAME.to_dict(s), sort_keys=True)
        if not GAME.pending(s):
            break
        moves = GAME.legal_moves(s, s["active"])
        assert json.dumps(GAME.to_dict(s), sort_keys=True) == before
        s = GAME.apply(s, s["active"], Rng(version, "pick").choice(moves))
    assert GAME.pending(s) == ()
