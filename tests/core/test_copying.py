"""The kit's state copy (copying.json_copy): exact for JSON data, and every game's states are."""

from __future__ import annotations

import dataclasses
import enum
import math
import uuid
from collections import OrderedDict

import orjson
import pytest

from referee.conformance import playable_setups
from referee.core import engine, kit, suspend
from referee.core.canonical import canonical
from referee.core.chance import EXTERNAL, INTERNAL
from referee.core.copying import deep_copy, json_copy
from referee.core.rng import Rng
from tests.conftest import ALL_GAMES, GOPS


class Colour(enum.Enum):
    RED = "red"


@dataclasses.dataclass
class Point:
    x: int


def test_json_copy_is_equal_and_independent():
    data = {"a": [1, 2.5, -0.0, True, None, "x"], "b": {"c": [[1], {"d": False}]}, "e": 2**63}
    copy = json_copy(data)
    assert copy == data and list(copy) == list(data)
    assert [type(v) for v in copy["a"]] == [int, float, float, bool, type(None), str]
    assert math.copysign(1, copy["a"][2]) == -1
    copy["b"]["c"][0].append(2)
    copy["a"].pop()
    assert data["b"]["c"][0] == [1] and data["a"][-1] == "x"


@pytest.mark.parametrize("value", [
    (1, 2), [1, (2, 3)], math.nan, [math.inf], {1: "a"}, OrderedDict(a=1), Point(1),
    Colour.RED, uuid.UUID(int=7), 2**64, -2**63 - 1, {"a": b"x"}, "\ud800",
], ids=repr)
def test_json_copy_keeps_what_json_would_change(value):
    """Whatever an orjson round trip would change is copied by deep_copy, type and all."""
    copy = json_copy({"v": value})["v"]
    assert type(copy) is type(value)
    assert repr(copy) == repr(value)
    assert repr(deep_copy(value)) == repr(copy)


def _problems(value, path) -> list[str]:
    """Where `value` is not JSON as it is: an inexact type, a non-finite float, a non-str
    key (what json_copy would change; it sends such data to deep_copy)."""
    kind = type(value)
    if kind in (str, int, bool) or value is None:
        return []
    if kind is float:
        return [] if math.isfinite(value) else [f"{path}: {value}"]
    if kind is list:
        return [p for i, item in enumerate(value) for p in _problems(item, f"{path}[{i}]")]
    if kind is dict:
        return ([f"{path}: key {key!r}" for key in value if type(key) is not str]
                + [p for key, item in value.items() for p in _problems(item, f"{path}.{key}")])
    return [f"{path}: a {kind.__name__}"]


def _playout(game, players, options, chance, seed):
    """The canonical text of every state of a random playout."""
    _, state = engine.start(game, players, options, seed, chance)
    rng, version, texts = Rng(seed, "json-copy"), 0, [canonical(state)]
    while game.pending(state):
        problems = _problems(state, "$")
        assert not problems, problems[:5]
        decision = rng.choice(game.pending(state))
        move = rng.choice(game.legal_moves(state, decision.seat))
        state, _ = engine.play(game, state, version, decision.seat, move)
        version += 1
        texts.append(canonical(state))
    return texts


def _setups(game):
    """Each player count once, with the first options it plays with."""
    return {players: options for players, options in reversed(playable_setups(game))}


CASES = [pytest.param(game, players, options, chance,
                      id=f"{game.spec.name}-{players}p-{chance}")
         for game in ALL_GAMES for players, options in sorted(_setups(game).items())
         for chance in (INTERNAL, EXTERNAL) if chance == INTERNAL or game.external_chance]


@pytest.mark.parametrize("game, players, options, chance", CASES)
def test_json_copy_plays_as_deep_copy(game, players, options, chance, monkeypatch):
    """The games' states are JSON as they are (so json_copy copies them by orjson, never by
    its fallback), and a playout with the kit (and its external chance, `suspend`) copying by
    json_copy passes through the very states it does copying by marshal (deep_copy), which
    also keeps an object reached twice as one (a Dschunke poker reveal stays in
    `last_poker`: never changed after, it plays the same either way)."""
    fast = _playout(game, players, options, chance, 11)
    monkeypatch.setattr(kit.game, "json_copy", deep_copy)
    monkeypatch.setattr(suspend, "json_copy", deep_copy)
    assert _playout(game, players, options, chance, 11) == fast


def _stored_playout(game, players, options, chance, seed):
    """`_playout`, each move applied with the JSON of the state as the service stores it
    (engine.play's `stored_json`: Game.apply_stored); each input state checked unchanged."""
    _, state = engine.start(game, players, options, seed, chance)
    rng, version, texts = Rng(seed, "json-copy"), 0, [canonical(state)]
    while game.pending(state):
        decision = rng.choice(game.pending(state))
        move = rng.choice(game.legal_moves(state, decision.seat))
        before = canonical(state)
        new, _ = engine.play(game, state, version, decision.seat, move,
                             stored_json=orjson.dumps(game.stored(state)))
        assert canonical(state) == before, f"version {version}: apply_stored changed its input"
        state, version = new, version + 1
        texts.append(canonical(state))
    return texts


@pytest.mark.parametrize("game, players, options, chance", CASES)
def test_apply_stored_plays_as_apply(game, players, options, chance):
    """A move applied on the copy read from the state's stored JSON (the service's path after
    its own commit) passes through the very states `apply` does, and never touches its input."""
    assert _stored_playout(game, players, options, chance, 12) == \
        _playout(game, players, options, chance, 12)


def test_apply_stored_plays_on_the_state_as_stored():
    """The copy is the stored JSON read back, not the state object: what every other process
    of the service plays on (a test game's state with a list stored, played from its JSON)."""
    game = GOPS
    _, state = engine.start(game, 2, {"cards": 3}, 5, INTERNAL)
    seat = game.pending(state)[0].seat
    move = game.legal_moves(state, seat)[0]
    stored = orjson.loads(orjson.dumps(state))
    stored["marker"] = "from the stored JSON"
    new = game.apply_stored(state, seat, move, orjson.dumps(stored))
    assert new["marker"] == "from the stored JSON" and "marker" not in state
