"""The game kit: a game declares its rules, the core derives legal_moves, apply and from_dict.

A kit game subclasses `KitGame` and declares, per decision kind, one `Rule` per move type it
accepts: how to enumerate candidates and how to check and play one. From that the core
derives (so no game writes them again):

- `pending`: one Decision per `(seat, kind)` that `awaiting` names; move types, sealed and
  the prompt come from the declaration (`prompt` hook).
- `legal_moves`: the candidates the rule's `check` accepts (LEGAL: listed as built;
  ALIKE: one check decides them all). So listing and apply share one source of truth.
- `apply`: resolve the seat's decision, dispatch by move type, `check` on the input (a
  refused move costs no copy), copy the state ONCE, `play` on the copy, then `settle`.
  The input is never mutated. `apply_stored` is the same with the copy read from the JSON
  the caller holds of the state (the service, after committing it).
- `from_dict`: the declared `state_schema`, then the `check_state` invariants; InvalidState
  names the JSON path of the first bad field. `to_dict` is a copy.

The engine has already checked match over, the seat pending, the version, the move's shape
and that its type answers the decision: a kit game never checks turn again.

Example (tests/support/gops.py, abridged)::

    from referee.core.kit import DecisionKind, KitGame, Rule, no_check, one, rule_error
    from referee.core.statecheck import enum, integer, list_of, nat, nullable, record

    def _bids(s, seat):                   # candidates: one bid per card in hand
        return [{"type": "bid", "card": c} for c in s["hands"][seat]]

    def _check_bid(s, seat, move):        # reads only; raise (or return) the refusal
        if move["card"] not in s["hands"][seat]:
            raise rule_error("bid.not_in_hand", f"card {move['card']} is not in your hand")
            # -> code move.illegal.bid.not_in_hand, message "rule 'bid': card 9 is not ..."

    def _play_bid(s, seat, move):         # s is the private copy; the check has passed
        s["hands"][seat].remove(move["card"])
        s["bids"][seat] = move["card"]

    class Gops(KitGame):
        spec = SPEC                       # the GameSpec: its MoveKinds are the move types
        decisions = (
            DecisionKind("bid", (Rule("bid", _check_bid, _play_bid, _bids),), sealed=True),
            DecisionKind("award", (
                Rule("keep", no_check, lambda s, seat, m: _award(s, seat), one("keep")),
                Rule("give", _check_give, lambda s, seat, m: _award(s, m["to"]), _gifts))),
        )
        state_schema = record(players=integer(2, 4), hands=list_of(list_of(integer(1, 8))),
                              winner=nullable(nat(3)), ...)

        def awaiting(self, s):            # who decides what now: (seat, kind) pairs
            if s["winner"] is not None:
                return ((s["winner"], "award"),)
            return tuple((seat, "bid") for seat, b in enumerate(s["bids"]) if b is None)

        def prompt(self, s, seat, kind):  # optional: the Decision's prompt
            return {"prize": sum(s["prize"])} if kind == "award" else {}

        def settle(self, s):              # optional: automatic steps after every move
            if None not in s["bids"]:
                ...                       # resolve the round on the copy

        def check_state(self, s):         # optional: what the schema cannot say
            if len(s["hands"]) != s["players"]:
                raise state_error("$.hands", "needs one entry per player")

    plus setup, view, outcome (and redetermine, public_move, reveals) exactly as for any Game.

Declaring rules. `Rule(type, check, play, candidates, listing=CHECKED, gate=None)`:
`check(state, seat, move)` raises (or returns) a `rule_error(...)`, returns None when the
move is allowed, and must not change the state;
`play(state, seat, move)` changes the private copy and may assume `check` passed;
`candidates(state, seat)` yields candidate moves of this type (in the listing order).
`Rule.dry(type, handler, candidates, listing, gate)` adapts a `handler(state, seat, move,
dry)` that checks, returns early when `dry`, else changes the copy (apply then skips the
separate check).
A `DecisionKind(kind, rules, sealed=False, candidates=None)` lists its rules in the order its
move types are shown; its own `candidates(state, seat)` (moves of any of its types) replaces
the per-rule ones when one listing order must interleave types. `awaiting` may name the open
move types too, `(seat, kind, types)`, when options close some of a kind's rules.

Trusted candidates. Default CHECKED costs one `check` per candidate (no copy). Mark
`listing=LEGAL` when the enumerator only builds legal moves, or `ALIKE` when candidates
pass or fail together (the first one's check decides). A rule's `gate(state, seat)` may
say False when its check refuses every move of its type now, whatever the move (no action
left, too little stone): listing then neither builds nor checks its candidates. Either way
apply still checks what is submitted, by `check` alone; `audit_listing(game, state, seat)`
reports where a shortcut or a gate and per-candidate checks disagree: call it in the
game's tests over playouts.

Rule errors: `raise rule_error("give.target", "seat 5 is not another seat")` gives code
`move.illegal.give.target` and message "rule 'give': seat 5 ..." (the rule named in the
message is the code's first segment; pass `rule=` when it differs, e.g. Yunnan's
`rule_error("bid.space", ..., rule="space")`). Extra keywords become the error's details.
While moves are listed (`legal_moves`, `accepts`) only a yes or no is wanted: `rule_error`
then gives one shared refusal, no code or message built, so a check (or an enumerator
built on checks) raises or returns refusals and never decides by what one says.

State. `state_schema` is JSON Schema (see `referee.core.statecheck` for short builders);
`check_state(state)` checks what a schema cannot (lengths per player, conservation), raising
`statecheck.state_error("$.hands", "one hand per player")`; it runs only on data that fits
the schema, and a stray KeyError/TypeError there still becomes InvalidState. A state is
JSON data, as the service stores it: dicts with str keys, lists, str, int, float, bool and
None (no tuples, no Enum members). The kit's copies (`apply`, `to_dict`, `from_dict`) are
`copying.json_copy`, exact for such data (`apply_stored` reads its copy from the JSON); an
object found in two places of the state comes back as two equal objects, as from the
service's JSON, so a game never changes one of them expecting the other to follow.

External chance (`referee.core.chance`, `referee.core.suspend`). A kit game whose random
events all go through `chance.draw`/`take`/`shuffled` sets `external_chance = True`; then
`engine.start(..., chance=EXTERNAL)` calls `setup_external`, and for a state carrying
`state["chance"]` the kit's `apply` plays the move inside an external chance session: when a
draw has no outcome left, the move (or set-up) WAITS: the state returned is the state before
it plus the waiting record, `pending` is only `Decision(CHANCE, "chance:<kind>", ("chance",),
prompt={"event", "owner", "outcomes": [{"outcome", "probability"}], "about"})`,
`legal_moves(state, CHANCE)` lists `{"type": "chance", "outcome": o}` and
`chance_outcomes(state)` pairs them with probabilities. The chance move re-plays the waiting
move from that base state with every outcome supplied so far (so `play` and `settle` must be
deterministic given the outcomes). `from_dict` checks the chance record (schema, then the
waiting move played again). A set-up that waits has no game keys: the kit makes the game's
`view`, `outcome`, `standing` and `reveals` answer None/0 and `redetermine` the state itself
for it; a waiting move's views are the game's views of the base state, so games never look
at `state["chance"]`.

Migrating a game: delete `pending`, `legal_moves`, `apply`, `to_dict`, `from_dict`, the
dispatch tables (_LEGAL/_APPLY, if/elif, HANDLERS/CANDIDATES), the local "rule 'x'" helper,
every turn check (`move.illegal.turn`), the `deep_copy` on entry to apply, and the
hand-written state validation; keep setup, view, outcome, redetermine, public_move and the
rules themselves. Keep each decision's listing order (rule order, then candidate order):
builtin random bots pick by index, so another order plays other moves for the same seed.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Callable, Iterable

import orjson

from referee.core import suspend
from referee.core.chance import CHANCE, seat_to_json
from referee.core.copying import json_copy
from referee.core.decisions import describe_kinds
from referee.core.errors import IllegalMove, InvalidState, NotYourTurn, UnexpectedMove
from referee.core.game import Game
from referee.core.schema import check_schema
from referee.core.statecheck import validate
from referee.core.types import Decision

RECENT = 8
"""States a kit game remembers the awaiting entries and decisions of. A gunicorn worker
interleaves the prompts and moves of a few matches: remembering one state, `pending` was
worked out 2.9 times a prompt and move at 8 clients instead of once (3.4 at 32). A few, not
dozens: a state kept here can outlive its match's version in the service's cache, and
freeing it later touches colder memory (32 cost more in freeing than they saved)."""

CHECKED, LEGAL, ALIKE = "checked", "legal", "alike"
"""How a rule's candidates become legal moves: each checked; trusted as built; the first
one's check decides for all (they differ only in what the check does not look at)."""
_LISTINGS = (CHECKED, LEGAL, ALIKE)
_ILLEGAL = "move.illegal."


