"""The conformance suite's checks of a decision's moves: every listed move well formed and a
sample accepted; near-misses and moves out of turn refused with a code."""

from __future__ import annotations

from referee.conformance.state import Before, apply_checked, fingerprint
from referee.core import engine
from referee.core.canonical import canonical
from referee.core.errors import NotYourTurn, RefereeError
from referee.core.rng import Rng


class ShapeMemo:
    """Listed moves already found well-formed (and JSON) for a decision's move types.

    A playout lists the same moves at many states; the check depends only on the move types
    the decision takes and the move's exact value, so one check per such pair is enough.
    """

    def __init__(self):
        self._seen: set = set()

    def check(self, game, decision, move) -> None:
        """Raise as `engine.check_move_shape` would, unless this exact move already passed."""
        key = fingerprint(move)
        key = key if key is None else (tuple(decision.move_types), key)
        if key is not None and key in self._seen:
            return
        canonical(move)   # JSON at all
        engine.check_move_shape(game, decision, move)
        if key is not None:
            self._seen.add(key)


def check_listed_moves_accepted(game, state, version, decision, moves, rng, count,
                                 text: bytes | Before | None = None, shapes=None):
    """Every listed move well formed, none twice, a sample accepted; returns the moves' texts
    and the states the sampled moves led to, by the move's identity."""
    assert moves, f"seat {decision.seat} must act ({decision.kind}) but has no legal move"
    shapes = shapes if shapes is not None else ShapeMemo()
    for move in moves:
        shapes.check(game, decision, move)
    texts = [canonical(m) for m in moves]
    assert len(texts) == len(set(texts)), "legal_moves lists a move twice"
    sample = moves if len(moves) <= count else [rng.choice(moves) for _ in range(count)]
    applied = {}
    for move in sample:
        try:
            applied[id(move)] = apply_checked(game, state, version, decision.seat, move, text)
        except RefereeError as err:
            raise AssertionError(f"listed move {move} was rejected: {err.code}: {err}") from err
    return texts, applied


def play_chosen(game, state, version, seat, move, before: Before, applied: dict):
    """The chosen move's next state: the one the sample already computed, if it played this
    very move (apply is pure), after checking that nothing since changed the state."""
    if id(move) not in applied:
        return apply_checked(game, state, version, seat, move, before)
    assert before.unchanged(), f"apply mutated its input state (move {move})"
    return applied[id(move)]


def check_unlisted_rejected(game, state, version, decision, moves, rng, count,
                             players, texts=None) -> int:
    """Near-misses of the listed moves are refused with a code, and so is a move by a seat
    not pending; returns how many probes were made."""
    listed = set(texts if texts is not None else (canonical(m) for m in moves))
    checked = 0
    for _ in range(count):
        probe = _mutate(game, rng.choice(moves), rng, decision)
        if probe is None or canonical(probe) in listed:
            continue
        checked += 1
        try:
            engine.play(game, state, version, decision.seat, probe)
        except RefereeError as err:
            assert err.code, "a rejection without a code"
            continue
        raise AssertionError(f"unlisted move {probe} was accepted for seat {decision.seat}")
    others = [s for s in range(players) if s not in
              {d.seat for d in game.pending(state)}]
    if others:
        try:
            engine.play(game, state, version, rng.choice(others), moves[0])
        except NotYourTurn:
            checked += 1
        except RefereeError as err:
            raise AssertionError(f"a move by a seat not pending gave {err.code}") from err
        else:
            raise AssertionError("a seat that was not pending could move")
    return checked


def _mutate(game, move: dict, rng: Rng, decision=None):
    """A near-miss of a legal move: one field changed, dropped, or the type swapped; or a
    bare move (or the declared example) of a type the decision takes."""
    fields = [k for k in move if k != "type"]
    choice = rng.below(5)
    probe = dict(move)
    if choice == 4 and decision is not None:
        kind = engine.move_kind(game, decision, rng.choice(decision.move_types))
        return dict(kind.example) if kind.example and rng.below(2) else {"type": kind.type}
    if choice == 0 and fields:
        key = rng.choice(fields)
        probe[key] = _nudge(probe[key], rng)
    elif choice == 1 and fields:
        del probe[rng.choice(fields)]
    elif choice == 2:
        probe["type"] = rng.choice([k.type for k in game.spec.moves])
    else:
        probe["unexpected_field"] = 1
    return probe


def _nudge(value, rng: Rng):
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + rng.choice([-2, -1, 1, 2, 17])
    if isinstance(value, str):
        return value + "x" if rng.below(2) else ""
    if isinstance(value, list):
        return value[:-1] if value and rng.below(2) else value + value[:1]
    if isinstance(value, dict) and value:
        key = rng.choice(sorted(value))
        return {**value, key: _nudge(value[key], rng)}
    return None
