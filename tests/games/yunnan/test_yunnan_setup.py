"""Set-up: order, coins by blue position, stocks at rest; Dúlì's set-up with 2 players."""

from __future__ import annotations

import pytest

from referee.games.yunnan import GAME
from referee.games.yunnan.data import PROV_INDEX, SPACES, TRADING_SCHOOL
from referee.games.yunnan.bidding import bank_spaces


def _setup(players, seed=0, **options):
    return GAME.setup(players, GAME.spec.resolve_options(options), seed)


@pytest.mark.parametrize("players, coins", [(2, [9, 9]), (3, [9, 9, 12]), (4, [9, 9, 12, 12]),
                                            (5, [9, 9, 12, 12, 15])])
def test_setup_coins_follow_the_blue_track(players, coins):
    s = _setup(players, seed=7)
    seats = [p for p in s["blue"] if p < players]
    assert [s["coins"][p] for p in seats] == coins
    assert s["actor"] == s["blue"][0]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_setup_everything_at_rest(players):
    s = _setup(players)
    assert s["supply"] == [3] * players and s["reserve"] == [4] * players
    assert s["horse"] == [PROV_INDEX["yunnan"]] * players
    assert s["passes"] == [2] * players and s["influence"] == [0] * players
    assert s["presents"] == [0, 5, 4, 3, 2]
    assert s["blocker"] is None and s["teahouses"] == [None] * 5 and s["guards"] == [None] * players
    assert s["yard"][0] == {"trading_post": 2, "bridge": 2, "teahouse": 2, "guard": 0}
    assert all(o is None for row in s["bids"].values() for o in row)
    assert (s["phase"], s["step"], s["round"]) == ("bidding", "bid", 1)


def test_setup_first_order_is_random_from_the_seed():
    orders = {tuple(_setup(4, seed)["blue"]) for seed in range(12)}
    assert len(orders) > 3
    assert _setup(4, 3)["blue"] == _setup(4, 3)["blue"]


def test_setup_guards_option_puts_a_guard_in_the_yard():
    assert _setup(3, guards=True)["yard"][1]["guard"] == 1


def test_setup_two_players_add_duli():
    s = _setup(2, seed=5)
    d = s["duli"]
    assert d == 2 and s["blue"][-1] == d
    assert s["bids"][TRADING_SCHOOL][SPACES[TRADING_SCHOOL].index(9)] == d
    assert s["supply"][d] == 6 and s["posts"][d] == [1, 1, 0, 0, 0]
    assert bank_spaces(s) == 1 and s["influence"][d] == 0 and len(s["coins"]) == 2
    assert len(s["duli_cards"]["deck"]) == 16
