"""Matches and tournaments from Python, in this process, with no server: for a notebook or a
script (what kaggle-environments users expect).

    from arena.local import play_match

    def greedy(legal_moves):             # any of the request's fields, by name
        return legal_moves[-1]

    run = play_match("dschunke", [greedy, "builtin:random", "builtin:random"], seed=7)
    run.result["ranks"], run.log["moves"][:3]

A seat is a Python function, `builtin:random`, or an HTTP bot's URL (`URL@SECRET_FILE`, as for
`referee play`). A function of one parameter gets the whole request a bot gets at `POST /move`
(the bot kit's `move_fn(request)`, so one function serves both); otherwise each parameter gets
the request field of its name (`view`, `legal_moves`, `decision`, `seat`, `version`, `game`,
`time`, `match`, …). It returns a move. The same engine, runner, time limits, failure policy
and log format as the service: an exception, a non-move or an answer over the time budget is
the seat's failure (`bot.exception`, `bot.bad_response`, `bot.timeout`), never a substitute.
"""

from __future__ import annotations

import inspect
import logging
import time
from dataclasses import dataclass, field

from arena.limits import DEFAULTS
from arena.offline import enter_bot, offline_arena, run_to_end
from arena.progress import TournamentProgress, write_tournament
from arena.requests import move_request, time_left
from referee.service.drivers import Choice, SeatDriver, Turn
from referee.service.errors import InvalidSeats
from referee.service.plugins import Plugin
from referee.service.records import to_jsonl

log = logging.getLogger(__name__)


class FunctionDriver(SeatDriver):
    """Drives seats of kind `py:<name>`: Python functions registered with `add`."""

    def __init__(self):
        self.functions: dict[str, object] = {}

    def add(self, fn, name: str | None = None) -> str:
        """Register `fn` (once per function); its seat kind `py:<name>`."""
        for ref, known in self.functions.items():
            if known is fn:
                return f"py:{ref}"
        base = name or getattr(fn, "__name__", "bot").replace(":", "_").strip("<>") or "bot"
        ref, n = base, 1
        while ref in self.functions:
            n += 1
            ref = f"{base}-{n}"
        self.functions[ref] = fn
        return f"py:{ref}"

    def validate(self, ref: str) -> None:
        """Raise InvalidSeats unless a function is registered under `ref`."""
        if ref not in self.functions:
            raise InvalidSeats(f"no Python function {ref!r} in this process")

    def describe(self, ref: str) -> dict:
        """The seat's public description: the function's name."""
        return {"name": ref}

    def choose(self, turn: Turn, ref: str) -> Choice:
        """Call the function with the request a bot would get; time it against the limits."""
        meta, live, seat = turn.meta, turn.live, turn.seat
        limits = {**DEFAULTS, **meta.limits}
        bank = float(live.clocks.get(str(seat), limits["bank_ms"]))
        request = _request(turn, limits, bank)
        started = time.perf_counter()
        try:
            move = _call(self.functions[ref], request)
        except Exception as err:  # the seat's failure, like a bot answering 500
            log.warning("seat %s (%s) raised in match %s", seat, ref, meta.id, exc_info=True)
            return Choice(failure={"code": "bot.exception", "detail":
                                   f"{type(err).__name__}: {err}"[:300]}, clock_ms=bank)
        latency = (time.perf_counter() - started) * 1000
        bank = max(0.0, bank - max(0.0, latency - limits["move_ms"]))
        if latency > limits["move_ms"] + float(live.clocks.get(str(seat), limits["bank_ms"])):
            return Choice(failure={"code": "bot.timeout", "limit_ms": limits["move_ms"]},
                          latency_ms=round(latency, 3), clock_ms=bank)
        if not isinstance(move, dict):
            return Choice(failure={"code": "bot.bad_response", "detail": "a move is a dict, "
                                   f"not {type(move).__name__}"},
                          latency_ms=round(latency, 3), clock_ms=bank)
        return Choice(move=move, latency_ms=round(latency, 3), clock_ms=round(bank, 3))

    def rejected(self, ref: str, failure: dict, match_id: str, version: int) -> None:
        """An illegal move is in the match's log; nothing else keeps a record here."""


