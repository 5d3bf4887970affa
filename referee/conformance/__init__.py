"""The conformance suite every registered game must pass: random legal playouts, checked.

The playout loop is here; what it checks at each step is in its modules: `state` (a state's
text and fingerprints), `moves` (listed moves accepted, near-misses refused), `views` (schemas,
hidden information), `chance` (the chance seat and external-chance conversion), `positions`
(each state's position notation, both ways).

Pure (no I/O), so game authors can run it on their own game: `run_playout(game, players,
options, seed)` raises AssertionError naming the first broken promise of the game contract.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.conformance import chance as chancecheck
from referee.conformance.moves import (ShapeMemo, check_listed_moves_accepted,
                                       check_unlisted_rejected, play_chosen)
from referee.conformance.positions import check_position
from referee.conformance.state import Before, canonical_and_parsed, snapshot
from referee.conformance.views import ViewSchemaMemo, check_view_copy, check_view_hides
from referee.core import engine
from referee.core.canonical import canonical
from referee.core.chance import CHANCE, INTERNAL
from referee.core.errors import RefereeError
from referee.core.game import Game
from referee.core.rng import Rng

MAX_MOVES = 50_000


@dataclass
class PlayoutStats:
    """What one playout did: moves, probes rejected, the log and the final state."""

    moves: int = 0
    probes: int = 0
    redeterminations_differing: int = 0
    checked_states: int = 0
    log: list = field(default_factory=list)
    final_state: object = None


def uniform_choice(state, decision, moves, rng):
    """The default chooser of playouts: any listed move, uniformly."""
    return rng.choice(moves)


def run_playout(game: Game, players: int, options: dict | None, seed: int, *,
                accept_all: int = 4, probes: int = 6, views: bool = True,
                choose=uniform_choice, chance: str = INTERNAL) -> PlayoutStats:
    """Play one match to the end, checking the contract at every state.

    `choose(state, decision, moves, rng)` picks each move among the listed ones; a game can
    bias it to reach rare rules (it must return one of `moves`). `chance="external"` plays
    the chance seat too (its listed outcomes, chosen alike); an internal playout of a game
    with `external_chance` is also converted to an external-chance log and replayed.
    """
    options, state = engine.start(game, players, options, seed, chance)
    if chance == INTERNAL:
        _check_same_setup(game, players, options, seed, state)
    else:
        chancecheck.check_same_external_setup(game, players, options, state)
    rng = Rng(seed, "conformance")
    stats, version = PlayoutStats(), 0
    shapes, schemas = ShapeMemo(), ViewSchemaMemo(game)
    while True:
        before = _check_state(game, state, players, stats, rng, views, seed, schemas)
        decisions = game.pending(state)
        if not decisions:
            break
        assert version < MAX_MOVES, f"no end after {MAX_MOVES} moves"
        decision = rng.choice(decisions)
        moves = game.legal_moves(state, decision.seat)
        texts, applied = check_listed_moves_accepted(game, state, version, decision, moves,
                                                      rng, accept_all, before, shapes)
        stats.probes += check_unlisted_rejected(game, state, version, decision, moves, rng,
                                                 probes, players, texts)
        stats.probes += chancecheck.check_chance_not_pending(game, state, version, decisions)
        move = choose(state, decision, moves, rng)
        assert move in moves, f"the chooser returned an unlisted move {move}"
        state = play_chosen(game, state, version, decision.seat, move, before, applied)
        stats.log.append((decision.seat, move))
        version += 1
    _check_outcome(game, state, players)
    _check_replay(game, players, options, seed, stats.log, state, chance)
    if chance == INTERNAL and game.external_chance:
        chancecheck.check_conversion(game, players, options, seed, stats.log, state)
    stats.moves, stats.final_state = version, state
    return stats


def _check_same_setup(game, players, options, seed, state) -> None:
    again = game.setup(players, options, seed)
    assert snapshot(game, again) == snapshot(game, state), "setup is not deterministic"


def _check_state(game, state, players, stats, rng, views, seed=None, schemas=None) -> Before:
    """Every per-state promise; returns the state as first seen (its canonical text), for the
    checks after to tell whether anything changed it."""
    data = game.to_dict(state)
    text, parsed = canonical_and_parsed(data)
    before = Before(game, state, text)
    assert canonical(game.to_dict(game.from_dict(parsed))) == text, \
        "to_dict/from_dict do not round-trip"
    check_position(game, state, parsed)
    decisions = game.pending(state)
    seats = [d.seat for d in decisions]
    assert len(seats) == len(set(seats)), f"a seat has two pending decisions: {seats}"
    assert all(0 <= s < players or s == CHANCE for s in seats), \
        f"pending seat out of range: {seats}"
    chancecheck.check_chance_decision(game, state, decisions)
    assert (game.outcome(state) is None) == bool(decisions), \
        "outcome must be None exactly while decisions are pending"
    for seat in (*range(players), CHANCE):
        if seat not in seats:
            assert game.legal_moves(state, seat) == [], f"seat {seat} not pending has legal moves"
    if views:
        memo = {}   # one for the state's viewers, as the service keeps it (Game.served_view)
        served = {viewer: game.served_view(state, viewer, memo)
                  for viewer in [None, *range(players)]}
        # a re-deal is told apart by its stored form beside the state's own, not beside the
        # copy `data`: a re-deal that shares the parts it leaves alone (Yinzi's) compares
        # those by identity, where beside a copy every one of them was compared in full
        stored = game.stored(state)
        for viewer, view in served.items():
            stats.redeterminations_differing += check_view_hides(game, state, viewer, view, rng,
                                                                  seed, stored, seats, schemas)
        # `view` is `served_view` made the caller's own (a copy, in the games that share):
        # the same data, checked for one viewer a state in turn, every viewer within a few
        viewer = [*served][stats.checked_states % len(served)]
        check_view_copy(game, state, viewer, served[viewer])
        stats.checked_states += 1
    return before


def _check_outcome(game, state, players) -> None:
    outcome = game.outcome(state)
    assert outcome is not None, "the game has no pending decision but no outcome"
    assert len(outcome.scores) == players and len(outcome.ranks) == players, \
        "outcome needs a score and a rank per seat"
    assert all(1 <= r <= players for r in outcome.ranks), f"ranks out of range: {outcome.ranks}"
    assert min(outcome.ranks) == 1, "somebody must rank first"
    canonical(outcome.to_dict())


def _check_replay(game, players, options, seed, log, state, chance=INTERNAL) -> None:
    rebuilt = engine.replay(game, players, options, seed, log, chance)
    assert snapshot(game, rebuilt) == snapshot(game, state), \
        "replaying the seed and the log does not rebuild the same state"


def option_variants(game: Game) -> list[dict]:
    """The option sets worth a playout: the defaults, then each option at its other values."""
    variants = [{}]
    for opt in game.spec.options:
        if opt.kind == "bool":
            values = [not opt.default]
        elif opt.kind == "choice":
            values = [c for c in opt.choices if c != opt.default]
        else:
            values = [v for v in (opt.minimum, opt.maximum) if v is not None and v != opt.default]
        variants += [{opt.name: v} for v in values]
    return variants


def playable_setups(game: Game) -> list[tuple[int, dict]]:
    """Every (players, options) pair from `option_variants` that the game accepts."""
    setups = []
    for players in game.spec.player_counts():
        for options in option_variants(game):
            try:
                engine.start(game, players, options, 0)
            except RefereeError:
                continue
            setups.append((players, options))
    return setups
