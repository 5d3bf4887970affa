"""Listing legal moves asks the rules' checks only yes or no (the kit's shared refusal, the
games' gates): over playouts of the three games, every candidate's verdict and every listing
equal what the full checks say, each refusal built in full."""

from __future__ import annotations

import pytest

from referee.core import IllegalMove, engine, kit
from referee.core.kit import listing
from referee.core.bots import random_move
from referee.games import GAMES


class _Never:
    """A listing flag that never turns on: every refusal is built in full, as before."""

    depth = 0

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc) -> None:
        pass


def _full_verdict(rule, state, seat, move) -> bool:
    """The check's verdict with its refusal built in full (and a real one)."""
    try:
        refusal = rule.check(state, seat, move)
    except IllegalMove as err:
        refusal = err
    assert refusal is None or (refusal is not listing._REFUSED
                               and refusal.code.startswith("move.illegal."))
    return refusal is None


def _positions(game, players: int, seed: int):
    """(state, seat) for every pending seat of a random playout."""
    _, state = engine.start(game, players, None, seed)
    for version in range(3000):
        decisions = game.pending(state)
        if not decisions:
            return
        for decision in decisions:
            yield state, decision.seat
        seat = decisions[0].seat
        state, _ = engine.play(game, state, version, seat,
                               random_move(game, state, seat, seed, version))


@pytest.mark.parametrize("name", ["dschunke", "yunnan", "yinzi-ming"])
def test_listing_agrees_with_full_checks(name, monkeypatch):
    """Same candidates, same verdict on each, same listing, and no gate closed on a legal
    move (audit_listing in full), with refusals shared while listing and built in full."""
    game = GAMES.get(name)
    positions = checked = 0
    for players in sorted({game.spec.min_players, game.spec.max_players}):
        for seed in range(2):
            for state, seat in _positions(game, players, seed):
                found = game._decision_of(state, seat)
                with listing._listing:   # as inside legal_moves (Yunnan builds bids so)
                    pairs = list(game._candidates(state, seat, *found, gated=False))
                cheap = [kit.accepts(rule, state, seat, move) for rule, move in pairs]
                listed = game.legal_moves(state, seat)
                with monkeypatch.context() as patch:
                    patch.setattr(listing, "_listing", _Never())
                    assert list(game._candidates(state, seat, *found, gated=False)) == pairs
                    assert [_full_verdict(r, state, seat, m) for r, m in pairs] == cheap
                    assert game.legal_moves(state, seat) == listed
                    assert kit.audit_listing(game, state, seat) == []
                positions, checked = positions + 1, checked + len(pairs)
    assert positions > 300 and checked > positions
