"""External chance in the kit: a move or set-up that needs an outcome waits for the chance seat.

An external-chance state has one key games never touch, `state["chance"]`::

    {"mode": "external", "waiting": null}                     # nothing to supply now
    {"mode": "external", "waiting": {
        "seat": 1, "move": {"type": "bid", "card": 3},       # the move that waits (set-up: null)
        "setup": null,                                       # the set-up: {"players", "options"}
        "supplied": [4],                                     # outcomes given so far, in order
        "need": {"kind": "prize", "owner": null, "prompt": {},
                 "outcomes": [{"outcome": 1, "probability": 0.5}, ...]}}}

A waiting move's state is the state BEFORE the move (its views are that state's views) plus
the waiting record; a waiting set-up has no game keys yet (its views are null). When the
chance move comes, the move (or set-up) is played again from the start with the supplied
outcomes (deterministic, so the same draws come in the same order) until it completes or
needs the next one. `load` checks a stored waiting record by playing it again.
"""

from __future__ import annotations

import functools
import json

from referee.core import chance, engine
from referee.core.chance import CHANCE, EXTERNAL, EXTERNAL_SEED, NOBODY, NeedChance
from referee.core.chancerecord import KEY, is_external, waiting  # noqa: F401  (re-exported)
from referee.core.copying import json_copy
from referee.core.errors import ChanceUnsupported, InvalidState, NotYourTurn, RefereeError
from referee.core.schema import first_error
from referee.core.statecheck import enum, list_of, nat, nullable, record, state_error, string
from referee.core.types import Decision

_OBJECT = {"type": "object"}
_NEED = record(
    kind=string(), prompt=_OBJECT,
    owner={"oneOf": [{"type": "null"}, nat(), enum(NOBODY)]},
    outcomes=list_of({"type": "object", "required": ["outcome", "probability"],
                      "additionalProperties": False,
                      "properties": {"outcome": {}, "probability": {"type": "number",
                                                                    "minimum": 0,
                                                                    "maximum": 1}}},
                     min_items=1))
SCHEMA = {"type": "object", "properties": {KEY: record(mode=enum(EXTERNAL), waiting=nullable(
    record(seat=nullable(nat()), move=nullable(_OBJECT), supplied={"type": "array"},
           setup=nullable(record(players=nat(), options=_OBJECT)), need=_NEED)))}}
"""JSON Schema of `state["chance"]` (within the state, so errors name `$.chance...`)."""


def idle() -> dict:
    """The chance record of an external state that waits for nothing."""
    return {"mode": EXTERNAL, "waiting": None}


def setting_up(state) -> bool:
    """Whether `state` is a set-up still waiting for chance (no game state yet)."""
    found = waiting(state)
    return found is not None and found["setup"] is not None


def decision(found: dict) -> Decision:
    """The chance seat's decision for a waiting record; the prompt lists the outcomes."""
    need = found["need"]
    return Decision(CHANCE, f"chance:{need['kind']}", (chance.MOVE_TYPE,), False,
                    {"event": need["kind"], "owner": need["owner"],
                     "outcomes": need["outcomes"], "about": need["prompt"]})


def outcomes(found: dict) -> list[tuple[dict, float]]:
    """The chance moves that answer a waiting record, with their probabilities."""
    return [(chance.chance_move(o["outcome"]), o["probability"]) for o in found["need"]["outcomes"]]


def start(game, players: int, options: dict) -> dict:
    """An external-chance set-up: complete, or waiting for its first outcome."""
    if not game.external_chance:
        raise ChanceUnsupported(f"{game.spec.name} does not support external chance yet",
                                game=game.spec.name)
    return _setup(game, {"players": players, "options": options}, [])


def play(game, state: dict, seat: int, move: dict) -> dict:
    """`apply` for an external state: a player's move, or the chance seat's outcome."""
    found = waiting(state)
    if found is None:
        rule = game.rule_for(state, seat, move)
        if not rule.play_checks:
            refusal = rule.check(state, seat, move)
            if refusal is not None:
                raise refusal
        return _move(game, state, seat, move, [])
    if seat != CHANCE:  # the engine says so first; this guards direct calls
        raise NotYourTurn(f"seat {seat} has no decision pending: chance must be supplied")
    need = found["need"]
    options = [(o["outcome"], o["probability"]) for o in need["outcomes"]]
    supplied = found["supplied"] + [chance.chosen(need["kind"], options, move.get("outcome"))]
    if found["setup"] is not None:
        return _setup(game, found["setup"], supplied)
    return _move(game, {**state, KEY: idle()}, found["seat"], found["move"], supplied)


def _setup(game, params: dict, supplied: list) -> dict:
    try:
        with chance.session(EXTERNAL, supplied) as active:
            state = game.setup(params["players"], params["options"], EXTERNAL_SEED)
    except NeedChance as need:
        return _waiting(None, None, None, params, supplied, need)
    _all_used(game, active)
    state[KEY] = idle()
    return state


