"""The match service: create matches, take moves, show views, prompts and logs.

Everything that touches a match goes through here, whether it comes from the REST API, a
worker playing automated seats, or the arena; the generic checks happen in the core engine.
MatchService's halves: taking moves (moving.py), reading views (disclosure.py), endings
(endings.py); this module creates matches, loads them and works out each new live record.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass

from referee.core import engine
from referee.core.chance import CHANCE, INTERNAL
from referee.core.errors import RefereeError
from referee.core.registry import Registry
from referee.core.results import adjudicate, apply_forfeits
from referee.core.rng import MAX_SEED
from referee.core.versions import check_readable
from referee.service import defaults
from referee.service import seeds as seedlib
from referee.service.config import Settings
from referee.service.disclosure import Caller, MatchReading
from referee.service.drivers import REMOTE, BuiltinDriver, SeatDriver, split_kind
from referee.service.endings import MatchEndings
from referee.service.moving import MatchMoves
from referee.service.errors import (InvalidSeats, InvalidToken, MatchNotFound,
                                    MatchRulesRetired, MissingToken)
from referee.service.plugins import ServiceHooks
from referee.service.states import StateCache
from referee.service.store import Live, MatchMeta, MatchStatus, MatchStore


def token_hash(token: str) -> str:
    """How a seat token is stored: its SHA-256, never the token itself."""
    # not kept per token: a table of live seat tokens in every worker would save about
    # 4,000 instructions a request, too little for holding secrets past their request
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Created:
    """A new match: its meta, live record and the secret token of each remote seat."""

    meta: MatchMeta
    live: Live
    tokens: dict


class MatchService(MatchMoves, MatchReading, MatchEndings):
    """Matches over a MatchStore, for the games of a registry."""

    def __init__(self, store: MatchStore, games: Registry, settings: Settings, queue=None,
                 drivers: dict[str, SeatDriver] | None = None, attach=()):
        """`queue` takes the runner's jobs (None: nothing is queued, the caller runs them);
        `drivers` by seat kind prefix; `attach` is (name, factory) pairs: each factory makes a
        plug-in's object over this service, kept in `extensions` and told of commits and ends.
        """
        self.store, self.games, self.settings, self.queue = store, games, settings, queue
        self.drivers: dict[str, SeatDriver] = {"builtin": BuiltinDriver(), **(drivers or {})}
        self._states = StateCache()
        self.seeds = seedlib.SeedBook(store.redis, store.prefix)
        self.extensions = {}
        for name, factory in attach:
            hooks = self.extensions[name] = factory(self)
            if not isinstance(hooks, ServiceHooks):   # its hooks are called, never probed for
                raise TypeError(f"plug-in {name!r}: attach gave a {type(hooks).__name__}, not "
                                f"ServiceHooks (referee/service/plugins.py)")
        self._hooks = list(self.extensions.values())

    def enqueue(self, match_id: str, version: int) -> None:
        """Queue the runner for `match_id` at `version` (nothing without a queue)."""
        if self.queue is not None:
            self.queue.enqueue_advance(match_id, version)

    # -- creating -------------------------------------------------------------------------

    def create(self, game_name: str, seats: list, options=None, seed=None, labels=None,
               limits=None, seed_group: str | None = None, chance: str = INTERNAL) -> Created:
        """Set up a match; raises UnknownGame, InvalidSeats, InvalidPlayers, InvalidOptions,
        ChanceUnsupported.

        Without a seed, one is drawn from a CSPRNG. Every seed is committed to (seeds.py);
        `seed_group` names the matches that share it (opened by the caller with its size),
        by default the match alone. `chance="external"`: the CHANCE seat supplies every
        random event (the caller authorises who plays it; referee/service/chanceseat.py).
        """
        game = self.games.get(game_name)
        kinds = [self._seat_kind(s, game.spec.name) for s in seats]
        seed = new_seed() if seed is None else seed
        match_id, salt = secrets.token_hex(8), seedlib.new_salt()
        options, state = engine.start(game, len(kinds), options, seed, chance)
        # a prefix, so a token never starts with "-" (which command lines take for a flag)
        tokens = {i: "st_" + secrets.token_urlsafe(24) for i, k in enumerate(kinds) if k == REMOTE}
        meta = MatchMeta(
            id=match_id, game=game.spec.name, rules_version=game.spec.rules_version,
            players=len(kinds), options=options, seed=seed,
            seats=[self._describe_seat(k) for k in kinds], created_at=time.time(),
            token_hashes=[token_hash(tokens[i]) if i in tokens else None for i in range(len(kinds))],
            labels=dict(labels or {}), limits=dict(limits or {}), seed_salt=salt,
            seed_commitment=seedlib.commitment(seed, salt),
            seed_group=seed_group or seedlib.solo_group(match_id), chance=chance)
        live = self._live_after(game, meta, None, state, 0)
        self.store.create(meta, live, self.automated_seat(meta, live) is not None,
                          self.remote_due(meta, live))
        self._states.put(meta.id, 0, state, live)
        self._after_commit(meta, None, live)
        return Created(meta, live, tokens)

    def _seat_kind(self, seat, game: str) -> str:
        kind = seat.get("kind") if isinstance(seat, dict) else seat
        if not isinstance(kind, str):
            raise InvalidSeats(f"a seat is a kind string such as 'remote' or 'builtin:random', "
                               f"got {seat!r}")
        if kind == REMOTE:
            return kind
        prefix, ref = split_kind(kind)
        driver = self.drivers.get(prefix)
        if driver is None or not ref:
            raise InvalidSeats(f"unknown seat kind {kind!r}; seats are 'remote' or "
                               f"{', '.join(repr(p + ':<name>') for p in self.drivers)}")
        driver.validate(ref)
        driver.validate_game(ref, game)   # a driver's players may play some games only
        return kind

    def _describe_seat(self, kind: str) -> dict:
        if kind == REMOTE:
            return {"kind": kind, "name": "remote"}
        prefix, ref = split_kind(kind)
        return {"kind": kind, **self.drivers[prefix].describe(ref)}

    # -- reading --------------------------------------------------------------------------

    def load(self, match_id: str, cached: bool = False) -> tuple[MatchMeta, Live]:
        """The match's meta and live record; raises MatchNotFound. `cached`: the live record
        this process last saw, if it saw one (no round trip; it may be behind)."""
        meta = self.load_meta(match_id)
        live = (cached and self._states.live(match_id)) or self.current(match_id)
        if live is None:
            raise MatchNotFound.of(match_id)
        return meta, live

    def load_many(self, match_ids: list[str]) -> list[tuple[MatchMeta, Live]]:
        """`load` of many matches in a few round trips, not two or more per match (a list of
        100 took 200 and 50 ms); those that do not exist are left out."""
        metas = self.store.metas([m for m in match_ids if isinstance(m, str)])
        lives = self.store.lives_since({m: self._states.live(m) for m in metas})
        for match_id, live in lives.items():
            self._states.put(match_id, live.version, live=live)
        return [(metas[m], lives[m]) for m in match_ids if m in lives]

    def load_meta(self, match_id: str) -> MatchMeta:
        """The match's meta; raises MatchNotFound."""
        meta = self.store.meta(match_id) if isinstance(match_id, str) else None
        if meta is None:
            raise MatchNotFound.of(match_id)
        return meta

    def current(self, match_id: str, meanwhile=None) -> Live | None:
        """The match's live record, in one round trip that carries only the version while the
        one this process last saw is still current; None if there is no such match.
        `meanwhile()` runs while the round trip is in flight (MatchStore.live_since)."""
        live = self.store.live_since(match_id, self._states.live(match_id), meanwhile)
        if live is not None:
            self._states.put(match_id, live.version, live=live)
        return live

    def state(self, meta: MatchMeta, live: Live):
        """The game state of `live` (from the cache when it is current)."""
        game = self.games.get(meta.game)
        # never read a state with rules it was not played under (issue 44)
        check_readable(game.spec, meta.rules_version, meta.chance, MatchRulesRetired)
        state = self._states.get(meta.id, live.version)
        if state is None:
            state = game.from_dict(live.state)
            self._states.put(meta.id, live.version, state)
        return state

    def seat_of(self, meta: MatchMeta, token: str | None) -> int:
        """The seat whose token this is; raises MissingToken or InvalidToken."""
        if not token:
            raise MissingToken("this request needs a seat token: 'Authorization: Bearer <token>'")
        digest = token_hash(token)
        for seat, stored in enumerate(meta.token_hashes):
            if stored is not None and hmac.compare_digest(stored, digest):
                return seat
        raise InvalidToken(f"the token is not a seat token of match {meta.id}")

    def _live_after(self, game, meta: MatchMeta, old: Live | None, state, version: int,
                    mover: int | None = None) -> Live:
        pending = [d.seat for d in game.pending(state)]
        if pending and version >= self.move_cap(meta):
            pending = []  # every match ends: adjudicated by the game's standing (_result)
        streak = [mover, old.streak[1] + 1 if old and old.streak[0] == mover else 1] \
            if mover is not None else [None, 0]
        live = Live(version=version, status=MatchStatus.ACTIVE.value if pending else
                    MatchStatus.OVER.value, state=game.stored(state), pending=pending,
                    forfeits=dict(old.forfeits) if old else {},
                    strikes=dict(old.strikes) if old else {},
                    clocks=dict(old.clocks) if old else {},
                    latency=dict(old.latency) if old else {}, streak=streak)
        live.result = self._result(game, meta, live, state)
        return live

    def _result(self, game, meta: MatchMeta, live: Live, state) -> dict | None:
        if live.pending:
            return None
        forfeited = sorted((int(s) for s in live.forfeits), key=lambda s: live.forfeits[str(s)]
                           .get("version", 0))
        outcome = game.outcome(state) or adjudicate(game, state, meta.players,
                                                    self.move_cap(meta))
        outcome = apply_forfeits(outcome, forfeited)
        return {**outcome.to_dict(), "failures": live.forfeits} if forfeited else outcome.to_dict()

    def _after_commit(self, meta: MatchMeta, old: Live | None, live: Live, queue=True) -> None:
        if queue and live.status == MatchStatus.ACTIVE and self.automated_seat(meta, live) is not None:
            self.enqueue(meta.id, live.version)
        for hook in self._hooks:
            hook.after_commit(meta, old, live)
        if live.status == MatchStatus.OVER and (old is None or old.status != live.status):
            self.store.archive.mark_finished(meta.id, time.time())
            self._ended(meta)
            for hook in self._hooks:
                hook.on_finish(meta, live)

    def automated_seat(self, meta: MatchMeta, live: Live) -> int | None:
        """The first pending seat that the referee plays (a bot, or a forfeited seat); never
        the chance seat, which its organiser plays."""
        for seat in live.pending:
            if seat == CHANCE:
                continue
            if meta.seat_kind(seat) != REMOTE or str(seat) in live.forfeits:
                return seat
        return None

    def remote_due(self, meta: MatchMeta, live: Live) -> float | None:
        """When the remote seats that must act now forfeit on time; None if none must act.

        Each remote decision may take `limits.remote_move_s` (default
        defaults.REMOTE_MOVE_S) from the last change of the match."""
        if live.status != MatchStatus.ACTIVE or not any(
                meta.seat_kind(s) == REMOTE and str(s) not in live.forfeits for s in live.pending):
            return None
        return time.time() + self.remote_limit(meta)

    @staticmethod
    def move_cap(meta: MatchMeta) -> int:
        """Moves after which this match ends, adjudicated (limits.max_moves)."""
        return meta.limits.get("max_moves", defaults.MAX_MOVES)

    @staticmethod
    def remote_limit(meta: MatchMeta) -> float:
        """Seconds a remote seat of this match may take over one decision."""
        return meta.limits.get("remote_move_s", defaults.REMOTE_MOVE_S)

    def _ended(self, meta: MatchMeta) -> None:
        if meta.seed_group:
            self.seeds.ended(meta.seed_group, meta.id)


def new_seed() -> int:
    """A fresh random match seed."""
    return secrets.randbelow(MAX_SEED)


__all__ = ["Caller", "Created", "MatchService", "RefereeError", "new_seed", "token_hash"]
