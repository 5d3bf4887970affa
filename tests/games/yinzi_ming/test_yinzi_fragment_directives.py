"""Fragment, 'Command Directives': one test (or table) per sentence."""

from __future__ import annotations

import pytest

from referee.games.yinzi_ming import data
from referee.games.yinzi_ming.spec import SPEC
from tests.games.yinzi_ming.yinzi_helpers import (GAME, act, at_directives, clear_board, command,
                                                  empty_overseer_supply, give, illegal, legal,
                                                  play_until, sentence, set_cards)


@sentence("S11")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_six_turns_each_in_turn_order(players):
    """Phase C asks each seat in turn order, round and round, six times each."""
    s = at_directives(players, seed=players)
    seen = []
    while s["phase"] == "directives":
        if s["stage"] == "choose":
            seen.append(s["active"])
            s = act(s, legal(s)[0])
        else:
            s = act(s, {"type": "done"})
    assert seen == s["order"] * data.TURNS


@sentence("S12")
def test_each_turn_uses_a_different_half_of_a_revealed_card():
    """A used half cannot be used again; the card's other half still can (A4 default)."""
    s = at_directives()
    seat = s["active"]
    set_cards(s, seat, [0, 4, 8])
    s = act(act(s, {"type": "command", "card": 4, "action": "sell"}), {"type": "done"})
    s = act(act(s, legal(s)[0]), {"type": "done"})  # the other seat's turn
    assert s["active"] == seat
    illegal(s, {"type": "command", "card": 4, "action": "deploy"}, "command.half_used")
    assert {"type": "trade", "card": 4} in legal(s)
    s = act(s, {"type": "trade", "card": 4})
    assert s["seats"][seat]["cards"][1] == {"card": 4, "top": True, "bottom": True,
                                            "overseers": 0}


@sentence("S12")
def test_only_the_three_revealed_cards_can_be_used():
    """A card still in the deck (or gone) is not one of the three revealed cards."""
    s = at_directives()
    seat = s["active"]
    set_cards(s, seat, [0, 4, 8])
    hidden = s["seats"][seat]["deck"][0]
    illegal(s, {"type": "trade", "card": hidden}, "directive.not_revealed")
    illegal(s, {"type": "command", "card": hidden, "action": "sell"}, "directive.not_revealed")
    assert {m["card"] for m in legal(s)} == {0, 4, 8}


@sentence("S12")
@pytest.mark.parametrize("players", [2, 4])
def test_six_turns_use_all_six_halves(players):
    """By the end of phase C every half of the three revealed cards was used once."""
    s = play_until(at_directives(players, seed=9), lambda s: s["phase"] == "regulation")
    for st in s["seats"]:
        assert len(st["cards"]) == data.REVEALED
        assert all(c["top"] and c["bottom"] for c in st["cards"])


@sentence("S13")
@pytest.mark.parametrize("action", data.ACTIONS)
def test_command_tucks_the_card_under_an_action_space(action):
    """The top half is used and the card goes under the chosen personal action space."""
    s = at_directives()
    seat = s["active"]
    set_cards(s, seat, [1, 5, 9])
    s = act(s, {"type": "command", "card": 5, "action": action})
    st = s["seats"][seat]
    assert st["spaces"][action] == 5
    assert [c for c in st["cards"] if c["card"] == 5][0]["top"] is True
    assert sum(card is not None for card in st["spaces"].values()) == 1
    assert len(st["spaces"]) == 5
    assert s["turn"]["action"] == action and s["turn"]["half"] == "top"


@sentence("S14")
@pytest.mark.parametrize("lines", [1, 2, 3])
def test_lines_give_that_many_actions(lines):
    """A card of L lines allows exactly L repetitions (here: Increase Transport Capacity)."""
    s = command(at_directives(), "transport", lines)
    seat = s["active"]
    for _ in range(lines):
        s = act(s, {"type": "advance"})
    assert s["seats"][seat]["ambassador"] == 1 + lines
    illegal(s, {"type": "advance"}, "advance.no_action_left")