class _Listing(threading.local):
    """Whether this thread is listing legal moves (`legal_moves`, `accepts`): only a yes or
    no is wanted of every check then, never the refusal itself. `with _listing:` around it
    (nested listings count: a check may ask `accepts` of another rule)."""

    depth = 0

    def __enter__(self) -> None:
        self.depth += 1

    def __exit__(self, *exc) -> None:
        self.depth -= 1


_listing = _Listing()
_REFUSED = IllegalMove(_ILLEGAL + "refused", "refused while listing legal moves")
"""The one refusal `rule_error` gives while listing: building a refusal's IllegalMove (its
code, message and details) cost some 1.7 us of the 2 a refused candidate took, about 11 of
them a Yinzi move; what a player submits is checked outside listing, in full."""


def rule_error(code: str, message: str, *, rule: str | None = None, **details) -> IllegalMove:
    """The IllegalMove `move.illegal.<code>` with message "rule '<rule>': <message>"
    (while listing legal moves, one shared refusal: see `_REFUSED`)."""
    if _listing.depth:
        return _REFUSED
    code = code[len(_ILLEGAL):] if code.startswith(_ILLEGAL) else code
    return IllegalMove(_ILLEGAL + code, f"rule '{rule or code.split('.')[0]}': {message}",
                       **details)


