"""The compiled notation codec against its closures (referee.core.notation_codec): the same
text from the same state, the same state (types and key order too) from the same text.

`Notation` runs the compiled writer and reader first and the closures of `build` only where
the compiled code gives up, so each is checked here on its own: over real positions of every
set-up of every game with a notation, and over texts broken at random, where the compiled
reader may give up but never read a value the closures do not."""

from __future__ import annotations

import pytest

from referee.conformance import playable_setups
from referee.core import engine
from referee.core.errors import InvalidState
from referee.core.notation import Notation
from referee.core.notation_codec import Reader
from referee.core.rng import Rng
from referee.core.statecheck import (boolean, enum, integer, list_of, mapping, nullable,
                                     record, string)
from referee.core.suspend import KEY
from referee.games import GAMES

NOTED = [game for game in GAMES if game.notation is not None]
STATES_PER_SETUP = 20
"""Positions spread over one random playout of each set-up."""


def same(a, b) -> bool:
    """Equal with the same types all through and dicts' keys in the same order."""
    if type(a) is not type(b):
        return False
    if type(a) is dict:
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if type(a) is list:
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def closures_encode(notation: Notation, data) -> str:
    """The text as the closures alone write it (the reference)."""
    out = [notation.tag, ":"]
    notation._write(data, out)
    return "".join(out)


def closures_decode(notation: Notation, text: str):
    """The value as the closures alone read it (the reference), or what they raise (an
    InvalidState; a key of a mapping escaping bytes that are not UTF-8, UnicodeDecodeError)."""
    reader = Reader(text, len(notation.tag) + 1)
    try:
        value = notation._read(reader)
        if reader.at != len(text):
            raise reader.fail("the end of the position")
    except (InvalidState, UnicodeDecodeError) as error:
        return error
    return value


def compiled_decode(notation: Notation, text: str):
    """The value the compiled reader gives, or None where it gives up."""
    try:
        return notation._fast_read(text, len(notation.tag) + 1)
    except Exception:  # noqa: BLE001 - any give-up: the closures would read it
        return None


