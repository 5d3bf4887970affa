"""Turning a game's outcome into a match result, with forfeits ranked last."""

from __future__ import annotations

from referee.core.types import Outcome, Termination, ranks_from_keys


def apply_forfeits(outcome: Outcome, forfeited: list[int]) -> Outcome:
    """Rank forfeited seats below every other seat (the earliest forfeit last), keep scores.

    Seats that did not forfeit keep the order the game gave them, ties included; forfeited
    seats follow, in reverse order of forfeiting, each on a rank of its own.
    """
    if not forfeited:
        return outcome
    players = len(outcome.ranks)
    standing = [s for s in range(players) if s not in forfeited]
    ranks = [0] * players
    for seat in standing:
        ranks[seat] = 1 + sum(1 for o in standing if outcome.ranks[o] < outcome.ranks[seat])
    for place, seat in enumerate(reversed(forfeited)):
        ranks[seat] = len(standing) + 1 + place
    details = {**outcome.details, "game_ranks": list(outcome.ranks), "forfeited": list(forfeited)}
    return Outcome(outcome.scores, tuple(ranks), Termination.FORFEIT, details)



def adjudicate(game, state, players: int, cap: int) -> Outcome:
    """The result of a match stopped at its move cap: ranked by the game's standing (its
    score so far); every seat tied when the game gives none."""
    standing = game.standing(state)
    scores = tuple(standing) if standing is not None else (0,) * players
    return Outcome(scores, ranks_from_keys(list(scores)), Termination.MOVE_CAP,
                   {"move_cap": cap, "adjudicated": "tie" if standing is None else "standing"})