def one(move_type: str, **fields) -> Callable:
    """A candidates function listing the single move `{"type": move_type, **fields}`."""
    return lambda state, seat: [{"type": move_type, **fields}]


def no_check(state, seat: int, move: dict) -> None:
    """A check for moves the rules always allow once their decision is pending."""


@dataclass(frozen=True)
class Rule:
    """How one move type answers one decision kind: enumerate, check, play."""

    type: str
    check: Callable          # (state, seat, move) -> None, or raises/returns a rule_error
    play: Callable           # (state, seat, move) -> None; changes the private copy
    candidates: Callable | None = None  # (state, seat) -> candidate moves of this type
    listing: str = CHECKED
    play_checks: bool = False  # play checks by itself (Rule.dry): apply skips `check`
    gate: Callable | None = None  # (state, seat) -> False: `check` refuses every move now
    handler: Callable | None = None  # Rule.dry's handler: listing calls it, not `check`

    def __post_init__(self):
        if self.listing not in _LISTINGS:
            raise ValueError(f"rule {self.type!r}: listing must be one of {_LISTINGS}")

    @classmethod
    def dry(cls, type: str, handler: Callable, candidates: Callable | None = None,
            listing: str = CHECKED, gate: Callable | None = None) -> "Rule":
        """A rule from one `handler(state, seat, move, dry)` that returns early when `dry`."""
        return cls(type, lambda s, seat, m: handler(s, seat, m, True),
                   lambda s, seat, m: handler(s, seat, m, False), candidates, listing, True,
                   gate, handler)


@dataclass(frozen=True)
class DecisionKind:
    """A kind of decision, the rules of the move types it takes, and whether it is sealed."""

    kind: str
    rules: tuple[Rule, ...]
    sealed: bool = False
    candidates: Callable | None = None  # (state, seat) -> moves of any type, listing order

    @property
    def move_types(self) -> tuple[str, ...]:
        """The move types this decision takes, in declaration order."""
        return tuple(r.type for r in self.rules)


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
            cls._kinds, cls._rules = _compile(cls)
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
        with _listing:
            return self._listed(state, seat, found)

    def _listed(self, state, seat: int, found: tuple) -> list[dict]:
        """`legal_moves` of the decision `found`, while listing (see `_REFUSED`): rule by
        rule, each rule's candidates taken or checked together (Build lists up to 672)."""
        kind, types = found
        if self._kinds[kind].candidates is not None:
            return self._listed_mixed(state, seat, found)
        moves: list[dict] = []
        for rule in self._open_rules(state, seat, kind, types):
            candidates = rule.candidates(state, seat)
            if rule.listing == LEGAL:
                moves += candidates
            elif rule.listing == ALIKE:
                candidates = list(candidates)
                if candidates and _accepts(rule, state, seat, candidates[0]):
                    moves += candidates
            else:
                moves += _checked(rule, state, seat, candidates)
        return moves

    def _listed_mixed(self, state, seat: int, found: tuple) -> list[dict]:
        """`_listed` for a decision whose own candidates interleave its move types."""
        verdicts: dict[str, bool] = {}
        moves = []
        for rule, move in self._candidates(state, seat, *found):
            if rule.listing == LEGAL:
                ok = True
            elif rule.listing == ALIKE:
                ok = verdicts.get(rule.type)
                if ok is None:
                    ok = verdicts[rule.type] = _accepts(rule, state, seat, move)
            else:
                ok = _accepts(rule, state, seat, move)
            if ok:
                moves.append(move)
        return moves

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
        """(rule, candidate) pairs of the open types, in listing order, unfiltered but for
        the rules whose gate is closed (none left out unless `gated`)."""
        decl = self._kinds[kind]
        if decl.candidates is not None:
            shut: dict[str, bool] = {}
            for move in decl.candidates(state, seat):
                if move["type"] in types:
                    rule = self._rules[kind, move["type"]]
                    if gated and rule.gate is not None:
                        closed = shut.get(rule.type)
                        if closed is None:
                            closed = shut[rule.type] = not rule.gate(state, seat)
                        if closed:
                            continue
                    yield rule, move
            return
        for rule in self._open_rules(state, seat, kind, types, gated):
            for move in rule.candidates(state, seat):
                yield rule, move

    def _open_rules(self, state, seat: int, kind: str, types: tuple, gated: bool = True):
        """The rules of the open types, in listing order, less those whose gate is closed
        (none left out unless `gated`)."""
        for move_type in types:
            rule = self._rules[kind, move_type]
            if not gated or rule.gate is None or rule.gate(state, seat):
                yield rule


