"""Renderers: the generic text of any game's data, and the registry phase 2 plugs into."""

from __future__ import annotations

import json

from referee_client import render
from referee_client.render import Renderer, renderer_for
from referee_client.render.generic import outline

GAME = {"name": "toy", "moves": [{"type": "bid", "description": "bid a card"},
                                 {"type": "pass", "description": ""}]}


def test_outline_of_a_nested_view():
    """Scalars and short lists on one line each, nested objects indented, None as a dash."""
    view = {"round": 2, "my_bid": None, "hands": [[1, 2], [3]], "done": True,
            "players": [{"name": "a", "coins": 3}], "board": {"rows": [[0, 1], [1, 0]]},
            "empty": {}}
    assert outline(view) == [
        "round: 2", "my bid: -", "hands: [[1, 2], [3]]", "done: yes",
        "players:", "  [0]:", "    name: a", "    coins: 3",
        "board:", "  rows: [[0, 1], [1, 0]]", "empty: {}"]


def test_a_long_list_is_one_item_a_line():
    """Lists too wide for a line are broken up, one item per line."""
    lines = outline({"log": ["a fairly long entry number %d" % i for i in range(4)]})
    assert lines[0] == "log:" and lines[1] == "  [0]: a fairly long entry number 0"
    assert len(lines) == 5


def test_moves_are_numbered_with_each_type_described_once():
    """The numbers the terminal player accepts, from 1, and what each move type does."""
    text = Renderer(GAME).moves([{"type": "bid", "card": 1}, {"type": "bid", "card": 2},
                                 {"type": "pass"}, {"type": "bid", "cards": [1, 2]}])
    assert text.splitlines() == ["  1. bid card=1    (bid a card)", "  2. bid card=2",
                                 "  3. pass", "  4. bid cards=[1, 2]"]


def test_decision_and_result():
    """The decision names its kind and sealing; the result lists seats best first."""
    r = Renderer(GAME)
    decision = r.decision({"kind": "bid", "move_types": ["bid"], "sealed": True,
                           "prompt": {"prize": 3}})
    assert decision.splitlines()[0].startswith("decide: bid (moves: bid) - sealed")
    assert "  prize: 3" in decision.splitlines()
    result = r.result({"scores": [1, 5], "ranks": [2, 1], "termination": "forfeit",
                       "failures": {"0": {"code": "bot.timeout"}}},
                      [{"seat": 0, "name": "slow"}, {"seat": 1, "name": "quick"}], mine={1})
    assert result.splitlines() == ["result (forfeit):", "  #1  seat 1 quick (you)  score 5",
                                   "  #2  seat 0 slow  score 1", "  seat 0 failed: bot.timeout"]
    assert "stopped by an admin" in r.result({"termination": "aborted",
                                              "reason": "stopped by an admin"})


def test_registry_picks_a_game_renderer_else_the_generic_one(monkeypatch):
    """A renderer registered for a game is used for it; other games get the generic one."""
    # an empty registry with no builtin modules to load (a builtin imported for the first
    # time here would register itself into it)
    monkeypatch.setattr(render, "_RENDERERS", {})
    monkeypatch.setattr(render, "BUILTIN", {})  # the shipped games' renderers are not under test

    @render.register("toy")
    class ToyRenderer(Renderer):
        def view(self, view, seat=None):
            return f"toy board with {len(view['cells'])} cells"

    assert isinstance(renderer_for("toy", GAME), ToyRenderer)
    assert renderer_for("toy", GAME).view({"cells": [0, 0, 1]}) == "toy board with 3 cells"
    assert renderer_for("toy", GAME).move({"type": "bid", "card": 1}) == "bid card=1"
    assert type(renderer_for("other")) is Renderer
    assert render.registered() == {"toy": ToyRenderer}