def positions(game):
    """(set-up, data) of states spread over one random playout of each set-up."""
    for players, options in playable_setups(game):
        _, state = engine.start(game, players, options, 11)
        rng, version, datas = Rng(11, "notation"), 0, []
        while True:
            data = game.to_dict(state)
            if KEY not in data or data[KEY]["waiting"] is None:
                datas.append({k: v for k, v in data.items() if k != KEY})
            decisions = game.pending(state)
            if not decisions:
                break
            seat = rng.choice(decisions).seat
            move = rng.choice(game.legal_moves(state, seat))
            state, _ = engine.play(game, state, version, seat, move)
            version += 1
        step = max(1, len(datas) // STATES_PER_SETUP)
        for data in [*datas[::step], datas[-1]]:
            yield (players, options), data


@pytest.fixture(scope="module", params=NOTED, ids=lambda game: game.spec.name)
def game_positions(request):
    game = request.param
    return game, list(positions(game))


def test_every_game_with_a_notation_is_compiled():
    assert {game.spec.name for game in NOTED} >= {"dschunke", "yunnan", "yinzi-ming"}


def test_real_positions_write_and_read_as_the_closures_do(game_positions):
    """Every position of every set-up: the compiled writer's text is the closures' text, and
    the compiled reader gives the closures' value (nothing left to the closures)."""
    game, found = game_positions
    notation = game.notation
    assert len({str(setup) for setup, _ in found}) == len(playable_setups(game))
    for setup, data in found:
        text = closures_encode(notation, data)
        assert notation.tag + ":" + notation._fast_write(data) == text, setup
        assert notation.encode(data) == text
        value = compiled_decode(notation, text)
        assert value is not None, f"{setup}: the compiled reader gave up on {text}"
        assert same(value, closures_decode(notation, text)), setup
        # a record is read in the schema's order, which need not be to_dict's
        assert value == data and same(notation.decode(text), value), setup


def mutations(text: str, rng: Rng, start: int, count: int):
    """`count` texts one edit away from `text` (a character dropped, doubled, replaced or
    put in), the edits aimed at the notation's own characters most of the time."""
    alphabet = ",()[]{}:~'\"%0a1b-_z."
    for _ in range(count):
        at = start + rng.below(len(text) - start)
        char = alphabet[rng.below(len(alphabet))]
        edit = rng.below(4)
        if edit == 0:
            yield text[:at] + text[at + 1:]
        elif edit == 1:
            yield text[:at] + text[at] + text[at:]
        elif edit == 2:
            yield text[:at] + char + text[at + 1:]
        else:
            yield text[:at] + char + text[at:]


def check_broken(notation: Notation, text: str) -> None:
    """Where the compiled reader reads `text`, the closures read the same value; whatever
    it does, `decode` answers as the closures do (the same value, or the same refusal)."""
    reference = closures_decode(notation, text)
    value = compiled_decode(notation, text)
    if value is not None:
        assert same(value, reference), text
    try:
        answer = notation.decode(text)
    except (InvalidState, UnicodeDecodeError) as error:
        assert type(error) is type(reference) and str(error) == str(reference), text
        assert getattr(error, "details", None) == getattr(reference, "details", None), text
    else:
        assert same(answer, reference), text


def test_broken_positions_are_read_or_refused_as_the_closures_do(game_positions):
    """Texts one edit away from real ones: never a value the closures would not read."""
    game, found = game_positions
    notation, rng = game.notation, Rng(5, "broken")
    for _, data in found[::15]:
        text = notation.encode(data)
        for broken in mutations(text, rng, len(notation.tag) + 1, 30):
            check_broken(notation, broken)


ODD = Notation("t", record(
    n=integer(), x={"type": "number"}, flag=boolean(), name=string(),
    pick=enum("a b", 3, None, True), items=list_of(nullable(integer())),
    counts=mapping(integer(), keys=["x", "y"], complete=True),
    some=mapping(string()), named=mapping(boolean(), keys=["left_one", "right_one"]),
    free={"type": "object"}, anything={}, maybe={"type": ["string", "null"]},
    empty=mapping(integer(), keys=[], complete=True),
    either={"oneOf": [{"type": "null"}, record(kind=enum("p"), v=integer()),
                      record(kind=enum("q"), w=string()), list_of(string()),
                      {"type": "integer"}, nullable(string())]},
    only={"oneOf": [{"type": "null"}, nullable(list_of(integer()))]},
    fixed={"const": "k"}))
ODD_VALUES = [
    {"n": -7374513755567299596123, "x": 1.5e-07, "flag": True, "name": "Dúlì, (1) ~'%:\"x\"",
     "pick": "a b", "items": [1, None, 0, -3, 1023, 1024, -65], "counts": {"y": 2, "x": 1},
     "some": {"k:1": "", "": "v", "~": "~"}, "named": {"right_one": False, "x y": True},
     "free": {"a": [1, {"b": None}]}, "anything": [1, "two"], "maybe": "",
     "empty": {}, "either": {"kind": "q", "w": "z"}, "only": [], "fixed": "k"},
    {"n": 0, "x": 3, "flag": False, "name": "A9", "pick": None, "items": [], "counts":
     {"x": 0, "y": -1}, "some": {}, "named": {}, "free": {}, "anything": None, "maybe": None,
     "empty": {}, "either": None, "only": None, "fixed": "k"},
    *({"n": 1, "x": -2.0, "flag": True, "name": "%41", "pick": pick, "items": [None],
       "counts": {"x": 1, "y": 1}, "some": {"a": "b"}, "named": {"left_one": True},
       "free": {"z": "é"}, "anything": "s", "maybe": "m", "empty": {}, "either": either,
       "only": [7], "fixed": "k"}
      for pick, either in ((3, {"kind": "p", "v": 3}), (True, ["a", ""]), ("a b", 12),
                           (None, "s t"), (3, []))),
]


@pytest.mark.parametrize("value", ODD_VALUES)
def test_every_kind_of_schema_writes_and_reads_as_the_closures_do(value):
    """Each kind of value the notation has (free JSON, big numbers, escapes, enums of mixed
    kinds, oneOf branches of every sort, initials of keys): compiled and closures agree."""
    text = closures_encode(ODD, value)
    assert ODD.encode(value) == text
    assert same(compiled_decode(ODD, text), closures_decode(ODD, text))
    assert same(ODD.decode(text), closures_decode(ODD, text))
    rng = Rng(len(text), "odd")
    for broken in mutations(text, rng, 2, 300):
        check_broken(ODD, broken)


def test_full_names_and_hand_written_texts_read_alike():
    """Texts the writer would not write but the closures read (full enum names, leading
    zeros, an empty key): the same value, by whichever reader."""
    for text in ("t:(007,1e3,1,x,3,[~,-0],(1,2),{:a},{l:1,right_one:0},'%7B%7D,'1,~,(),e5,~,k)",
                 "t:(1,2,0,%2C,~,[],(0,0),{},{},'%7B%7D,'1,y,(),e%41%42,[1],k)"):
        check_broken(ODD, text)
        assert not isinstance(closures_decode(ODD, text), InvalidState), text


def test_a_value_off_the_schema_fails_as_the_closures_fail():
    """The compiled writer gives up on data the schema does not describe; encode then raises
    what the closures raise."""
    bad = {**ODD_VALUES[1], "counts": {"x": 1}}
    with pytest.raises(KeyError):
        closures_encode(ODD, bad)
    with pytest.raises(KeyError):
        ODD.encode(bad)