def _request(turn: Turn, limits: dict, bank: float) -> dict:
    """The request a bot gets at POST /move (bot protocol v1)."""
    live, seat = turn.live, turn.seat
    return move_request(turn.meta, live.version, seat, turn.decision.to_dict(),
                        turn.game.view(turn.state, seat), turn.game.legal_moves(turn.state, seat),
                        time_left(limits, bank, limits["move_ms"] + bank),
                        live.latency.get(str(seat)))


def _call(fn, request: dict):
    """One parameter: the whole request; otherwise the request's fields by parameter name."""
    params = [p for p in inspect.signature(fn).parameters.values()
              if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    if len(params) == 1 and params[0].name not in request:
        return fn(request)
    return fn(**{p.name: request[p.name] for p in params if p.name in request})


def _plugin(driver: FunctionDriver) -> Plugin:
    return Plugin(name="local-functions", drivers=lambda store, settings: {"py": driver})


@dataclass
class MatchRun:
    """A finished match: `log` is the service's match record (GET /v1/matches/{id}/log),
    `result` the match's result (ranks, scores, termination, failures)."""

    id: str
    log: dict
    result: dict
    seats: list = field(default_factory=list)

    def jsonl(self) -> str:
        """The log as JSON Lines, as `referee play --out` writes it."""
        return to_jsonl(self.log)


@dataclass
class TournamentRun:
    """A finished tournament: `record` as GET /v1/tournaments/{id} gives it, every match."""

    record: dict
    matches: list
    _arena: object = field(repr=False, default=None)

    @property
    def standings(self) -> list[dict]:
        """The standings rows (place, entrant, name, ordinal, mu, sigma, …)."""
        return self.record["standings"]

    def write(self, out: str):
        """Write standings.json and every match's JSON Lines log (see `referee tournament
        --out`); returns the folder of logs."""
        return write_tournament(self._arena, self.record, out)


class _Local:
    """An offline arena with Python functions as seats."""

    def __init__(self):
        self.functions = FunctionDriver()
        self.arena = offline_arena([_plugin(self.functions)])

    def seat(self, game: str, entry) -> str:
        if callable(entry):
            return self.functions.add(entry)
        if isinstance(entry, str) and entry.startswith(("builtin:", "py:")):
            return entry
        if isinstance(entry, str):
            return f"bot:{enter_bot(self.arena, game, entry).id}"
        raise TypeError(f"a seat is a function, 'builtin:<name>' or a bot URL, not {entry!r}")

    def match_run(self, match_id: str) -> MatchRun:
        meta, live = self.arena.service.load(match_id)
        return MatchRun(match_id, self.arena.service.log(match_id, None), live.result,
                        [s.get("name") for s in meta.seats])


def play_match(game: str, seats: list, *, seed: int | None = None, options: dict | None = None,
               limits: dict | None = None) -> MatchRun:
    """Play one match between `seats` (functions, builtins, bot URLs) to the end."""
    local = _Local()
    local.arena.service.games.get(game)
    kinds = [local.seat(game, s) for s in seats]
    created = local.arena.create_match(game, kinds, options or {}, seed, limits, rated=False)
    run_to_end(local.arena, created.meta.id)
    return local.match_run(created.meta.id)


def run_tournament(game: str, entrants: list, *, players: int | None = None, seeds: int = 4,
                   seed: int = 0, options: dict | None = None, limits: dict | None = None,
                   seatings: str = "rotations", progress: bool = False) -> TournamentRun:
    """A duplicate round robin between `entrants` (functions, builtins, bot URLs; a builtin
    may be listed several times); `progress` prints a line per match."""
    local = _Local()
    local.arena.service.games.get(game)
    kinds = [local.seat(game, e) for e in entrants]
    tour = local.arena.tournaments.create({
        "game": game, "entrants": [k.removeprefix("bot:") for k in kinds], "players": players,
        "seeds_per_table": seeds, "seatings": seatings, "seed": seed, "options": options or {},
        "limits": limits, "rated": True})
    ids = local.arena.tournaments.match_ids(tour["id"])
    shown = TournamentProgress(local.arena, len(ids)) if progress else None
    for match_id in ids:
        run_to_end(local.arena, match_id)
        if shown is not None:
            shown.match_done(match_id)
    record = local.arena.tournaments.get(tour["id"])
    return TournamentRun(record, [local.match_run(m) for m in ids], local.arena)
