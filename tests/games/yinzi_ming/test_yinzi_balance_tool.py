"""The balance tool (tests/support/yinzi_balance.py) counts what it says it counts."""

from __future__ import annotations

from referee.games.yinzi_ming import data
from tests.support import yinzi_balance


def test_mirror_tally_adds_up():
    """One winner a match, one Merchant per player a round, Goods shipped never above made."""
    tally = yinzi_balance.mirror(3, 2)
    assert tally.matches == 2 and tally.rounds == 2 * data.ROUNDS
    assert sum(tally.position_wins.values()) == 2
    assert sum(tally.slots.values()) == 3 * tally.rounds
    assert tally.port["goods shipped"] <= tally.port["goods made"]
    assert "position 1" in yinzi_balance.report(tally)


def test_quiet_player_never_acts():
    """The do-nothing seat builds nothing, ships nothing and sells nothing."""
    from referee.core.bots import random_move
    from referee.games.yinzi_ming.game import GAME

    policies = [lambda s, seat, v: yinzi_balance.quiet(s, seat),
                lambda s, seat, v: random_move(GAME, s, seat, 5, v)]
    s = yinzi_balance.play(2, 5, policies)
    assert s["phase"] == "over"
    assert not any(w["owner"] == 0 for w in s["workshops"].values())
    assert s["seats"][0]["ship_vp"] == 0
    assert all(m["spaces"].count(0) == 0 for m in s["markets"].values())
