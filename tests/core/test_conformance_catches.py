"""The conformance suite fails on broken games: each broken copy of the test game below
breaks one promise, and the suite must name it."""

from __future__ import annotations

import pytest

from referee.conformance import run_playout
from referee.core import IllegalMove
from referee.core.copying import deep_copy
from tests.support.gops import Gops


class LeakyView(Gops):
    """Shows every sealed bid."""

    def view(self, state, seat):
        return {**super().view(state, seat), "bids": state["bids"]}


class LeakyServedView(Gops):
    """Shows every sealed bid in the view the service sends; `view` is its copy (as in the
    games whose served view shares the state's objects)."""

    def served_view(self, state, seat, memo=None):
        return {**super().view(state, seat), "bids": state["bids"]}

    def view(self, state, seat):
        return deep_copy(self.served_view(state, seat))


class ServedViewDiffers(Gops):
    """Sends a view that is not what `view` returns."""

    def served_view(self, state, seat, memo=None):
        return {**super().view(state, seat), "cards_left": -1}


class SeedInView(Gops):
    """Shows the match seed."""

    def view(self, state, seat):
        return {**super().view(state, seat), "seed": state["seed"]}


class MutatingApply(Gops):
    """Changes the state it was given."""

    def apply(self, state, seat, move):
        new = super().apply(state, seat, move)
        state["scores"][0] += 1
        return new


class HiddenLegalMove(Gops):
    """Lists fewer moves than it accepts: keep is accepted but never listed."""

    def legal_moves(self, state, seat):
        return [m for m in super().legal_moves(state, seat) if m["type"] != "keep"]


class RefusesListedMove(Gops):
    """Lists a move it then refuses."""

    def apply(self, state, seat, move):
        if move["type"] == "bid" and move["card"] == 1:
            raise IllegalMove("bid.one", "no ones")
        return super().apply(state, seat, move)


class RandomSetup(Gops):
    """Sets up differently each time for one seed."""

    calls = 0

    def setup(self, players, options, seed):
        RandomSetup.calls += 1
        return super().setup(players, options, seed + RandomSetup.calls)


class LostRoundTrip(Gops):
    """Forgets the scores when loaded from a dict."""

    def from_dict(self, data):
        state = super().from_dict(data)
        state["scores"] = [0] * state["players"]
        return state


BROKEN = [
    (LeakyView, "leaks what it must not show"),
    (LeakyServedView, "leaks what it must not show"),
    (ServedViewDiffers, "view and served_view differ"),
    (SeedInView, "shows the match seed"),
    (MutatingApply, "mutated its input state"),
    (HiddenLegalMove, "was accepted"),
    (RefusesListedMove, "was rejected"),
    (RandomSetup, "setup is not deterministic"),
    (LostRoundTrip, "do not round-trip"),
]


@pytest.mark.parametrize("broken, message", BROKEN, ids=[b[0].__name__ for b in BROKEN])
def test_the_suite_catches_a_broken_game(broken, message):
    """Some seed of a few exposes the broken promise, with the suite's message."""
    failures = []
    for seed in range(8):
        try:
            run_playout(broken(), 3, {"cards": 5}, 7_340_000_000_000 + seed)
        except AssertionError as err:
            failures.append(str(err))
    assert failures and any(message in f for f in failures), failures[:2]


def test_the_sound_game_passes():
    """The unbroken game passes the same runs."""
    for seed in range(8):
        assert run_playout(Gops(), 3, {"cards": 5}, 7_340_000_000_000 + seed).moves > 0


def test_a_view_that_does_not_fit_its_published_schema_is_caught():
    """Issue 13: the conformance suite holds every view to the schema the game publishes."""
    class Undocumented(Gops):
        def view_schema(self, spectator=False):
            return {"type": "object", "properties": {"prize": {"type": "integer"}},
                    "additionalProperties": False}

    with pytest.raises(AssertionError, match="does not fit the game's view schema"):
        run_playout(Undocumented(), 2, {}, 7)
