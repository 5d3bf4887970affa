"""The arena on top of the match service: bot seats, rated matches, finishing, tournaments.

The arena plug-in (arena/plugin.py) attaches one `Arena` to each service the root builds
(`service.extensions["arena"]`); its `on_finish` hook finishes every match with bot seats
(their /end, health figures, the leaderboard, the tournament).
"""

from __future__ import annotations

import logging

from arena.bots import BotRegistry
from arena.errors import InvalidTournament
from arena.leaderboard import Leaderboards, result_record
from arena.limits import resolve as resolve_limits
from arena.tournaments import Tournaments
from referee.core.bots import BUILTIN_BOTS
from referee.service import defaults
from referee.service.drivers import REMOTE, split_kind
from referee.service.errors import InvalidSeats
from referee.service.plugins import ServiceHooks
from referee.service.store import MatchStatus

log = logging.getLogger(__name__)

class Arena(ServiceHooks):
    """Arena operations over one MatchService.

    `inline` finishes matches in the thread that ended them (the offline commands, the
    benchmarks); otherwise finishing is a job on the service's queue.
    """

    def __init__(self, service, inline: bool = False):
        self.service = service
        self.redis, self.prefix = service.store.redis, service.store.prefix
        self.bots = service.drivers["bot"].bots if "bot" in service.drivers else \
            BotRegistry(self.redis, self.prefix)
        self.leaderboards = Leaderboards(self.redis, self.prefix)
        self.tournaments = Tournaments(self)
        self.inline = inline or service.queue is None

    # -- matches --------------------------------------------------------------------------

    def create_match(self, game: str, seats: list, options=None, seed=None, limits=None,
                     rated: bool | None = True, labels=None):
        """A match with bot, builtin and remote seats. `rated=None`: rated unless a seat is
        remote or one builtin holds several seats (then `labels["unrated"]` says why)."""
        limits = resolve_limits(limits)
        entrants = [self._entrant_of_kind(k) for k in seats]
        twice = sorted({e for e in entrants if entrants.count(e) > 1})
        labels = dict(labels or {})
        if rated is None:
            rated = "remote" not in entrants and not twice
            if twice and "remote" not in entrants:  # the natural test: bot vs random, random
                labels["unrated"] = (f"{', '.join(twice)} holds several seats: a match is "
                                     f"rated only when each entrant holds one")
        if rated and any(e.startswith("remote") for e in entrants):
            raise InvalidSeats("a rated match has bots and builtins only: pass rated=false "
                               "to seat remote players")
        if rated and twice:
            raise InvalidSeats(f"a rated match cannot seat one entrant twice ({', '.join(twice)}"
                               f"): leave rated out or pass rated=false")
        labels = {**labels, "arena": True, "rated": bool(rated)}
        name = self.service.games.get(game).spec.name
        if rated:
            labels["seq"] = self.leaderboards.next_seq(name)
        try:
            return self.service.create(game, seats, options, seed, labels=labels, limits=limits)
        except Exception:
            if rated:  # the number was issued: mark it skipped so the table does not wait
                self.leaderboards.finished(name, labels["seq"], None)
            raise

    def check_entrant(self, entrant: str, game: str) -> None:
        """Raise InvalidTournament unless `entrant` is a builtin or a bot that plays `game`."""
        if entrant.startswith("builtin:"):
            if entrant.split(":", 1)[1] not in BUILTIN_BOTS:
                raise InvalidTournament(f"no builtin bot {entrant!r}")
            return
        prefix, ref = split_kind(entrant)
        if ref and prefix != "bot" and prefix in self.service.drivers:  # e.g. py:<function>
            try:
                self.service.drivers[prefix].validate(ref)
            except InvalidSeats as err:
                raise InvalidTournament(str(err)) from err
            return
        bot = self.bots.get(entrant)
        self.bots.standing.check(entrant)
        if game not in bot["games"]:
            raise InvalidTournament(f"bot {entrant} ({bot['name']}) does not play {game}")

    def _entrant_of_kind(self, kind: str) -> str:
        prefix, ref = split_kind(kind)
        return ref if prefix == "bot" else ("remote" if kind == REMOTE else kind)

    def entrants_of(self, match_id: str) -> list[str]:
        """The entrant in each seat of a match (bot id, builtin:<name>, or remote:<seat>)."""
        meta = self.service.store.meta(match_id)
        return [self._entrant_of_kind(s["kind"]) if s["kind"] != REMOTE else f"remote:{i}"
                for i, s in enumerate(meta.seats)]

    def entrant_name(self, entrant: str) -> str:
        """A readable name for an entrant."""
        if entrant.startswith(("builtin:", "remote")):
            return entrant
        try:
            return self.bots.get(entrant)["name"]
        except Exception:
            return entrant

    def result_of(self, match_id: str) -> dict | None:
        """The rating input of a finished match (None while running or if not rateable)."""
        meta, live = self.service.load(match_id)
        return result_record(meta, live, self.entrants_of(match_id))

    # -- finishing ------------------------------------------------------------------------

    def on_finish(self, meta, live) -> None:
        """A match ended: finish it now (inline) or through a job, if it is the arena's."""
        if not meta.labels.get("arena") and not any(s["kind"].startswith("bot:")
                                                    for s in meta.seats):
            return
        if self.inline:
            self.finish(meta.id)
        else:
            self.service.queue.enqueue_once("arena.jobs.finish", meta.id,
                                            job_id=f"finish-{meta.id}")

    def finish(self, match_id: str) -> bool:
        """Everything that follows a match's end: /end and health figures once; the
        leaderboard and tournament steps are idempotent, so a retried job completes them."""
        meta, live = self.service.load(match_id)
        first = bool(self.redis.sadd(f"{self.prefix}:arena:ended", match_id))
        if first:
            self._send_end(meta, live)
        if meta.labels.get("rated"):
            record = result_record(meta, live, self.entrants_of(match_id))
            self.leaderboards.finished(meta.game, meta.labels["seq"], record)
        if meta.labels.get("tournament"):
            self.tournaments.match_finished(meta.labels["tournament"], match_id)
        return first

    def _send_end(self, meta, live) -> None:
        game = self.service.games.get(meta.game)
        state = self.service.state(meta, live)
        for seat, info in enumerate(meta.seats):
            prefix, ref = split_kind(info["kind"])
            if prefix != "bot" or live.status != MatchStatus.OVER:
                continue
            self.bots.record_match(ref, live.forfeits.get(str(seat)))
            bot = self.bots.get(ref)
            payload = {"apiversion": "1", "match": meta.id, "game": meta.game, "seat": seat,
                       "result": live.result, "view": game.view(state, seat)}
            reply = self.bots.call(bot, "/end", payload, defaults.END_TIMEOUT_S)
            if reply.failure is not None:
                log.info("bot %s: /end of %s failed (%s)", ref, meta.id, reply.failure["code"])
