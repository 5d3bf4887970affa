"""Listing legal moves: the thread's listing flag and its shared refusal (`rule_error`), the
candidates of a decision in listing order, the checks that keep or drop them, and
`audit_listing`, which holds the listing shortcuts (LEGAL, ALIKE, gates) to the checks."""

from __future__ import annotations

import threading

from referee.core.errors import IllegalMove
from referee.core.kit.rules import ALIKE, LEGAL, Rule

# `game` below is a KitGame, left unannotated: importing game.py here, even for types only,
# would close an import circle (game.py lists through this module).

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


def listed(game, state, seat: int, found: tuple) -> list[dict]:
    """The legal moves of `seat`'s decision `found` (its kind and open types), in listing
    order: rule order, then candidate order (builtin bots pick by index)."""
    with _listing:
        return _listed(game, state, seat, found)


def _listed(game, state, seat: int, found: tuple) -> list[dict]:
    """`legal_moves` of the decision `found`, while listing (see `_REFUSED`): rule by
    rule, each rule's candidates taken or checked together (Build lists up to 672)."""
    kind, types = found
    if game._kinds[kind].candidates is not None:
        return _listed_mixed(game, state, seat, found)
    moves: list[dict] = []
    for rule in open_rules(game, state, seat, kind, types):
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


def _listed_mixed(game, state, seat: int, found: tuple) -> list[dict]:
    """`_listed` for a decision whose own candidates interleave its move types."""
    verdicts: dict[str, bool] = {}
    moves = []
    for rule, move in candidate_pairs(game, state, seat, *found):
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


def candidate_pairs(game, state, seat: int, kind: str, types: tuple, gated: bool = True):
    """(rule, candidate) pairs of the open types, in listing order, unfiltered but for
    the rules whose gate is closed (none left out unless `gated`)."""
    decl = game._kinds[kind]
    if decl.candidates is not None:
        shut: dict[str, bool] = {}
        for move in decl.candidates(state, seat):
            if move["type"] in types:
                rule = game._rules[kind, move["type"]]
                if gated and rule.gate is not None:
                    closed = shut.get(rule.type)
                    if closed is None:
                        closed = shut[rule.type] = not rule.gate(state, seat)
                    if closed:
                        continue
                yield rule, move
        return
    for rule in open_rules(game, state, seat, kind, types, gated):
        for move in rule.candidates(state, seat):
            yield rule, move


def open_rules(game, state, seat: int, kind: str, types: tuple, gated: bool = True):
    """The rules of the open types, in listing order, less those whose gate is closed
    (none left out unless `gated`)."""
    for move_type in types:
        rule = game._rules[kind, move_type]
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


def audit_listing(game, state, seat: int) -> list[str]:
    """Where the listing shortcuts disagree with checking every candidate ([] if nowhere).

    Also reports candidates that are not well-formed moves of their type. For game tests:
    LEGAL and ALIKE listings and closed gates are promises the per-candidate checks must
    confirm (every candidate is checked here, a closed gate's too).
    """
    found = game._decision_of(state, seat)
    if found is None:
        return []
    shown = game.legal_moves(state, seat)
    checked, problems = [], []
    for rule, move in candidate_pairs(game, state, seat, *found, gated=False):
        errors = game.spec.move_kind(rule.type).errors(move)
        if errors:
            problems.append(f"candidate {move} is malformed: {errors}")
        if accepts(rule, state, seat, move):
            checked.append(move)
    if shown != checked:
        extra = [m for m in shown if m not in checked]
        missing = [m for m in checked if m not in shown]
        problems.append(f"{found[0]}: listed but refused by check {extra}; "
                        f"accepted by check but not listed {missing}")
    return problems
