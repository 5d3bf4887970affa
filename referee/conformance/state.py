"""The conformance suite's judgement of a state: its canonical text, exact fingerprints that
stand for it cheaply, and a move applied with the check that it left its input alone."""

from __future__ import annotations

import marshal

import orjson

from referee.core import engine
from referee.core.canonical import canonical, parse
from referee.core.copying import JSON_ONLY
from referee.core.game import Game
from referee.core.kit import KitGame


def snapshot(game: Game, state) -> bytes:
    """The state as canonical JSON text: what 'unchanged' and 'the same' are judged by."""
    return canonical(game.to_dict(state))


def fingerprint(value) -> bytes | None:
    """Exact bytes of plain data (builtin types only, exact types kept), or None if not plain.

    Equal fingerprints mean equal values of the same types, so their canonical JSON is equal
    too; marshal version 2 writes no back-references, so the bytes depend on the value alone.
    """
    try:
        return marshal.dumps(value, 2)
    except ValueError:
        return None


_CANONICAL = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS
"""orjson's options in `canonical`: the same text."""


def canonical_and_parsed(data) -> tuple[bytes, object]:
    """`canonical(data)` and `parse` of it. Text orjson wrote (integers within 64 bits,
    floats in their shortest exact form) orjson reads back to the same value as `parse`,
    several times faster; text only the standard library could write, it reads too."""
    try:
        text = orjson.dumps(data, option=_CANONICAL)
    except TypeError:
        text = canonical(data)
        return text, parse(text)
    return text, orjson.loads(text)


class Before:
    """A state's canonical text as first seen, to tell whether anything later changed it.

    `exact` says the text was taken from the state just now, so its bytes can stand beside it.
    """

    def __init__(self, game: Game, state, text: bytes, exact: bool = True):
        self.game, self.state, self.text = game, state, text
        self.fingerprint = _state_fingerprint(game, state) if exact else None

    def unchanged(self) -> bool:
        """Whether the state still has its canonical text (its exact bytes first: cheaper)."""
        if (self.fingerprint is not None
                and _state_fingerprint(self.game, self.state) == self.fingerprint):
            return True
        return snapshot(self.game, self.state) == self.text


def _state_fingerprint(game: Game, state) -> bytes | None:
    """Bytes whose equality means equal canonical text of the state (`snapshot`).

    A kit game's `to_dict` is an exact copy of its state, so the snapshot is the state's own
    canonical JSON, which its orjson text (keys in place, builtin types only) decides: the
    same text, the same JSON value, the same sorted text; about 3x cheaper than marshal's
    bytes. Any other game's `to_dict` is its own code: its state is told by `fingerprint`.
    """
    if type(game).to_dict is KitGame.to_dict:
        try:
            return b"j" + orjson.dumps(state, option=JSON_ONLY)
        except TypeError:  # orjson.JSONEncodeError: not JSON data as it is
            pass
    found = fingerprint(state)
    return found if found is None else b"m" + found



def apply_checked(game, state, version, seat, move, before: bytes | Before | None = None):
    """Play a move through the engine and check that its input state did not change."""
    if before is None:
        before = Before(game, state, snapshot(game, state))
    elif not isinstance(before, Before):  # a text taken earlier: judged by the text alone
        before = Before(game, state, before, exact=False)
    new_state, _ = engine.play(game, state, version, seat, move)
    assert before.unchanged(), f"apply mutated its input state (move {move})"
    return new_state
