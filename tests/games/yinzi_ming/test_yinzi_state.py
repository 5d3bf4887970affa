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


def _seat(s, seat, **fields):
    s["seats"][seat].update(fields)


BROKEN = [
    # (case, patch, JSON path named in the refusal)
    ("missing key", lambda s: s.pop("dial"), "$"),
    ("unknown key", lambda s: s.update(extra=1), "$"),
    ("seat extra key", lambda s: _seat(s, 0, vp=3), "$.seats[0]"),
    ("seat missing key", lambda s: s["seats"][1].pop("stone"), "$.seats[1]"),
    ("peasant lost", lambda s: _seat(s, 0, peasants=s["seats"][0]["peasants"] - 1),
     "$.seats[0].peasants"),
    ("overseer lost", lambda s: _seat(s, 1, overseers=s["seats"][1]["overseers"] - 1),
     "$.seats[1].overseers"),
    ("negative money", lambda s: _seat(s, 2, sapeques=-1), "$.seats[2].sapeques"),
    ("money not a number", lambda s: _seat(s, 2, yinzi="3"), "$.seats[2].yinzi"),
    ("tax_vp positive", lambda s: _seat(s, 0, tax_vp=2), "$.seats[0].tax_vp"),
    ("ambassador off track", lambda s: _seat(s, 0, ambassador=99), "$.seats[0].ambassador"),
    ("card twice", lambda s: s["seats"][0]["deck"].append(s["seats"][0]["deck"][0]),
     "$.seats[0].deck"),
    ("card out of range", lambda s: s["seats"][0]["deck"].append(99), "$.seats[0].deck[9]"),
    ("action space card", lambda s: s["seats"][0]["spaces"].update(sell=s["seats"][0]["deck"][0]),
     "$.seats[0].spaces.sell"),
    ("ship twice", lambda s: s["ship_deck"].append(s["port"][0]["ship"]), "$.ship_deck"),
    ("crop tile lost", lambda s: s["crop_deck"].pop(), "$.crop_deck"),
    ("workshop lost", lambda s: s["workshop_deck"].pop(), "$.workshop_deck"),
    ("market tile twice", lambda s: s["market_deck"].append(s["market_deck"][0]),
     "$.market_deck"),
    ("bad phase", lambda s: s.update(phase="lunch"), "$.phase"),
    ("stage of another phase", lambda s: s.update(stage="step"), "$.stage"),
    ("bad option", lambda s: s["options"].update(yangtze_capacity="fast"), "$.options"),
    ("missing option", lambda s: s["options"].pop("yangtze_capacity"), "$.options"),
    ("dial off", lambda s: s.update(dial=9), "$.dial"),
    ("round 0", lambda s: s.update(round=0), "$.round"),
    ("seats not a list", lambda s: s.update(seats=None), "$.seats"),
    ("one seat too few", lambda s: s["seats"].pop(), "$.seats"),
    ("order misses a seat", lambda s: s.update(order=[0, 1, 1]), "$.order"),
    ("active seat 3 of 3", lambda s: s.update(active=3), "$.active"),
    ("occupant shape", lambda s: s["occupants"].update(YZ1=[0, 2]), "$.occupants.YZ1"),
    ("occupant on no space", lambda s: s["occupants"].update(XX9={"owner": 0, "count": 1}),
     "$.occupants"),
    ("covered mismatch", lambda s: s["covered"].update(YZ1="W01"), "$.covered"),
    ("register too short", lambda s: s["register"].pop(), "$.register"),
    ("register merchant of seat 5", lambda s: s["register"][0].update(merchant=5),
     "$.register[0].merchant"),
    ("display too long", lambda s: s["display"].append(None), "$.display"),
    ("admin missing space", lambda s: s["admin"].pop("B1"), "$.admin"),
    ("market spaces count", lambda s: next(iter(s["markets"].values()))["spaces"].append(None),
     "$.markets."),
    ("port slot count", lambda s: s["port"][0]["slots"].append(None), "$.port[0].slots"),
    ("turn without its stage", lambda s: s.update(turn={"seat": 0, "waived": False}), "$.turn"),
    ("final while playing", lambda s: s.update(final={"scores": [], "ranks": [], "breakdown": [],
                                                      "final_rate": 3}), "$.active"),
]


@pytest.mark.parametrize("case, patch, path", BROKEN, ids=[b[0] for b in BROKEN])
def test_from_dict_rejects_inconsistent_states(case, patch, path):
    """from_dict raises InvalidState (never a crash) naming the JSON path of what is wrong."""
    s = json.loads(json.dumps(GAME.to_dict(new(3, seed=2))))
    patch(s)
    with pytest.raises(InvalidState) as err:
        GAME.from_dict(s)
    assert err.value.details["path"].startswith(path), err.value.message


def test_from_dict_checks_final_scores_per_player():
    """A finished game's scores, ranks and breakdown have one entry per seat."""
    s = json.loads(json.dumps(GAME.to_dict(_mid_game())))
    GAME.from_dict(s)
    s["final"]["ranks"].pop()
    with pytest.raises(InvalidState) as err:
        GAME.from_dict(s)
    assert err.value.details["path"] == "$.final"


@pytest.mark.parametrize("players", [2, 4])
def test_from_dict_checks_seat_numbers_per_player_count(players):
    """A seat number the player count does not have is refused wherever it appears."""
    s = json.loads(json.dumps(GAME.to_dict(at_directives(players, seed=3))))
    s["register"][0]["merchant"] = players
    with pytest.raises(InvalidState) as err:
        GAME.from_dict(s)
    assert err.value.details["path"] == "$.register[0].merchant"


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


@pytest.mark.parametrize("players", [2, 3, 4])
def test_audit_listing_over_playouts(players):
    """Every listing (Build's one-check-decides-all included) equals checking each candidate."""
    from referee.core.bots import random_move
    from referee.core.kit import audit_listing
    builds = 0
    for seed in range(2):
        s = new(players, seed, exclusive_trade_slots=bool(seed))
        for version in range(5000):
            if not GAME.pending(s):
                break
            seat = s["active"]
            assert audit_listing(GAME, s, seat) == []
            builds += s["stage"] == "act" and s["turn"]["action"] == "build"
            s = GAME.apply(s, seat, random_move(GAME, s, seat, seed, version))
        assert GAME.pending(s) == ()
    assert builds >= 1


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
