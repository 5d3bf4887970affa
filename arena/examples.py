"""One example request and answer per decision kind of each game, from real matches: seeded
playouts through the engine (the builtin random bot choosing), each request built by the
arena's own builders (arena/requests.py). clients/protocol/make_examples.py writes them to
clients/protocol/examples/<game>.json; a test checks each against the protocol document and
that writing them again gives the same files.

Deterministic: the time figures are the default limits with a full bank and a fixed
previous latency (a real match measures its own), the ids name the set-up.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from arena.limits import DEFAULTS
from arena.requests import end_request, move_request, start_request, time_left
from referee.conformance import playable_setups
from referee.core import engine
from referee.core.bots import random_move

SEEDS = range(1, 41)
"""Seeds tried per set-up, in order, until every decision kind has an example."""

LATENCY_MS = 4.0
"""The `previous_latency_ms` of an example past a seat's first move (illustrative)."""


@dataclass
class _Meta:
    """What the request builders read of a match."""

    id: str
    game: str
    rules_version: str
    players: int
    options: dict
    seats: list = field(default_factory=list)


def _meta(game, players: int, options: dict, seed: int) -> _Meta:
    tag = "-".join(f"{k}={v}" for k, v in sorted(options.items()))
    return _Meta(f"example-{game.spec.name}-{players}p-seed{seed}" + (f"-{tag}" if tag else ""),
                 game.spec.name, game.spec.rules_version, players, options,
                 [{"name": f"random-{s}"} for s in range(players)])


def _request(game, meta, state, version: int, decision, moved: set) -> dict:
    limits = DEFAULTS
    return move_request(meta, version, decision.seat, decision.to_dict(),
                        game.view(state, decision.seat), game.legal_moves(state, decision.seat),
                        time_left(limits, limits["bank_ms"], limits["move_ms"] + limits["bank_ms"]),
                        LATENCY_MS if decision.seat in moved else None)


def _playout(game, players: int, options: dict, seed: int, found: dict) -> dict | None:
    """Play one seeded match, adding the first example of each kind not yet `found`; the
    /start and /end examples of seat 0 if the match ended."""
    meta = _meta(game, players, options, seed)
    _, state = engine.start(game, players, options, seed)
    version, moved = 0, set()
    while True:
        decisions = game.pending(state)
        if not decisions:
            break
        for decision in decisions:
            if decision.kind not in found:
                found[decision.kind] = {
                    "request": _request(game, meta, state, version, decision, moved),
                    "answer": {"move": random_move(game, state, decision.seat, seed, version)}}
        seat = decisions[0].seat
        move = random_move(game, state, seat, seed, version)
        state, _ = engine.play(game, state, version, seat, move)
        moved.add(seat)
        version += 1
    outcome = game.outcome(state)
    return {"start": start_request(meta, 0, DEFAULTS),
            "end": end_request(meta, 0, outcome.to_dict(), game.view(state, 0))}


def examples(game) -> dict:
    """{game, rules_version, start, end, kinds: {kind: {request, answer}}} for `game`."""
    wanted = [k["kind"] for k in game.decision_kinds()]
    found, ends = {}, None
    for players, options in playable_setups(game):
        for seed in SEEDS:
            ended = _playout(game, players, options, seed, found)
            ends = ends or ended
            if all(k in found for k in wanted):
                break
        if all(k in found for k in wanted):
            break
    return {"game": game.spec.name, "rules_version": game.spec.rules_version,
            "note": "from seeded matches (the match id names the set-up); time figures are "
                    "the default limits, previous_latency_ms illustrative",
            "start": {"request": ends["start"]}, "end": {"request": ends["end"]},
            "kinds": {k: found[k] for k in wanted if k in found},
            "missing": [k for k in wanted if k not in found]}
