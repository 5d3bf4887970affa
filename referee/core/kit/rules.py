"""The kit's declarations: `Rule` (one move type answering one decision kind), `DecisionKind`,
the listing modes, and the check of a game's declaration when its class is defined."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from referee.core.schema import check_schema

CHECKED, LEGAL, ALIKE = "checked", "legal", "alike"
"""How a rule's candidates become legal moves: each checked; trusted as built; the first
one's check decides for all (they differ only in what the check does not look at)."""
_LISTINGS = (CHECKED, LEGAL, ALIKE)


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


def compile_tables(cls) -> tuple[dict, dict]:
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
