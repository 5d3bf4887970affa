"""The game contract every registered game implements.

A game is pure functions over a state: no I/O, no global randomness, no mutation of the state
it is given. The engine (`referee.core.engine`) does the generic checks before calling `apply`,
so a game only answers "is this move legal for this seat, here" and says why not.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from referee.core import chancerecord
from referee.core.errors import ChanceUnsupported, InvalidState
from referee.core.rng import Rng
from referee.core.spec import GameSpec
from referee.core.types import Decision, Outcome


class Game(ABC):
    """Base class of a registered game; subclasses set `spec` and implement the methods."""

    spec: GameSpec
    external_chance: bool = False
    """Whether every random event goes through `referee.core.chance` (external chance works)."""
    state_schema: dict | None = None
    """JSON Schema of `to_dict(state)` without the core's chance record, every field described
    (served as GET /v1/games/{game}/state-schema); None: undescribed."""
    notation = None
    """The game's one-line position text (a `referee.core.notation.Notation` over its state
    schema, in `referee/games/<game>/notation.py`); None: the game has none."""

    def check_setup(self, players: int, options: dict) -> None:
        """Raise InvalidPlayers/InvalidOptions if this player count and options can't be played."""
        self.spec.check_players(players)

    @abstractmethod
    def setup(self, players: int, options: dict, seed: int):
        """The initial state for `players` seats, resolved `options` and the match `seed`."""

    @abstractmethod
    def pending(self, state) -> tuple[Decision, ...]:
        """The decisions that must be taken now, one per seat; empty exactly when the game is over."""

    @abstractmethod
    def legal_moves(self, state, seat: int) -> list[dict]:
        """Every legal move for `seat`'s pending decision (finite, complete, JSON-able)."""

    @abstractmethod
    def apply(self, state, seat: int, move: dict):
        """The state after `seat` plays `move`; raises IllegalMove(code, message). Never mutates."""

    def apply_stored(self, state, seat: int, move: dict, stored_json: bytes):
        """`apply`, for a caller that holds `stored_json`, the JSON of `stored(state)` (the
        service's record of the state it just committed): a game whose private copy of a
        state is that state's JSON read back may read it from there (KitGame does)."""
        return self.apply(state, seat, move)

    @abstractmethod
    def view(self, state, seat: int | None) -> dict:
        """What `seat` may see of the state (None: a spectator), as JSON-able data."""

    @abstractmethod
    def outcome(self, state) -> Outcome | None:
        """The result once the game is over, else None."""

    @abstractmethod
    def to_dict(self, state) -> dict:
        """The complete state as JSON-able data (the omniscient state, for storage)."""

    def served_view(self, state, seat: int | None, memo: dict | None = None):
        """`view(state, seat)` for a caller that only serialises it and changes nothing (the
        service's answers): it may share objects with `state` and the game's own tables.

        `memo`: a dict the caller keeps with this one state while it serves the state's
        views (the service: with the match's cached version); a game may build into it once
        what every viewer of the state sees alike and share that among their views."""
        return self.view(state, seat)

    def stored(self, state) -> dict:
        """`to_dict(state)`, possibly sharing `state`'s own objects: for a caller that only
        serialises it and changes neither (the service's live record of a committed state)."""
        return self.to_dict(state)

    @abstractmethod
    def from_dict(self, data: dict):
        """A state from `to_dict` output; raises InvalidState with the reason if it is not valid."""

    def position(self, state) -> str | None:
        """The one-line text of the complete `state` (hidden parts included); None when the
        game has no notation or a move (or the set-up) waits on a chance outcome."""
        if self.notation is None:
            return None
        data = self.to_dict(state)
        if chancerecord.is_external(data):
            if chancerecord.waiting(data) is not None:
                return None
            data = {key: value for key, value in data.items() if key != chancerecord.KEY}
        return self.notation.encode(data)

    def from_position(self, text: str):
        """The state a `position` text describes, checked as `from_dict` checks a state;
        raises InvalidState (the character, or the state field, at fault)."""
        if self.notation is None:
            raise InvalidState(f"{self.spec.name} has no position notation", path="position")
        return self.from_dict(self.notation.decode(text))

    def setup_external(self, players: int, options: dict):
        """The set-up with chance supplied from outside (see `referee.core.chance`)."""
        raise ChanceUnsupported(f"{self.spec.name} does not support external chance",
                                game=self.spec.name)

    def chance_outcomes(self, state) -> list[tuple[dict, float]]:
        """The chance seat's legal moves now with their probabilities; [] when none waits."""
        return []

    def redetermine(self, state, seat: int | None, rng: Rng):
        """A state `seat` cannot tell apart from `state`: everything hidden from it re-dealt.

        The conformance suite checks that the seat's view is the same for both, which is how
        it proves that views leak nothing hidden. Games without hidden information keep the
        default.
        """
        return state

    def standing(self, state) -> list | None:
        """Each seat's score so far by the game's own scoring, to adjudicate a match stopped
        before its end (its move cap); None: the game cannot say, and every seat ties."""
        return None

    def view_schema(self, spectator: bool = False) -> dict | None:
        """JSON Schema of `view(state, seat)` (spectator: of `view(state, None)`); None: undescribed.

        Written in the subset `referee.core.schema` checks, every property with a
        `description` (its meaning in the game's own words, units, whose it is, when hidden),
        and objects closed with `additionalProperties: false` (or a schema for their values),
        so the conformance suite can hold every view the engine produces to it.
        """
        return None

    def decision_kinds(self) -> list[dict]:
        """Every decision kind a seat may be asked: `{kind, move_types, sealed, prompt, move}`,
        `prompt` and `move` JSON Schemas (`referee.core.decisions`); [] when undescribed."""
        return []

    def board(self) -> dict:
        """The printed material the engine uses: `{table: {"description": ..., "value": ...}}`.

        Values keep the provenance tags of `seeds/<game>/` (`{"value", "status", "source"}`),
        so clients draw boards and explain effects from the API rather than from copies.
        """
        return {}

    def public_move(self, state, seat: int, move: dict) -> dict | None:
        """How the other seats may see `seat`'s `move` in a running match's log; None hides it.

        `state` is the state the move was played in (asked when it is committed, so what the
        move reveals can depend on it, e.g. a card that is laid face up). A sealed move's
        public form is shown only once `reveals` says it was revealed.
        """
        return move

    def reveals(self, state) -> int:
        """How many reveals of sealed moves `state` has seen (a counter that never goes down).

        A sealed move played in a state with counter n is shown to everyone in the log once
        the match's counter exceeds n. The default, 0 forever, keeps sealed moves hidden from
        the other seats until the match is over.
        """
        return 0


def named_view_schema(name: str, schema: dict) -> dict:
    """`schema` (a view's, an object) with the `game` field first: every view names its game,
    so a client (and an OpenAPI discriminator) can tell the views of the games apart."""
    field = {"type": "string", "enum": [name], "description": "The game this is a view of."}
    return {**schema, "properties": {"game": field, **schema["properties"]},
            "required": ["game", *[k for k in schema.get("required", ()) if k != "game"]]}


def alike_but_you(memo: dict | None, seat: int | None, build) -> dict:
    """A served view for a game whose views of one state differ only in their "you" (every
    seat sees what a spectator sees): `build(None)` made once per state into `memo`, then
    copied with `seat` as its "you" for each viewer (its keys stay in order). Without a memo,
    `build(seat)`. The copy is shallow: a served view is only serialised."""
    if memo is None:
        return build(seat)
    shared = memo.get("alike")
    if shared is None:
        shared = memo["alike"] = build(None)
    view = dict(shared)
    view["you"] = seat
    return view
