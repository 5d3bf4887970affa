"""The conformance suite's checks of chance (referee.core.chance): pure, like the suite.

- A pending chance decision lists its outcomes as legal moves, each with a probability in
  (0, 1], summing to 1, and `chance_outcomes` agrees with `legal_moves`.
- The chance seat cannot move while it is not pending (internal chance: never).
- A game that supports external chance turns an internal match into an external-chance log
  (`external_log`) that replays to the same outcome and the same views for every seat.
"""

from __future__ import annotations

from referee.core import engine
from referee.core.canonical import canonical
from referee.core.chance import CHANCE, EXTERNAL, chance_move
from referee.core.chancelog import external_log
from referee.core.errors import NotYourTurn, RefereeError


def check_chance_decision(game, state, decisions) -> None:
    """A pending chance decision's outcomes are its legal moves, with probabilities."""
    if not any(d.seat == CHANCE for d in decisions):
        assert game.chance_outcomes(state) == [], "chance outcomes listed while chance waits " \
                                                  "for nothing"
        return
    assert len(decisions) == 1, "while chance is pending no seat may decide"
    moves = game.legal_moves(state, CHANCE)
    weighed = game.chance_outcomes(state)
    assert [m for m, _ in weighed] == moves, "chance_outcomes and legal_moves disagree"
    assert all(0 < p <= 1 for _, p in weighed), f"a probability out of (0, 1]: {weighed}"
    assert abs(sum(p for _, p in weighed) - 1) < 1e-9, "chance probabilities do not sum to 1"


def check_chance_not_pending(game, state, version, decisions) -> int:
    """The chance seat moving when it is not pending: NotYourTurn (1 probe), else 0."""
    if any(d.seat == CHANCE for d in decisions):
        return 0
    try:
        engine.play(game, state, version, CHANCE, chance_move(0))
    except NotYourTurn:
        return 1
    except RefereeError as err:
        raise AssertionError(f"the chance seat, not pending, got {err.code}") from err
    raise AssertionError("the chance seat could move while it was not pending")


def check_same_external_setup(game, players, options, state) -> None:
    """An external-chance set-up is deterministic too."""
    again = game.setup_external(players, options)
    assert canonical(game.to_dict(again)) == canonical(game.to_dict(state)), "external set-up is not deterministic"


def check_conversion(game, players, options, seed, log, final) -> None:
    """The internal match, as an external-chance log, replays to the same outcome and views."""
    converted = external_log(game, players, options, seed, log)
    assert [m for m in converted if m[0] != CHANCE] == [tuple(m) for m in log], \
        "external_log changed the players' moves"
    try:
        again = engine.replay(game, players, options, 0, converted, chance=EXTERNAL)
    except RefereeError as err:
        raise AssertionError(f"the converted log does not replay with external chance: "
                             f"{err.code}: {err.message}") from err
    assert game.outcome(again) == game.outcome(final), \
        "the converted log reaches another outcome: a random event bypasses referee.core.chance"
    for viewer in (None, *range(players)):
        assert game.view(again, viewer) == game.view(final, viewer), (
            f"the converted log ends with another view for "
            f"{'the spectator' if viewer is None else f'seat {viewer}'}")
