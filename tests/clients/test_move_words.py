"""Every shipped game's moves read as words in the terminal (issue 15 item 7: Yinzi moves
printed raw, `command card=7 action=transport`), and help text fits a 100-column terminal."""

from __future__ import annotations

import random
import re

import pytest

from referee.core import engine
from referee.games import GAMES
from referee_client.render import renderer_for
from referee_client.render.generic import MAX_WIDTH

SHIPPED = ["dschunke", "yunnan", "yinzi-ming"]
RAW = re.compile(r"\b\w+=")  # the generic `type key=value` form


def _info(game) -> dict:
    """What GET /v1/games/{game} says of the moves (the renderer's input)."""
    return {"name": game.spec.name,
            "moves": [{"type": k.type, "description": k.description} for k in game.spec.moves]}


def _positions(game, players: int, seeds=(0, 1)):
    """(view, legal moves) of the seat to act at every step of random matches."""
    for seed in seeds:
        _, state = engine.start(game, players, None, seed)
        rng, number = random.Random(seed), 0
        while decisions := game.pending(state):
            seat = decisions[0].seat
            legal = game.legal_moves(state, seat)
            yield game.view(state, seat), seat, legal
            state, _ = engine.play(game, state, number, seat, rng.choice(legal))
            number += 1


@pytest.mark.parametrize("name", SHIPPED)
def test_every_move_is_described_in_words(name, monkeypatch):
    """Every legal move met in random matches, and every move type's example, is words:
    no `key=value`, no JSON; every move type of the game is met or exemplified."""
    monkeypatch.setenv("COLUMNS", "100")
    game = GAMES.get(name)
    renderer = renderer_for(name, _info(game))
    met = set()
    for view, seat, legal in _positions(game, game.spec.min_players + 1):
        renderer.view(view, seat)
        for move in legal:
            text = renderer.move(move)
            assert not RAW.search(text) and "{" not in text, (move, text)
            met.add(move["type"])
        lines = renderer.moves(legal).splitlines()
        assert all(len(line) <= MAX_WIDTH for line in lines), lines
    for kind in game.spec.moves:
        if kind.example is not None:
            text = renderer.move(kind.example)
            assert not RAW.search(text) and "{" not in text, (kind.example, text)
            met.add(kind.type)
        elif not kind.fields:  # a move with no fields has one form: {"type": ...}
            text = renderer.move({"type": kind.type})
            assert not RAW.search(text), text
            met.add(kind.type)
    assert met == {k.type for k in game.spec.moves}


def test_the_yinzi_command_of_the_issue_reads_as_words():
    """The move the issue quotes, and the crops and rate a view gives the words."""
    renderer = renderer_for("yinzi-ming", _info(GAMES.get("yinzi-ming")))
    assert renderer.move({"type": "command", "card": 7, "action": "transport"}) == \
        "play card #7 as a Command Directive: Increase Transport Capacity"
    renderer.last_view = {"board": {"YZ2": {"crop": "rice"}}, "exchange": {"rate": 4}}
    assert renderer.move({"type": "deploy", "space": "YZ2"}) == \
        "deploy Peasants on YZ2 (Yangzhou, rice)"
    assert renderer.move({"type": "mint", "direction": "buy"}) == \
        "Mint Contact (B4): pay 3 Sapeques for 1 Yinzi"


@pytest.mark.parametrize("columns", ["60", "250"])
def test_long_move_help_is_wrapped_under_its_move(columns, monkeypatch):
    """A description too long for the line goes under the move, wrapped to the terminal
    (never wider than 100 columns)."""
    monkeypatch.setenv("COLUMNS", columns)
    game = GAMES.get("dschunke")
    text = renderer_for("dschunke", _info(game)).moves([{"type": "bid", "goods": "white",
                                                          "count": 2}])
    lines = text.splitlines()
    assert lines[0] == "  1. bid 2 white" and len(lines) > 2
    assert all(len(line) <= min(int(columns), MAX_WIDTH) for line in lines)
    assert " ".join(line.strip() for line in lines[1:]).startswith("(Phase 4 (sealed): lay")