def test_shipped_renderers_survive_a_swapped_registry(monkeypatch):
    """A builtin game's renderer is found by its module, whatever the registry held when
    that module was first imported."""
    with monkeypatch.context() as patch:
        patch.setattr(render, "_RENDERERS", {})
        first = {game: type(renderer_for(game)) for game in render.BUILTIN}
    again = {game: type(renderer_for(game)) for game in render.BUILTIN}
    assert first == again and Renderer not in again.values()


def test_yinzi_components_come_from_the_view():
    """The Yinzi view carries its component tables; the client copies agree with them and
    follow them if the service's data changes."""
    from referee.games import GAMES
    from referee.core import engine
    from referee_client.render import yinzi_ming as yz

    game = GAMES.get("yinzi-ming")
    view = game.view(engine.start(game, 2, None, 1)[1], 0)
    parts = view["components"]
    assert parts["workshops"] == yz.GOOD_OF and parts["inputs"] == yz.INPUT
    assert {s: (v["flag"], v["goods"]) for s, v in parts["ships"].items()} == yz.SHIPS
    changed = {**view, "components": {**parts, "workshops": {**parts["workshops"],
                                                             "W01": "spirits"}}}
    try:
        yz.learn(changed)
        assert yz.GOOD_OF["W01"] == "spirits"
    finally:
        yz.learn(view)
    assert yz.GOOD_OF["W01"] == parts["workshops"]["W01"]


def test_yinzi_slot_and_benefit_texts_come_from_the_game_description():
    """The register and Administration lines read what each slot and space does from
    GET /v1/games/yinzi-ming's board, so a data change on the service shows at once; without
    a description the renderer still names them."""
    from referee.core import engine
    from referee.games import GAMES
    from referee.service.described import describe

    game = GAMES.get("yinzi-ming")
    view = game.view(engine.start(game, 2, None, 1)[1], 0)
    info = json.loads(json.dumps(describe(game)))
    text = renderer_for("yinzi-ming", info).view(view, 0)
    assert "Tax Exemption: no tax for 1 of your Workshops in this round's Regulation" in text
    assert "B2 River Permit: +2 transport points for this Directive turn" in text
    slots = info["board"]["bonus_slots"]["value"]["value"]
    slots[0]["text"] = "+7 Sapeques at once"
    assert "Imperial Audience: +7 Sapeques at once" in renderer_for("yinzi-ming", info).view(
        view, 0)
    bare = renderer_for("yinzi-ming").view(view, 0)
    assert "5 Tax Exemption" in bare and "B6 Imperial Commendation" in bare
    # rules 5: the sixth slot, named from the description and without it
    assert ("Kiln Licence: your first Workshop, if you build it this round, needs 1 Stone less"
            in text)
    assert "6 Kiln Licence" in bare


def test_the_dschunke_renderer_takes_the_board_from_the_game_description():
    """Ring, goods and rounds come from GET /v1/games/dschunke's board when served; the last
    reveal of the round just ended is shown until the next poker."""
    from referee.core import engine
    from referee.games.dschunke import GAME

    board = GAME.board()
    board["rounds"] = {"description": "test", "value": {"value": 12, "status": "PROPOSAL",
                                                        "source": "a test's own number"}}
    renderer = renderer_for("dschunke", {"board": board})
    _, state = engine.start(GAME, 3, {}, 4)
    text = renderer.view(GAME.view(state, 0), 0)
    assert "round 1 of 12" in text
    assert renderer_for("dschunke").rounds == 10  # no description served: the built-in number
    view = GAME.view(state, 0)
    view["poker"] = None
    view["last_poker"] = {"round": 3, "reveal": {
        "round": 2, "bids": [{"stake": {"white": 2}, "valid": True}, None,
                             {"stake": {"white": 1, "brown": 1}, "valid": False}],
        "winners": {"white": [0]}, "paid": [4, 0, 0], "s_winner": None,
        "settled": ["white"], "any_valid": True}}
    text = renderer.view(view, 0)
    assert "goods poker of round 3, final reveal (bidding round 2): red 2 white, won 4; " \
           "green 1 white, 1 brown (void)" in text