@sentence("S14")
@pytest.mark.parametrize("lines", [1, 2, 3])
def test_extra_overseers_up_to_four_in_all(lines):
    """Each extra Overseer from the supply adds one action, until the count is four."""
    s = command(at_directives(), "transport", lines)
    seat = s["active"]
    supply = s["seats"][seat]["overseers"]
    for _ in range(4 - lines):
        s = act(s, {"type": "overseer"})
    assert s["turn"]["allowed"] == 4
    assert s["seats"][seat]["overseers"] == supply - (4 - lines)
    illegal(s, {"type": "overseer"}, "overseer.cap")
    for _ in range(4):
        s = act(s, {"type": "advance"})
    illegal(s, {"type": "advance"}, "advance.no_action_left")


@sentence("S14")
def test_extra_overseers_come_from_the_supply():
    """With no Overseer left in the supply, none can be added."""
    s = command(at_directives(), "transport", 1)
    empty_overseer_supply(s, s["active"])
    illegal(s, {"type": "overseer"}, "overseer.supply")


@sentence("S15")
def test_same_command_action_not_twice_in_a_round():
    """A second Command on an action space already used this round is rejected."""
    s = at_directives()
    seat = s["active"]
    set_cards(s, seat, [0, 4, 8])
    s = act(act(s, {"type": "command", "card": 0, "action": "deploy"}), {"type": "done"})
    s = act(act(s, legal(s)[0]), {"type": "done"})
    illegal(s, {"type": "command", "card": 4, "action": "deploy"}, "command.repeat")
    assert all(m["action"] != "deploy" for m in legal(s, "command"))
    assert {m["action"] for m in legal(s, "command")} == set(data.ACTIONS) - {"deploy"}


@sentence("S16")
def test_the_five_actions():
    """Exactly these five Command actions exist, each with its own moves."""
    names = [a["name"] for a in data.table("orders.json")["command_actions"]]
    assert names == ["Increase Transport Capacity", "Deploy Peasants", "Sell at Local Markets",
                     "Build or Upgrade a Workshop", "Corrupt Administration"]
    kind = SPEC.move_kind("command")
    assert kind.fields["action"]["enum"] == data.ACTIONS
    expected = {"transport": {"advance"}, "deploy": {"deploy", "deploy_tile"},
                "sell": {"sell"}, "build": {"build", "upgrade"}, "corrupt": {"corrupt"}}
    for action, moves in expected.items():
        s = command(at_directives(), action, 1)
        decision = GAME.pending(s)[0]
        assert decision.kind == f"command:{action}"
        assert set(decision.move_types) - {"exchange", "mint", "benefit", "overseer",
                                           "done"} == moves


@sentence("S17")
def test_each_repetition_is_resolved_before_the_next():
    """Each Deploy repetition picks its own option and is complete before the next starts."""
    s = command(at_directives(), "deploy", 3)
    seat = s["active"]
    clear_board(s)
    give(s, seat, sapeques=10)
    s = act(s, {"type": "deploy", "space": "YZ4"})  # fruit: 1 Peasant
    assert s["occupants"]["YZ4"] == {"owner": seat, "count": 1} and s["turn"]["used"] == 1
    assert {m["type"] for m in legal(s)} >= {"deploy", "deploy_tile"}
    s = act(s, {"type": "deploy", "space": "TZM1"})  # salt mine: 2 Peasants
    assert s["occupants"]["TZM1"] == {"owner": seat, "count": 2} and s["turn"]["used"] == 2
    s = act(s, {"type": "deploy_tile", "slot": 5, "field": "SZ8"})
    assert s["occupants"]["SZ8"] == {"owner": seat, "count": 2} and s["turn"]["used"] == 3
    assert s["seats"][seat]["peasants"] == data.PEASANTS - 5
