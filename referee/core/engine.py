"""The one place where generic checks happen, before a game is asked anything.

Order of the checks: match not over, seat must act, version current, move well formed, move
of a kind the decision takes; only then `game.apply`, which decides legality by the rules.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.core.chance import (CHANCE, CHANCE_MOVE, EXTERNAL, INTERNAL, MODES, MOVE_TYPE,
                                 seat_to_json)
from referee.core.errors import (ChanceUnsupported, MalformedMove, MatchOver, NotYourTurn,
                                 StaleVersion, UnexpectedMove)
from referee.core.game import Game
from referee.core.types import Decision

@dataclass(frozen=True)
class MoveRecord:
    """One accepted move: who played it, at which version, and whether it was sealed."""

    seat: int
    move: dict
    version: int
    sealed: bool = False
    by: str = "seat"  # "seat" (the seat's own player or bot) or "referee" (a forfeit's random move)

    def to_dict(self) -> dict:
        """The record as plain data for the log."""
        data = {"seat": self.seat, "move": self.move, "version": self.version, "by": self.by}
        if self.sealed:
            data["sealed"] = True
        return data

    @classmethod
    def from_dict(cls, data: dict) -> "MoveRecord":
        """Rebuild a record from `to_dict` output."""
        return cls(data["seat"], data["move"], data["version"], data.get("sealed", False),
                   data.get("by", "seat"))


def start(game: Game, players: int, options: dict | None, seed: int, chance: str = INTERNAL):
    """Check the set-up and return (resolved options, initial state).

    `chance`: INTERNAL draws from `seed` (an int, or its decimal digits as records carry
    it: JSON-safe, see referee.service.bigint); EXTERNAL (games with `external_chance` only,
    else ChanceUnsupported) takes outcomes as moves of the CHANCE seat (referee.core.chance)."""
    seed = int(seed) if seed is not None else seed
    if chance not in MODES:
        raise ChanceUnsupported(f"chance is one of {list(MODES)}, got {chance!r}")
    resolved = game.spec.resolve_options(options)
    game.check_setup(players, resolved)
    if chance == EXTERNAL:
        return resolved, game.setup_external(players, resolved)
    return resolved, game.setup(players, resolved, seed)


def decision_for(game: Game, state, seat: int) -> Decision | None:
    """The decision `seat` must take now, or None."""
    for decision in game.pending(state):
        if decision.seat == seat:
            return decision
    return None


def check_move_shape(game: Game, decision: Decision, move) -> None:
    """Raise MalformedMove/UnexpectedMove unless `move` is a well-formed move of `decision`."""
    if not isinstance(move, dict):
        raise MalformedMove(f"a move is a JSON object with a 'type', got {type(move).__name__}")
    move_type = move.get("type")
    kind = move_kind(game, decision, move_type)
    if kind is None:
        known = [MOVE_TYPE] if decision.seat == CHANCE else [k.type for k in game.spec.moves]
        raise MalformedMove(f"unknown move type {move_type!r}; {game.spec.name} moves are {known}")
    if move_type not in decision.move_types:
        raise UnexpectedMove(
            f"a {move_type!r} move does not answer the pending {decision.kind!r} decision, "
            f"which takes {list(decision.move_types)}",
            decision=decision.kind, accepted=list(decision.move_types))
    errors = kind.errors(move)
    if errors:
        raise MalformedMove(f"malformed {move_type!r} move: {'; '.join(errors)}", errors=errors)


def move_kind(game: Game, decision: Decision, move_type):
    """The declared kind of `move_type`; the chance seat's moves are the core's CHANCE_MOVE."""
    if not isinstance(move_type, str):
        return None
    if decision.seat == CHANCE:
        return CHANCE_MOVE if move_type == MOVE_TYPE else None
    return game.spec.move_kind(move_type)


def check_turn(game: Game, state, version: int, seat, expected_version=None) -> Decision:
    """The generic checks that come before the move itself; returns the seat's decision."""
    decisions = game.pending(state)
    if not decisions:
        raise MatchOver("the match is over; no more moves are taken")
    decision = next((d for d in decisions if d.seat == seat), None)
    if decision is None:
        waiting = [seat_to_json(d.seat) for d in decisions]   # the chance seat is "chance"
        raise NotYourTurn(f"seat {seat_to_json(seat)} has no decision pending; waiting for "
                          f"seats {waiting}", waiting_for=waiting)
    if expected_version is not None and expected_version != version:
        raise StaleVersion(f"the move was made against version {expected_version}, "
                           f"but the match is at version {version}",
                           expected=expected_version, current=version)
    return decision


def play(game: Game, state, version: int, seat: int, move, expected_version=None,
         stored_json: bytes | None = None):
    """Every check, then the move: returns (new state, the sealed flag of the decision).
    `stored_json`: the JSON of `game.stored(state)`, if the caller holds it (apply_stored)."""
    decision = check_turn(game, state, version, seat, expected_version)
    check_move_shape(game, decision, move)
    if stored_json is None:
        return game.apply(state, seat, move), decision.sealed
    return game.apply_stored(state, seat, move, stored_json), decision.sealed


def replay(game: Game, players: int, options: dict | None, seed: int, moves,
           chance: str = INTERNAL):
    """Rebuild a match from its set-up and its moves ((seat, move) pairs, the CHANCE seat's
    among them in external chance); returns the state."""
    _, state = start(game, players, options, seed, chance)
    for version, (seat, move) in enumerate(moves):
        state, _ = play(game, state, version, seat, move)
    return state