def _move(game, base: dict, seat: int, move: dict, supplied: list) -> dict:
    """Play `move` on a copy of `base` with `supplied` outcomes; the base waits if they run out."""
    rule = game.rule_for(base, seat, move)
    new = json_copy(base)
    try:
        with chance.session(EXTERNAL, supplied) as active:
            rule.play(new, seat, move)
            game.settle(new)
    except NeedChance as need:
        return _waiting(base, seat, move, None, supplied, need)
    _all_used(game, active)
    new[KEY] = idle()
    return new


def _waiting(base, seat, move, setup, supplied, need: NeedChance) -> dict:
    out = json_copy(base) if base is not None else {}
    # plain JSON data, so a stored and a fresh state compare equal
    found = json.loads(json.dumps({"seat": seat, "move": move, "setup": setup,
                                   "supplied": supplied, "need": need.to_dict()}))
    out[KEY] = {"mode": EXTERNAL, "waiting": found}
    return out


def _all_used(game, active) -> None:
    if active.used != len(active.supplied):
        raise RuntimeError(f"{game.spec.name}: {len(active.supplied)} outcomes supplied but "
                           f"{active.used} drawn: the game's draws are not deterministic")


def load(game, data: dict, load_plain) -> dict:
    """Check an external state (its chance record, its game part, its waiting move replayed)."""
    name = game.spec.name
    if not game.external_chance:
        raise InvalidState(f"invalid {name} state: $.chance: {name} does not support external "
                           f"chance yet", path="$.chance")
    problem = first_error(data, SCHEMA, "$", "state")
    if problem is not None:
        raise InvalidState(f"invalid {name} state: {problem}", path=problem.split(": ", 1)[0])
    found = data[KEY]["waiting"]
    if found is not None and found["setup"] is not None:
        return _load_setup(game, data, found)
    load_plain({k: v for k, v in data.items() if k != KEY})
    if found is not None:
        if found["seat"] is None or found["move"] is None:
            _invalid(name, "$.chance.waiting.seat", "a waiting move needs its seat and move")
        base = {**data, KEY: idle()}
        _check_waiting_move(game, base, found["seat"], found["move"])
        _verify(game, found, lambda supplied: _move(game, base, found["seat"], found["move"],
                                                    supplied))
    return json_copy(data)


def _check_waiting_move(game, base: dict, seat: int, move: dict) -> None:
    """A stored waiting move passes every check on its base state (it was legal there)."""
    name = game.spec.name
    decision = engine.decision_for(game, base, seat)
    if decision is None:
        _invalid(name, "$.chance.waiting.seat", f"seat {seat} has no decision before the move")
    try:
        engine.check_move_shape(game, decision, move)
        refusal = game.rule_for(base, seat, move).check(base, seat, move)
        if refusal is not None:
            raise refusal
    except RefereeError as err:
        _invalid(name, "$.chance.waiting.move", f"{err.code}: {err.message}")


def _load_setup(game, data: dict, found: dict) -> dict:
    name = game.spec.name
    extra = sorted(k for k in data if k != KEY)
    if extra:
        _invalid(name, f"$.{extra[0]}", "a set-up waiting for chance has no game state yet")
    params = found["setup"]
    try:
        options = game.spec.resolve_options(params["options"])
        game.check_setup(params["players"], options)
    except RefereeError as err:
        _invalid(name, "$.chance.waiting.setup", err.message)
    _verify(game, found, lambda supplied: _setup(game, {**params, "options": options}, supplied))
    return json_copy(data)


def _verify(game, found: dict, replay) -> None:
    """The waiting record is what playing it again with its supplied outcomes gives."""
    name = game.spec.name
    try:
        again = waiting(replay(list(found["supplied"])))
    except RefereeError as err:
        _invalid(name, "$.chance.waiting", f"playing it again fails: {err.code}: {err.message}")
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as err:
        _invalid(name, "$.chance.waiting", f"playing it again fails ({type(err).__name__})")
    if again is None:
        _invalid(name, "$.chance.waiting", "playing it again needs no more chance")
    if chance.canonical(again) != chance.canonical(found):
        _invalid(name, "$.chance.waiting.need", f"playing it again waits for "
                 f"{again['need']['kind']!r} with other outcomes")


def _invalid(name: str, path: str, reason: str):
    err = state_error(path, reason)
    raise InvalidState(f"invalid {name} state: {err.message}", **err.details)


_WHILE_SETTING_UP = {"view": None, "served_view": None, "outcome": None, "standing": None,
                     "reveals": 0}
"""What a game's reading methods answer for a set-up that waits for chance."""


def guard(cls) -> None:
    """Make `cls`'s view, outcome, standing, reveals and redetermine safe on waiting set-ups."""
    for name in (*_WHILE_SETTING_UP, "redetermine"):
        method = getattr(cls, name)
        if not getattr(method, "_chance_guarded", False):
            setattr(cls, name, _guarded(method, name))


def _guarded(method, name: str):
    @functools.wraps(method)
    def guarded(self, state, *args, **kwargs):
        if setting_up(state):
            return state if name == "redetermine" else _WHILE_SETTING_UP[name]
        return method(self, state, *args, **kwargs)

    guarded._chance_guarded = True
    return guarded
