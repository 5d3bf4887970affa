"""`KitGame`, the base class of a kit game: the Game methods derived from its declarations
(pending, legal_moves, apply, from_dict), and its memory of the last few states asked about."""

from __future__ import annotations

from typing import Iterable

import orjson

from referee.core import suspend
from referee.core.chance import CHANCE, seat_to_json
from referee.core.copying import json_copy
from referee.core.decisions import describe_kinds
from referee.core.errors import InvalidState, NotYourTurn, UnexpectedMove
from referee.core.game import Game
from referee.core.kit import listing
from referee.core.kit.rules import DecisionKind, Rule, compile_tables
from referee.core.statecheck import validate
from referee.core.types import Decision

RECENT = 8
"""States a kit game remembers the awaiting entries and decisions of. A gunicorn worker
interleaves the prompts and moves of a few matches: remembering one state, `pending` was
worked out 2.9 times a prompt and move at 8 clients instead of once (3.4 at 32). A few, not
dozens: a state kept here can outlive its match's version in the service's cache, and
freeing it later touches colder memory (32 cost more in freeing than they saved)."""


class KitGame(Game):
    """A game declared into the kit: `spec`, `decisions`, `state_schema`, and the hooks."""

    decisions: tuple[DecisionKind, ...] = ()
    prompt_schemas: dict = {}  # decision kind -> JSON Schema of its prompt (plain data)
    state_schema: dict | None = None
    _kinds: dict = {}
    _rules: dict = {}
    _recent: tuple = ()  # [state, its awaiting entries, its decisions or None], newest first

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if cls.decisions:
            cls._kinds, cls._rules = compile_tables(cls)
        if cls.external_chance:
            suspend.guard(cls)

    def awaiting(self, state) -> Iterable[tuple]:
        """Who must decide what now: `(seat, kind)` or `(seat, kind, open types)`; () if over."""
        raise NotImplementedError

    def prompt(self, state, seat: int, kind: str) -> dict:
        """JSON-able context for `seat`'s pending `kind` decision."""
        return {}

    def decision_kinds(self) -> list[dict]:
        """Every declared decision kind with its prompt schema (`prompt_schemas`) and move
        schema (its rules' move types), built once."""
        if "_described" not in self.__dict__:
            self._described = describe_kinds(self, self.decisions, self.prompt_schemas)
        return self._described

    def settle(self, state) -> None:
        """The automatic steps after every accepted move, on the private copy (default none)."""

    def check_state(self, state) -> None:
        """Invariants the state schema cannot express; raise `statecheck.state_error`."""

    def pending(self, state) -> tuple[Decision, ...]:
        """One Decision per awaiting seat, from the declared decision kinds (chance's alone
        while a move waits for it)."""
        known = self._known(state)
        if known is not None and known[2] is not None:  # asked again (runner, engine, service)
            return known[2]
        found = suspend.waiting(state)
        if found is not None:
            decisions = (suspend.decision(found),)
        else:
            decisions = tuple(Decision(seat, kind, types, self._kinds[kind].sealed,
                                       self.prompt(state, seat, kind))
                              for seat, kind, types in self._awaiting(state))
        known = self._known(state)   # _awaiting remembered it (unless waiting for chance)
        if known is None:
            self._remember([state, None, decisions])
        else:
            known[2] = decisions    # a state is never changed once made (see _awaiting)
        return decisions

    def legal_moves(self, state, seat: int) -> list[dict]:
        """The candidates of `seat`'s decision that its rules accept (or trust)."""
        waiting = suspend.waiting(state)
        if waiting is not None:
            return [move for move, _ in suspend.outcomes(waiting)] if seat == CHANCE else []
        found = self._decision_of(state, seat)
        if found is None:
            return []
        return listing.listed(self, state, seat, found)

    def apply(self, state, seat: int, move: dict):
        """Check `move` by its rule, then copy once, play it on the copy and settle."""
        return self._apply(state, seat, move, None)

    def apply_stored(self, state, seat: int, move: dict, stored_json: bytes):
        """`apply`, with the private copy read from `stored_json` (a kit state is stored as
        itself): the JSON the service wrote of it, instead of writing it again and comparing
        (json_copy). The copy is then the state as stored, which is what every other process
        of the service reads back and plays on."""
        return self._apply(state, seat, move, stored_json)

    def _apply(self, state, seat: int, move: dict, stored_json: bytes | None):
        if suspend.is_external(state):
            return suspend.play(self, state, seat, move)
        rule = self.rule_for(state, seat, move)
        if not rule.play_checks:
            refusal = rule.check(state, seat, move)
            if refusal is not None:
                raise refusal
        new = json_copy(state) if stored_json is None else orjson.loads(stored_json)
        rule.play(new, seat, move)
        self.settle(new)
        return new

    def rule_for(self, state, seat: int, move: dict) -> Rule:
        """The rule that judges `seat`'s `move` now; NotYourTurn/UnexpectedMove if none."""
        found = self._decision_of(state, seat)
        if found is None:  # the engine says so first; this guards direct calls
            raise NotYourTurn(f"seat {seat_to_json(seat)} has no decision pending")
        kind, types = found
        move_type = move.get("type") if isinstance(move, dict) else None
        if move_type not in types:
            raise UnexpectedMove(f"a {move_type!r} move does not answer the pending {kind!r} "
                                 f"decision, which takes {list(types)}",
                                 decision=kind, accepted=list(types))
        return self._rules[kind, move_type]

    def to_dict(self, state) -> dict:
        """The complete state as plain data (a copy)."""
        return json_copy(state)

    def stored(self, state) -> dict:
        """The state itself: a kit state is already its plain data, and a caller of `stored`
        changes neither (a copy per move cost as much as the move's view)."""
        return state

    def setup_external(self, players: int, options: dict):
        """The set-up with chance supplied from outside: complete, or waiting for chance."""
        return suspend.start(self, players, options)

    def chance_outcomes(self, state) -> list[tuple[dict, float]]:
        """The chance moves that may answer the waiting chance decision, with probabilities."""
        found = suspend.waiting(state)
        return suspend.outcomes(found) if found is not None else []

    def from_dict(self, data):
        """A copy of `data` once it fits `state_schema` and `check_state`; else InvalidState.

        An external-chance state (with `chance`) also has its chance record checked."""
        if suspend.is_external(data):
            return suspend.load(self, data, self._check_plain)
        self._check_plain(data)
        return json_copy(data)

    def _check_plain(self, data) -> None:
        """`state_schema` and `check_state` on a game state without its chance record."""
        name = self.spec.name
        if self.state_schema is not None:
            validate(data, self.state_schema, name)
        try:
            self.check_state(data)
        except InvalidState as err:
            raise InvalidState(f"invalid {name} state: {err.message}", **err.details) from err
        except (KeyError, TypeError, AttributeError, ValueError, IndexError) as err:
            raise InvalidState(f"invalid {name} state: malformed "
                               f"({type(err).__name__}: {err})") from err

    def _awaiting(self, state) -> tuple:
        """`awaiting` with each entry's open types, remembered for the last few states asked
        about (RECENT): one move asks about its state four times (engine, bot, apply,
        service), and a state is never changed once made (apply copies), so identity is
        enough to know it again."""
        known = self._known(state)
        if known is not None and known[1] is not None:
            return known[1]
        entries = tuple((e[0], e[1], self._kinds[e[1]].move_types if len(e) == 2
                         else tuple(e[2])) for e in self.awaiting(state))
        if known is None:
            self._remember([state, entries, None])
        else:
            known[1] = entries
        return entries

    def _known(self, state) -> list | None:
        """The remembered [state, awaiting entries, decisions] of `state` (either None until
        asked), or None."""
        for entry in self._recent:   # one read: another thread may replace it meanwhile
            if entry[0] is state:
                return entry
        return None

    def _remember(self, entry: list) -> None:
        # the entry holds the state, so its id is not reused meanwhile; one assignment, so
        # another thread reads the old tuple or the new one
        self._recent = (entry,) + self._recent[:RECENT - 1]

    def _decision_of(self, state, seat: int):
        for other, kind, types in self._awaiting(state):
            if other == seat:
                return kind, types
        return None

    def _candidates(self, state, seat: int, kind: str, types: tuple, gated: bool = True):
        """(rule, candidate) pairs of the open types, in listing order (as `audit_listing`
        sees them: `listing.candidate_pairs`)."""
        return listing.candidate_pairs(self, state, seat, kind, types, gated)
