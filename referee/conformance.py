"""The conformance suite every registered game must pass: random legal playouts, checked.

Pure (no I/O), so game authors can run it on their own game: `run_playout(game, players,
options, seed)` raises AssertionError naming the first broken promise of the game contract.
"""

from __future__ import annotations

import marshal
from dataclasses import dataclass, field

import orjson

from referee import conformance_chance as chancecheck
from referee.conformance_positions import check_position
from referee.core import engine
from referee.core.canonical import canonical, parse
from referee.core.chance import CHANCE, INTERNAL
from referee.core.copying import JSON_ONLY
from referee.core.errors import NotYourTurn, RefereeError
from referee.core.game import Game
from referee.core.kit import KitGame
from referee.core.rng import Rng
from referee.core.schema import schema_errors
from referee.core.schemafast import checker, conforms

MAX_MOVES = 50_000


@dataclass
class PlayoutStats:
    """What one playout did: moves, probes rejected, the log and the final state."""

    moves: int = 0
    probes: int = 0
    redeterminations_differing: int = 0
    checked_states: int = 0
    log: list = field(default_factory=list)
    final_state: object = None


def uniform_choice(state, decision, moves, rng):
    """The default chooser of playouts: any listed move, uniformly."""
    return rng.choice(moves)


def run_playout(game: Game, players: int, options: dict | None, seed: int, *,
                accept_all: int = 4, probes: int = 6, views: bool = True,
                choose=uniform_choice, chance: str = INTERNAL) -> PlayoutStats:
    """Play one match to the end, checking the contract at every state.

    `choose(state, decision, moves, rng)` picks each move among the listed ones; a game can
    bias it to reach rare rules (it must return one of `moves`). `chance="external"` plays
    the chance seat too (its listed outcomes, chosen alike); an internal playout of a game
    with `external_chance` is also converted to an external-chance log and replayed.
    """
    options, state = engine.start(game, players, options, seed, chance)
    if chance == INTERNAL:
        _check_same_setup(game, players, options, seed, state)
    else:
        chancecheck.check_same_external_setup(game, players, options, state)
    rng = Rng(seed, "conformance")
    stats, version = PlayoutStats(), 0
    shapes, schemas = _ShapeMemo(), _ViewSchemaMemo(game)
    while True:
        before = _check_state(game, state, players, stats, rng, views, seed, schemas)
        decisions = game.pending(state)
        if not decisions:
            break
        assert version < MAX_MOVES, f"no end after {MAX_MOVES} moves"
        decision = rng.choice(decisions)
        moves = game.legal_moves(state, decision.seat)
        texts, applied = _check_listed_moves_accepted(game, state, version, decision, moves,
                                                      rng, accept_all, before, shapes)
        stats.probes += _check_unlisted_rejected(game, state, version, decision, moves, rng,
                                                 probes, players, texts)
        stats.probes += chancecheck.check_chance_not_pending(game, state, version, decisions)
        move = choose(state, decision, moves, rng)
        assert move in moves, f"the chooser returned an unlisted move {move}"
        state = _play_chosen(game, state, version, decision.seat, move, before, applied)
        stats.log.append((decision.seat, move))
        version += 1
    _check_outcome(game, state, players)
    _check_replay(game, players, options, seed, stats.log, state, chance)
    if chance == INTERNAL and game.external_chance:
        chancecheck.check_conversion(game, players, options, seed, stats.log, state)
    stats.moves, stats.final_state = version, state
    return stats


def _snapshot(game: Game, state) -> bytes:
    """The state as canonical JSON text: what 'unchanged' and 'the same' are judged by."""
    return canonical(game.to_dict(state))


def _fingerprint(value) -> bytes | None:
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


def _canonical_and_parsed(data) -> tuple[bytes, object]:
    """`canonical(data)` and `parse` of it. Text orjson wrote (integers within 64 bits,
    floats in their shortest exact form) orjson reads back to the same value as `parse`,
    several times faster; text only the standard library could write, it reads too."""
    try:
        text = orjson.dumps(data, option=_CANONICAL)
    except TypeError:
        text = canonical(data)
        return text, parse(text)
    return text, orjson.loads(text)


class _Before:
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
        return _snapshot(self.game, self.state) == self.text


def _state_fingerprint(game: Game, state) -> bytes | None:
    """Bytes whose equality means equal canonical text of the state (`_snapshot`).

    A kit game's `to_dict` is an exact copy of its state, so the snapshot is the state's own
    canonical JSON, which its orjson text (keys in place, builtin types only) decides: the
    same text, the same JSON value, the same sorted text; about 3x cheaper than marshal's
    bytes. Any other game's `to_dict` is its own code: its state is told by `_fingerprint`.
    """
    if type(game).to_dict is KitGame.to_dict:
        try:
            return b"j" + orjson.dumps(state, option=JSON_ONLY)
        except TypeError:  # orjson.JSONEncodeError: not JSON data as it is
            pass
    found = _fingerprint(state)
    return found if found is None else b"m" + found