def accepts(rule: Rule, state, seat: int, move: dict) -> bool:
    """Whether `rule` accepts `move` (its check only: no copy, the state is not touched)."""
    with _listing:
        return _accepts(rule, state, seat, move)


def _checked(rule: Rule, state, seat: int, candidates) -> list[dict]:
    """The `candidates` that `rule` accepts, while listing: `_accepts` of each, in one loop
    that calls the check itself (a dry rule's handler, not its `check` wrapper): two Python
    calls less per candidate, of the dozens a Yinzi prompt checks."""
    handler, check, accepted = rule.handler, rule.check, []
    for move in candidates:
        try:
            refusal = check(state, seat, move) if handler is None else \
                handler(state, seat, move, True)
        except IllegalMove as err:
            if err is _REFUSED:   # as in _accepts
                err.__traceback__ = err.__context__ = None
            continue
        if refusal is None:
            accepted.append(move)
    return accepted


def _accepts(rule: Rule, state, seat: int, move: dict) -> bool:
    """`accepts` while listing already (a dry rule's handler called directly, as `_checked`
    does)."""
    try:
        handler = rule.handler
        return (rule.check(state, seat, move) if handler is None else
                handler(state, seat, move, True)) is None
    except IllegalMove as err:
        if err is _REFUSED:   # raised again and again: let go of this raise's frames
            err.__traceback__ = err.__context__ = None
        return False


def audit_listing(game: KitGame, state, seat: int) -> list[str]:
    """Where the listing shortcuts disagree with checking every candidate ([] if nowhere).

    Also reports candidates that are not well-formed moves of their type. For game tests:
    LEGAL and ALIKE listings and closed gates are promises the per-candidate checks must
    confirm (every candidate is checked here, a closed gate's too).
    """
    found = game._decision_of(state, seat)
    if found is None:
        return []
    listed = game.legal_moves(state, seat)
    checked, problems = [], []
    for rule, move in game._candidates(state, seat, *found, gated=False):
        errors = game.spec.move_kind(rule.type).errors(move)
        if errors:
            problems.append(f"candidate {move} is malformed: {errors}")
        if accepts(rule, state, seat, move):
            checked.append(move)
    if listed != checked:
        extra = [m for m in listed if m not in checked]
        missing = [m for m in checked if m not in listed]
        problems.append(f"{found[0]}: listed but refused by check {extra}; "
                        f"accepted by check but not listed {missing}")
    return problems


def _compile(cls) -> tuple[dict, dict]:
    """The decision and rule tables of a kit game, checked when the class is defined."""
    spec, kinds, rules = cls.spec, {}, {}
    for decl in cls.decisions:
        if decl.kind in kinds:
            raise ValueError(f"{spec.name}: decision kind {decl.kind!r} declared twice")
        kinds[decl.kind] = decl
        for rule in decl.rules:
            if spec.move_kind(rule.type) is None:
                raise ValueError(f"{spec.name}: {decl.kind!r} rule for undeclared move type "
                                 f"{rule.type!r}")
            if (decl.kind, rule.type) in rules:
                raise ValueError(f"{spec.name}: two {rule.type!r} rules in {decl.kind!r}")
            if rule.candidates is None and decl.candidates is None:
                raise ValueError(f"{spec.name}: {decl.kind!r}/{rule.type!r} has no candidates")
            rules[decl.kind, rule.type] = rule
    if cls.state_schema is not None:
        check_schema(cls.state_schema, f"{spec.name} state")
    return kinds, rules


__all__ = ["ALIKE", "CHECKED", "LEGAL", "DecisionKind", "KitGame", "Rule",
           "accepts", "audit_listing", "no_check", "one", "rule_error"]
