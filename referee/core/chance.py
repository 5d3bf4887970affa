"""Chance as moves: every random event of a game is a decision of the pseudo-seat CHANCE.

A match runs its chance one of two ways, fixed when it starts (`engine.start(..., chance=)`):

- INTERNAL (the default): draws come from the match seed exactly as before this module
  existed; states, logs and golden replays are unchanged.
- EXTERNAL: the outcomes are supplied from outside (a dealer at a physical table, a log of a
  game played elsewhere). Whenever the game needs one, the move (or the set-up) waits, and
  the only pending decision is CHANCE's: `Decision(CHANCE, "chance:<kind>", ("chance",))`,
  whose legal moves are the possible outcomes `{"type": "chance", "outcome": <outcome>}`
  (`game.chance_outcomes(state)` gives them with their probabilities). An outcome that is
  not possible is refused with `move.illegal.chance.outcome`.

In a game: replace each random event by ONE call (the `internal` function is today's exact
code, so internal chance keeps its Rng calls in the same order)::

    from referee.core import chance

    roll = chance.draw("die", range(1, 7), lambda: Rng(s["seed"], "die", s["round"]).randint(1, 6))
    deck = chance.shuffled(CARDS, lambda: Rng(seed, "deck").shuffled(CARDS))  # no event
    prize = chance.take(s["deck"], "prize")                 # face up: everyone sees it
    card = chance.take(s["deck"], "deal", owner=seat)       # into seat's hand: only it sees it
    hidden = chance.take(s["pile"], "bury", owner=chance.NOBODY)   # face down, for nobody
    start = chance.draw("start", range(players), lambda: rng.below(players),
                        prompt={"what": "the start player"})

- `draw(kind, outcomes, internal, *, owner=None, weights=None, prompt=None)` -> outcome.
  `outcomes`: the possible outcomes (JSON-able; a list, a range, or a function returning
  one, evaluated only when needed); duplicates add up, `weights` (parallel numbers) weigh
  them otherwise; keep it small (hundreds at most: deal a hand card by card, not as one
  event). Internal: returns `internal()`. External: the next supplied outcome, as the
  game's own object from `outcomes`; none left -> raises NeedChance, which the kit catches.
- `take(deck, kind, *, owner=None, index=0, prompt=None)` -> the card: internal pops
  `deck[index]` (today's `deck.pop(index)`); external removes the supplied card (any card
  still in the deck, weighted by its copies).
- `shuffled(items, internal)` -> a list: internal returns `internal()` (today's shuffle);
  external returns the items sorted: an external deck is an unordered collection, and
  drawing from it (`take`) is the chance event, not the shuffle.
- `is_external()`: whether the code runs for an external-chance state (rarely needed).
- `owner` says who may see the outcome while the match runs: None = everyone (a die, a card
  laid face up), a seat number (a card dealt to that seat), or NOBODY (face down until the
  rules reveal it through a later public event). Everyone sees every outcome once it is over.

Rules for game code: call draw/take/shuffled only in `setup`, a rule's `play` and `settle`
(never in a check, `awaiting`, `view` or `redetermine`); make the same draws in the same order
in both modes; never read or write `state["chance"]` (the core's: see `referee.core.suspend`);
a game declares `external_chance = True` once every random event goes through this module.
External set-ups run with seed EXTERNAL_SEED, so a stray Rng call shows up as a different
outcome when `chancelog.external_log` converts an internal match (test that, per game).

Converting (in `referee.core.chancelog`, which uses the engine; this module never does):
`external_log(game, players, options, seed, moves)` replays an internal match with tracing
and returns the external log: the set-up's chance moves first, then each (seat, move)
followed by the chance moves it caused, as (CHANCE, move) pairs.
`engine.replay(game, players, options, 0, log, chance=EXTERNAL)` then reaches the same outcome.

What the rest of the system does with it (nothing for a game to write): the kit suspends and
re-plays moves (`referee.core.suspend`; a game's state is a dict without a top-level
"chance" key; `play` and `settle` must be deterministic given the outcomes); a waiting move's
views are the views of the state before it, a waiting set-up's view is None. The conformance
suite plays every game with `external_chance` in both modes and converts its internal
playouts with `external_log` (same outcome, same views), and its redetermination checks hold
a seat's view to hiding outcomes owned by others or by NOBODY: `view` and `redetermine`
treat them as any hidden card. Over HTTP the chance seat is written "chance" (SEAT_JSON);
the match log shows a chance move to its owner only while the match runs (everyone when
owner is None, no one when NOBODY), all of it once it is over.
"""

