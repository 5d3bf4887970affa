"""The conformance suite's checks of views: each fits the game's published schema, shows no
seed, equals `served_view`, and stays the same when hidden information is re-dealt."""

from __future__ import annotations

import marshal

from referee.core.canonical import canonical
from referee.core.game import Game
from referee.core.schema import schema_errors
from referee.core.schemafast import checker, conforms


SEED_LEAK_MINIMUM = 10**6
"""Seeds at least this large are looked for in views: a view that shows the seed shows all."""



def check_view_copy(game, state, viewer, served) -> None:
    """`view` equals `served`, the `served_view` of the same state and viewer."""
    view = game.view(state, viewer)
    assert view == served, (f"view and served_view differ for "
                            f"{'the spectator' if viewer is None else f'seat {viewer}'}\n"
                            f"{first_difference(served, view)}")


def check_view_hides(game, state, viewer, view, rng, seed, data, seats=None,
                      schemas=None) -> int:
    """`view` (the served view of `state` for `viewer`) fits its schema, shows no seed, and
    stays the same when hidden information is re-dealt; returns 1 if the re-deal changed the
    state (0: nothing hidden to re-deal)."""
    check_view_schema(game, view, viewer, schemas)
    if seed is not None and seed >= SEED_LEAK_MINIMUM:
        assert str(seed).encode() not in canonical(view), "a view shows the match seed, from which " \
                                                  "every hidden card and draw can be computed"
    other = game.redetermine(state, viewer, rng)
    other_view = game.served_view(other, viewer)
    # equal objects are equal JSON; only unequal ones need the canonical text to decide
    assert other_view == view or canonical(other_view) == canonical(view), (
        f"the view of {'the spectator' if viewer is None else f'seat {viewer}'} changes when "
        f"hidden information is re-dealt: it leaks what it must not show\n"
        f"{first_difference(view, other_view)}")
    if seats is None:
        seats = [d.seat for d in game.pending(state)]
    assert [d.seat for d in game.pending(other)] == seats, "redetermine changed who must act"
    # the state itself back means nothing was re-dealt: no need to serialise it again (and
    # only compared, so `stored`, which may share the state's objects, does)
    return 0 if other is state else int(game.stored(other) != data)


def check_view_schema(game, view, viewer, schemas=None) -> None:
    """The view fits the schema the game publishes for it (GET /v1/games/{game}), so the
    documentation cannot drift from the code; games that publish none are not held to one."""
    schema = game.view_schema(viewer is None)
    if schema is None or view is None:  # None: a set-up still waiting for chance
        return
    if schemas is not None and schemas.conforms(view, viewer is None, schema):
        return
    errors = schema_errors(view, schema, "view", "view")
    assert not errors, (f"the view of {'the spectator' if viewer is None else f'seat {viewer}'}"
                        f" does not fit the game's view schema: {'; '.join(errors[:5])}")


_CONTAINERS = (dict, list)

_CLOSED_OBJECT = frozenset({"type", "properties", "required", "additionalProperties",
                            "description", "title"})


class ViewSchemaMemo:
    """A playout's views judged part by part: most of a view (the printed tables, the options,
    whatever the last move left alone) is the same at the next state and for the next
    viewer, so each top-level part is checked against its property's schema once per exact
    value (its marshal bytes, as `fingerprint`). Only a yes is remembered; a no goes to the
    full walk for its message. Views whose schema is not a closed object are checked whole.

    Each view schema is read once (per spectator flag, while the game hands out the same
    schema object): whether it is a closed object, its required names, and the compiled
    check of each property, so judging a part costs no schema lookups."""

    def __init__(self, game: Game):
        self.game, self._passed, self._plans = game, set(), {}

    def conforms(self, view, spectator: bool, schema: dict) -> bool:
        """Whether `view` fits `schema` (the same verdict as `schemafast.conforms`)."""
        plan = self._plans.get(spectator)
        if plan is None or plan[0] is not schema:
            plan = self._plans[spectator] = (schema, _plan(schema))
        parts = plan[1]
        if parts is None or type(view) is not dict:
            return conforms(view, schema)
        required, checks = parts
        if not view.keys() >= required:
            return False
        passed, dumps = self._passed, marshal.dumps
        for key, value in view.items():
            check = checks.get(key)
            if check is None:
                return False
            if type(value) not in _CONTAINERS:  # a number or a string: cheaper to check
                if not check(value):
                    return False
                continue
            try:  # `fingerprint`, inlined: this loop runs for every part of every view
                memo = (spectator, key, dumps(value, 2))
            except ValueError:  # not plain data: checked every time
                if not check(value):
                    return False
                continue
            if memo in passed:
                continue
            if not check(value):
                return False
            passed.add(memo)
        return True


def _plan(schema: dict):
    """(required names, compiled check by property) of a closed-object view schema; None
    for any other schema (checked whole)."""
    props = schema.get("properties")
    if (schema.get("type") != "object" or props is None
            or schema.get("additionalProperties", True) is not False
            or not _CLOSED_OBJECT.issuperset(schema)):
        return None
    return frozenset(schema.get("required", ())), {k: checker(v) for k, v in props.items()}


def first_difference(a, b, path="view") -> str:
    """Where two JSON values first differ, as `path: a != b` (for assertion messages)."""
    if type(a) is not type(b):
        return f"{path}: {a!r} != {b!r}"
    if isinstance(a, dict):
        for key in sorted(set(a) | set(b), key=str):
            if a.get(key) != b.get(key):
                return first_difference(a.get(key), b.get(key), f"{path}.{key}")
    if isinstance(a, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return first_difference(x, y, f"{path}[{i}]")
    return f"{path}: {a!r} != {b!r}"