def _check_same_setup(game, players, options, seed, state) -> None:
    again = game.setup(players, options, seed)
    assert _snapshot(game, again) == _snapshot(game, state), "setup is not deterministic"


SEED_LEAK_MINIMUM = 10**6
"""Seeds at least this large are looked for in views: a view that shows the seed shows all."""


def _check_state(game, state, players, stats, rng, views, seed=None, schemas=None) -> _Before:
    """Every per-state promise; returns the state as first seen (its canonical text), for the
    checks after to tell whether anything changed it."""
    data = game.to_dict(state)
    text, parsed = _canonical_and_parsed(data)
    before = _Before(game, state, text)
    assert canonical(game.to_dict(game.from_dict(parsed))) == text, \
        "to_dict/from_dict do not round-trip"
    check_position(game, state, parsed)
    decisions = game.pending(state)
    seats = [d.seat for d in decisions]
    assert len(seats) == len(set(seats)), f"a seat has two pending decisions: {seats}"
    assert all(0 <= s < players or s == CHANCE for s in seats), \
        f"pending seat out of range: {seats}"
    chancecheck.check_chance_decision(game, state, decisions)
    assert (game.outcome(state) is None) == bool(decisions), \
        "outcome must be None exactly while decisions are pending"
    for seat in (*range(players), CHANCE):
        if seat not in seats:
            assert game.legal_moves(state, seat) == [], f"seat {seat} not pending has legal moves"
    if views:
        memo = {}   # one for the state's viewers, as the service keeps it (Game.served_view)
        served = {viewer: game.served_view(state, viewer, memo)
                  for viewer in [None, *range(players)]}
        # a re-deal is told apart by its stored form beside the state's own, not beside the
        # copy `data`: a re-deal that shares the parts it leaves alone (Yinzi's) compares
        # those by identity, where beside a copy every one of them was compared in full
        stored = game.stored(state)
        for viewer, view in served.items():
            stats.redeterminations_differing += _check_view_hides(game, state, viewer, view, rng,
                                                                  seed, stored, seats, schemas)
        # `view` is `served_view` made the caller's own (a copy, in the games that share):
        # the same data, checked for one viewer a state in turn, every viewer within a few
        viewer = [*served][stats.checked_states % len(served)]
        _check_view_copy(game, state, viewer, served[viewer])
        stats.checked_states += 1
    return before


def _check_view_copy(game, state, viewer, served) -> None:
    """`view` equals `served`, the `served_view` of the same state and viewer."""
    view = game.view(state, viewer)
    assert view == served, (f"view and served_view differ for "
                            f"{'the spectator' if viewer is None else f'seat {viewer}'}\n"
                            f"{_first_difference(served, view)}")


def _check_view_hides(game, state, viewer, view, rng, seed, data, seats=None,
                      schemas=None) -> int:
    """`view` (the served view of `state` for `viewer`) fits its schema, shows no seed, and
    stays the same when hidden information is re-dealt; returns 1 if the re-deal changed the
    state (0: nothing hidden to re-deal)."""
    _check_view_schema(game, view, viewer, schemas)
    if seed is not None and seed >= SEED_LEAK_MINIMUM:
        assert str(seed).encode() not in canonical(view), "a view shows the match seed, from which " \
                                                  "every hidden card and draw can be computed"
    other = game.redetermine(state, viewer, rng)
    other_view = game.served_view(other, viewer)
    # equal objects are equal JSON; only unequal ones need the canonical text to decide
    assert other_view == view or canonical(other_view) == canonical(view), (
        f"the view of {'the spectator' if viewer is None else f'seat {viewer}'} changes when "
        f"hidden information is re-dealt: it leaks what it must not show\n"
        f"{_first_difference(view, other_view)}")
    if seats is None:
        seats = [d.seat for d in game.pending(state)]
    assert [d.seat for d in game.pending(other)] == seats, "redetermine changed who must act"
    # the state itself back means nothing was re-dealt: no need to serialise it again (and
    # only compared, so `stored`, which may share the state's objects, does)
    return 0 if other is state else int(game.stored(other) != data)


def _check_view_schema(game, view, viewer, schemas=None) -> None:
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