from __future__ import annotations

import json
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Callable

from referee.core.canonical import canonical as canonical_json
from referee.core.errors import IllegalMove
from referee.core.spec import MoveKind

CHANCE = -1
"""The pseudo-seat that plays chance (never index a list with it)."""
INTERNAL, EXTERNAL = "internal", "external"
MODES = (INTERNAL, EXTERNAL)
NOBODY = "nobody"
"""Owner of an outcome nobody sees while the match runs (a card dealt face down)."""
MOVE_TYPE = "chance"
EXTERNAL_SEED = 0
"""The seed an external-chance set-up gets: its draws never read it."""
ILLEGAL_OUTCOME = "move.illegal.chance.outcome"
SEAT_JSON = "chance"
"""How the API writes the chance seat (logs, prompts, the check endpoint): the string "chance"."""

CHANCE_MOVE = MoveKind(
    MOVE_TYPE, "the outcome of a chance event (played by the chance seat in external chance)",
    {"outcome": {"description": "one of the outcomes the pending chance decision lists"}},
    ("outcome",), {"type": MOVE_TYPE, "outcome": 3})
"""The move kind of the chance seat, common to every game."""


class NeedChance(Exception):
    """Raised by `draw` in external chance when no supplied outcome is left: the kit catches it."""

    def __init__(self, kind: str, outcomes: list, owner, prompt: dict):
        super().__init__(f"chance event {kind!r} needs an outcome")
        self.kind, self.outcomes, self.owner, self.prompt = kind, outcomes, owner, prompt

    def to_dict(self) -> dict:
        """What the suspension stores: kind, owner, outcomes with probabilities, prompt."""
        return {"kind": self.kind, "owner": self.owner, "prompt": self.prompt,
                "outcomes": [{"outcome": o, "probability": p} for o, p in self.outcomes]}


@dataclass(frozen=True)
class ChanceEvent:
    """One traced internal draw: its kind, outcome and owner."""

    kind: str
    outcome: object
    owner: object = None

    def move(self) -> dict:
        """The chance move that supplies this outcome."""
        return chance_move(self.outcome)


@dataclass
class _Session:
    mode: str
    supplied: list = field(default_factory=list)
    used: int = 0
    trace: list | None = None


_ACTIVE: ContextVar[_Session | None] = ContextVar("referee_chance", default=None)


def chance_move(outcome) -> dict:
    """The move `{"type": "chance", "outcome": outcome}`."""
    return {"type": MOVE_TYPE, "outcome": outcome}


def seat_to_json(seat):
    """A seat as the API writes it: "chance" for CHANCE, else the seat number (or None)."""
    return SEAT_JSON if seat == CHANCE else seat


def seat_from_json(value):
    """A seat as the API reads it: "chance" (or CHANCE) is CHANCE, else the value as given."""
    return CHANCE if value == SEAT_JSON else value


def is_external() -> bool:
    """Whether the running code plays an external-chance state (draws are supplied)."""
    active = _ACTIVE.get()
    return active is not None and active.mode == EXTERNAL


def draw(kind: str, outcomes, internal: Callable, *, owner=None, weights=None,
         prompt: dict | None = None):
    """One random event: `internal()` in internal chance, the supplied outcome in external."""
    _check_owner(owner)
    active = _ACTIVE.get()
    if active is None or active.mode == INTERNAL:
        value = internal()
        if active is not None and active.trace is not None:
            _traced(active.trace, kind, weighed(outcomes, weights), value, owner)
        return value
    options = weighed(outcomes, weights)
    if active.used < len(active.supplied):
        active.used += 1
        return chosen(kind, options, active.supplied[active.used - 1])
    raise NeedChance(kind, options, owner, dict(prompt or {}))


