"""Where moves act on the drawn boards, without a browser: every place a legal move names is
drawn (so a click on the board can pick it), the last move's places are marked, every seat
marker carries its seat's number or letter, and the decision words are whole sentences."""

from __future__ import annotations

import random
import re

import pytest

from referee.core import engine
from referee.games import GAMES as REGISTRY
from referee.web import boards
from referee.web.boards import Context
from referee.web.pages import _decision_words
from tests.web.conftest import GAMES

PLACE = re.compile(r'<g class="place( last)?" data-place="([^"]+)"')


def _states(game: str, seed: int, steps: int):
    """(state, seat to act, its legal moves) along a random game of `game`."""
    g = REGISTRY.get(game)
    rng = random.Random(seed)
    _, state = engine.start(g, 3, {}, seed)
    for version in range(steps):
        pending = g.pending(state)
        if not pending:
            return
        seat = pending[0].seat
        legal = g.legal_moves(state, seat)
        yield state, seat, legal
        state, _ = engine.play(g, state, version, seat, rng.choice(legal))


@pytest.mark.parametrize("game", GAMES)
def test_every_place_a_legal_move_names_is_drawn(game):
    g, named, kinds = REGISTRY.get(game), 0, set()
    for state, seat, legal in _states(game, 5, 700):
        svg = str(boards.draw(game, g.view(state, seat), Context(viewer=seat)))
        drawn = {m.group(2) for m in PLACE.finditer(svg)}
        for move in legal:
            for key in boards.places(game, move):
                assert key in drawn, (move, key)
                named += 1
                kinds.add(move["type"])
    assert named > 50 and len(kinds) >= 3, (named, kinds)   # the test saw places of several kinds


@pytest.mark.parametrize("game", GAMES)
def test_the_last_moves_places_are_marked_and_nothing_else(game):
    g, marked = REGISTRY.get(game), 0
    for state, seat, legal in _states(game, 6, 300):
        for move in legal[:3]:
            keys = set(boards.places(game, move))
            svg = str(boards.draw(game, g.view(state, None), Context(last=frozenset(keys))))
            last = {m.group(2) for m in PLACE.finditer(svg) if m.group(1)}
            assert last == keys, (move, last)
            marked += bool(keys)
    assert marked > 20


def test_a_hidden_move_names_no_place():
    assert boards.places("dschunke", None) == [] and boards.places("nosuchgame", {}) == []


SEAT_FILL = re.compile(r'fill="(#d62728|#1f77b4|#2ca02c)"')


@pytest.mark.parametrize("game", GAMES)
def test_every_seat_coloured_piece_carries_a_mark(game):  # noqa: C901 (one scan)
    """Not colour alone: each shape filled in a seat's colour is followed by text on it (its
    number, letter or count with the number), at some point of a random game."""
    g = REGISTRY.get(game)
    for state, seat, _ in _states(game, 7, 400):
        svg = str(boards.draw(game, g.view(state, None), Context()))
        for m in SEAT_FILL.finditer(svg):
            tail = svg[m.end():m.end() + 400]
            start = svg.rfind("<", 0, m.start())
            if svg.startswith("<text", start):   # a coloured word (a Yunnan bid value): fine
                continue
            on_it = re.match(r"[^<]*/>\s*<text[^>]*>[^<]+</text>", tail)
            assert on_it, (game, svg[start:m.end() + 80])


def test_the_decision_words_are_whole_sentences(app):
    """The renderer wraps a decision's sentence for a terminal; the pages show all of it
    (the Yinzi seat page cut it after the first wrapped line)."""
    with app.app_context():
        words = _decision_words("yinzi-ming", {"decision": "start_peasants"})
        directive = _decision_words("yinzi-ming", {"decision": "directive"})
    assert words == ("start_peasants: put your 2 starting Peasants on an unattended Rice, "
                     "Maize or Salt Mine space")
    assert directive.endswith("its value in Produce / Ship / Quarry)"), directive