class _ViewSchemaMemo:
    """A playout's views judged part by part: most of a view (the printed tables, the options,
    whatever the last move left alone) is the same at the next state and for the next
    viewer, so each top-level part is checked against its property's schema once per exact
    value (its marshal bytes, as `_fingerprint`). Only a yes is remembered; a no goes to the
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
            try:  # `_fingerprint`, inlined: this loop runs for every part of every view
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


def _first_difference(a, b, path="view") -> str:
    if type(a) is not type(b):
        return f"{path}: {a!r} != {b!r}"
    if isinstance(a, dict):
        for key in sorted(set(a) | set(b), key=str):
            if a.get(key) != b.get(key):
                return _first_difference(a.get(key), b.get(key), f"{path}.{key}")
    if isinstance(a, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return _first_difference(x, y, f"{path}[{i}]")
    return f"{path}: {a!r} != {b!r}"


def _apply_checked(game, state, version, seat, move, before: bytes | _Before | None = None):
    """Play a move through the engine and check that its input state did not change."""
    if before is None:
        before = _Before(game, state, _snapshot(game, state))
    elif not isinstance(before, _Before):  # a text taken earlier: judged by the text alone
        before = _Before(game, state, before, exact=False)
    new_state, _ = engine.play(game, state, version, seat, move)
    assert before.unchanged(), f"apply mutated its input state (move {move})"
    return new_state


class _ShapeMemo:
    """Listed moves already found well-formed (and JSON) for a decision's move types.

    A playout lists the same moves at many states; the check depends only on the move types
    the decision takes and the move's exact value, so one check per such pair is enough.
    """

    def __init__(self):
        self._seen: set = set()

    def check(self, game, decision, move) -> None:
        """Raise as `engine.check_move_shape` would, unless this exact move already passed."""
        key = _fingerprint(move)
        key = key if key is None else (tuple(decision.move_types), key)
        if key is not None and key in self._seen:
            return
        canonical(move)   # JSON at all
        engine.check_move_shape(game, decision, move)
        if key is not None:
            self._seen.add(key)


def _check_listed_moves_accepted(game, state, version, decision, moves, rng, count,
                                 text: bytes | _Before | None = None, shapes=None):
    """Every listed move well formed, none twice, a sample accepted; returns the moves' texts
    and the states the sampled moves led to, by the move's identity."""
    assert moves, f"seat {decision.seat} must act ({decision.kind}) but has no legal move"
    shapes = shapes if shapes is not None else _ShapeMemo()
    for move in moves:
        shapes.check(game, decision, move)
    texts = [canonical(m) for m in moves]
    assert len(texts) == len(set(texts)), "legal_moves lists a move twice"
    sample = moves if len(moves) <= count else [rng.choice(moves) for _ in range(count)]
    applied = {}
    for move in sample:
        try:
            applied[id(move)] = _apply_checked(game, state, version, decision.seat, move, text)
        except RefereeError as err:
            raise AssertionError(f"listed move {move} was rejected: {err.code}: {err}") from err
    return texts, applied


def _play_chosen(game, state, version, seat, move, before: _Before, applied: dict):
    """The chosen move's next state: the one the sample already computed, if it played this
    very move (apply is pure), after checking that nothing since changed the state."""
    if id(move) not in applied:
        return _apply_checked(game, state, version, seat, move, before)
    assert before.unchanged(), f"apply mutated its input state (move {move})"
    return applied[id(move)]


def _check_unlisted_rejected(game, state, version, decision, moves, rng, count,
                             players, texts=None) -> int:
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


def _check_outcome(game, state, players) -> None:
    outcome = game.outcome(state)
    assert outcome is not None, "the game has no pending decision but no outcome"
    assert len(outcome.scores) == players and len(outcome.ranks) == players, \
        "outcome needs a score and a rank per seat"
    assert all(1 <= r <= players for r in outcome.ranks), f"ranks out of range: {outcome.ranks}"
    assert min(outcome.ranks) == 1, "somebody must rank first"
    canonical(outcome.to_dict())


def _check_replay(game, players, options, seed, log, state, chance=INTERNAL) -> None:
    rebuilt = engine.replay(game, players, options, seed, log, chance)
    assert _snapshot(game, rebuilt) == _snapshot(game, state), \
        "replaying the seed and the log does not rebuild the same state"


def option_variants(game: Game) -> list[dict]:
    """The option sets worth a playout: the defaults, then each option at its other values."""
    variants = [{}]
    for opt in game.spec.options:
        if opt.kind == "bool":
            values = [not opt.default]
        elif opt.kind == "choice":
            values = [c for c in opt.choices if c != opt.default]
        else:
            values = [v for v in (opt.minimum, opt.maximum) if v is not None and v != opt.default]
        variants += [{opt.name: v} for v in values]
    return variants


def playable_setups(game: Game) -> list[tuple[int, dict]]:
    """Every (players, options) pair from `option_variants` that the game accepts."""
    setups = []
    for players in game.spec.player_counts():
        for options in option_variants(game):
            try:
                engine.start(game, players, options, 0)
            except RefereeError:
                continue
            setups.append((players, options))
    return setups