def take(deck: list, kind: str, *, owner=None, index: int = 0, prompt: dict | None = None):
    """Draw a card from `deck` (changed in place): `deck[index]` internally, else as supplied."""
    card = draw(kind, lambda: deck, lambda: deck[index], owner=owner, prompt=prompt)
    del deck[index if deck[index] == card else deck.index(card)]
    return card


def shuffled(items, internal: Callable) -> list:
    """A deck: `internal()` (the seeded shuffle) in internal chance, else the items sorted."""
    if not is_external():
        return internal()
    items = list(items)
    try:
        return sorted(items)
    except TypeError:  # mixed kinds of card: any fixed order will do
        return sorted(items, key=_ordering)


def weighed(outcomes, weights=None) -> list[tuple]:
    """The distinct outcomes with their probabilities, in first-seen order."""
    items = list(outcomes() if callable(outcomes) else outcomes)
    if weights is not None and len(weights) != len(items):
        raise ValueError(f"{len(items)} outcomes but {len(weights)} weights")
    totals: dict[str, list] = {}
    for i, item in enumerate(items):
        entry = totals.setdefault(canonical(item), [item, 0])
        entry[1] += 1 if weights is None else weights[i]
    total = sum(w for _, w in totals.values())
    if not totals or total <= 0:
        raise ValueError("a chance event needs at least one possible outcome")
    return [(item, w / total) for item, w in totals.values() if w > 0]


def canonical(value) -> str:
    """An outcome's identity: its canonical JSON (tuples and lists alike)."""
    return canonical_json(value).decode()


def _ordering(value) -> str:
    """A fixed order for a deck of mixed kinds of card (the text external decks are sorted
    by since issue 16; another text could reorder a stored state's deck)."""
    return json.dumps(value, sort_keys=True)


def chosen(kind: str, options: list[tuple], value):
    """The outcome among `options` ((outcome, p) pairs) equal to `value`; else IllegalMove."""
    key = canonical(value)
    for outcome, _ in options:
        if canonical(outcome) == key:
            return outcome
    possible = [o for o, _ in options]
    raise IllegalMove(ILLEGAL_OUTCOME, f"rule 'chance': {kind} cannot come out as {value!r}; "
                      f"possible outcomes: {possible[:20]}{' ...' if len(possible) > 20 else ''}",
                      kind=kind, outcome=value)


def _traced(trace: list, kind: str, options: list[tuple], value, owner) -> None:
    try:
        chosen(kind, options, value)
    except IllegalMove as err:  # the game's two modes disagree: a bug, not a player's fault
        raise ValueError(f"internal draw {kind!r} gave {value!r}, not among its outcomes "
                         f"({err.message})") from err
    trace.append(ChanceEvent(kind, value, owner))


def _check_owner(owner) -> None:
    if owner is None or owner == NOBODY or (isinstance(owner, int) and not
                                            isinstance(owner, bool) and owner >= 0):
        return
    raise ValueError(f"a chance owner is None, a seat or chance.NOBODY, got {owner!r}")


@contextmanager
def session(mode: str, supplied=(), trace: list | None = None):
    """Run game code with draws in `mode`: external ones answered from `supplied`, in order."""
    token = _ACTIVE.set(_Session(mode, list(supplied), 0, trace))
    try:
        yield _ACTIVE.get()
    finally:
        _ACTIVE.reset(token)


@contextmanager
def tracing():
    """Record internal draws as ChanceEvents in the list this yields."""
    events: list[ChanceEvent] = []
    with session(INTERNAL, trace=events):
        yield events


__all__ = ["CHANCE", "CHANCE_MOVE", "EXTERNAL", "EXTERNAL_SEED", "ILLEGAL_OUTCOME", "INTERNAL",
           "MODES", "NOBODY", "SEAT_JSON", "ChanceEvent", "NeedChance", "canonical",
           "chance_move", "chosen", "draw", "is_external", "seat_from_json",
           "seat_to_json", "session", "shuffled", "take", "tracing", "weighed"]
