"""Dschunke on the game kit: listings proven by their checks, broken states refused with a path."""

from __future__ import annotations

import pytest

from referee.core import InvalidState
from referee.core.copying import deep_copy
from referee.core.kit import audit_listing
from tests.games.dschunke.dschunke_helpers import GAME, new, playout

SETUPS = [(2, {"two_player_variant": True}), (2, {"two_player_variant": True,
                                                   "setup_variant": True}),
          (3, {}), (3, {"setup_variant": True}), (4, {})]


@pytest.mark.parametrize("players, options", SETUPS, ids=lambda v: str(v))
def test_every_listing_agrees_with_its_checks_over_playouts(players, options):
    """audit_listing finds no candidate listed but refused (or accepted but left out)."""
    audited = 0
    for seed in range(2):
        for state in playout(players, seed, **options):
            for decision in GAME.pending(state):
                assert audit_listing(GAME, state, decision.seat) == []
                audited += 1
    assert audited > 100


def _state(players=3, **options):
    return deep_copy(new(players, 0, **options))


def _set(path, value):
    def change(s):
        *head, last = path
        for key in head:
            s = s[key]
        s[last] = value
    return change


def _drop(*path):
    def change(s):
        *head, last = path
        for key in head:
            s = s[key]
        del s[last]
    return change


def _pop(*path):
    def change(s):
        for key in path:
            s = s[key]
        s.pop()
    return change


BROKEN = [
    ("not a dict", lambda s: ["a", "list"], "$"),
    ("players a string", _set(["players"], "3"), "$.players"),
    ("players out of range", _set(["players"], 5), "$.players"),
    ("missing key", _drop("clock"), "$"),
    ("extra key", _set(["extra"], 1), "$"),
    ("round out of range", _set(["round"], 11), "$.round"),
    ("cash negative", _set(["seats", 0, "cash"], -1), "$.seats[0].cash"),
    ("cash a float", _set(["seats", 0, "cash"], 1.5), "$.seats[0].cash"),
    ("hand missing a colour", _drop("seats", 1, "hand", "white"), "$.seats[1].hand"),
    ("hand of an unknown colour", _set(["seats", 1, "hand", "gold"], 1), "$.seats[1].hand"),
    ("seat extra key", _set(["seats", 0, "vp"], 1), "$.seats[0]"),
    ("looks of wrong length", _set(["seats", 0, "looks"], [[]]), "$.seats[0].looks"),
    ("unknown card", _set(["stacks", 0, 0], "joker"), "$.stacks[0][0]"),
    ("stage of unknown kind", _set(["stage"], {"kind": "party"}), "$.stage.kind"),
    ("stage missing its seat index", _drop("stage", "i"), "$.stage"),
    ("stage seat index off the table", _set(["stage", "i"], 3), "$.stage.i"),
    ("merchant on no junk", _set(["merchants", "load", "junk"], "blue"),
     "$.merchants.load.junk"),
    ("two merchants on one junk", lambda s: s["merchants"]["load"].update(
        junk=s["merchants"]["take"]["junk"]), "$.merchants"),
    ("layer owner off the table", _set(["junks", "grey", "layers"], [[0, 1, 3]]),
     "$.junks.grey.layers[0]"),
    ("layer longer than 3", _set(["junks", "grey", "layers"], [[0, 1, 2, 2]]),
     "$.junks.grey.layers[0]"),
    ("strips not conserved", _set(["seats", 0, "strips"], 20), "$.seats[0].strips"),
    ("goods not conserved", lambda s: s["supply"].update(white=s["supply"]["white"] - 1),
     "$.supply.white"),
    ("a special card duplicated", lambda s: s["stacks"][0].append(s["stacks"][1][0]),
     "$.stacks"),
    ("market deck missing a card", _pop("market", "deck"), "$.market.deck"),
    ("market card not the last seen", _set(["market", "card"], None), "$.market.card"),
    ("one colour too few", _pop("colours"), "$.colours"),
    ("one seat too few", _pop("seats"), "$.seats"),
    ("colours not this table's", _set(["colours"], ["blue", "red", "green"]), "$.colours"),
    ("start player off the table", _set(["start"], 3), "$.start"),
    ("store in a 3-player game", _set(["store"], {"white": 0, "brown": 0, "lilac": 0,
                                                  "orange": 0}), "$.store"),
    ("assistant not in play", _set(["assistants", "upper"], {"used": False}), "$.assistants"),
    ("clock out of step", _set(["clock"], 3), "$.clock"),
    ("announced cash per player", _set(["announced"], {"round": 5, "cash": [0]}),
     "$.announced.cash"),
    ("bids asked without a poker", _set(["stage"], {"kind": "bid"}), "$.poker"),
]


@pytest.mark.parametrize("change, path", [(c, p) for _, c, p in BROKEN],
                         ids=[name for name, _, _ in BROKEN])
def test_a_broken_state_is_refused_with_its_path(change, path):
    state = _state()
    replaced = change(state)  # None: changed in place
    data = state if replaced is None else replaced
    with pytest.raises(InvalidState) as err:
        GAME.from_dict(data)
    assert err.value.details.get("path", "").startswith(path), err.value.message


def test_a_two_player_state_needs_the_variant_and_one_seat_each():
    state = _state(2, two_player_variant=True)
    GAME.from_dict(state)
    state["options"]["two_player_variant"] = False
    with pytest.raises(InvalidState) as err:
        GAME.from_dict(state)
    assert err.value.details["path"] == "$.players"


def test_every_state_of_a_playout_loads_back():
    for state in playout(4, 3, setup_variant=True):
        assert GAME.from_dict(GAME.to_dict(state)) == state


def test_standing_is_the_final_score_formula_applied_now():
    """A match stopped at its move cap is ranked by cash + card bonuses + ship bonus so far."""
    from referee.games.dschunke.scoring import ship_bonus
    from referee.games.dschunke.board import visible_table
    state = new(3, 1)
    state["seats"][1]["cash"] = 7
    visible = visible_table(state["junks"], 3)
    standing = GAME.standing(state)
    assert standing == [state["seats"][seat]["cash"] + ship_bonus(visible, seat)
                        for seat in range(3)]
    assert all(type(points) is int for points in standing)  # whole points, never 36.0
