"""The arena on top of the match service: bot seats, rated matches, finishing, tournaments.

`drivers_for` and `service_hooks` are how the referee service picks the arena up: the `bot`
seat driver, and a listener that finishes every match with bot seats (their /end, health
figures, the leaderboard, the tournament).
"""

from __future__ import annotations

import logging

from arena.bots import BotRegistry
from arena.driver import BotDriver
from arena.errors import InvalidTournament
from arena.leaderboard import Leaderboards, result_record
from arena.limits import resolve as resolve_limits
from arena.netguard import policy_for
from arena.tournaments import Tournaments
from referee.core.bots import BUILTIN_BOTS
from referee.service.connection import connect
from referee.service.drivers import REMOTE, split_kind
from referee.service.errors import InvalidSeats

log = logging.getLogger(__name__)

END_TIMEOUT_S = 2.0


def drivers_for(settings) -> dict:
    """The arena's seat drivers for a service built from `settings`: the embedded default
    lets bots be on loopback (one person's machine); a real deployment allows only public
    addresses plus $REFEREE_BOT_ALLOW."""
    policy = policy_for(embedded=settings.embedded)
    if policy.allow:
        log.warning("bots may be at these internal addresses (REFEREE_BOT_ALLOW%s): %s",
                    ", plus loopback in the embedded default" if settings.embedded else "",
                    policy.describe())
    return {"bot": BotDriver(BotRegistry(connect(settings.redis_url), settings.key_prefix,
                                         policy))}


def service_hooks() -> list:
    """Callables that attach the arena to a freshly built service."""
    return [lambda service: Arena(service).install()]


class Arena:
    """Arena operations over one MatchService."""

    def __init__(self, service, inline: bool = False):
        self.service = service
        self.redis, self.prefix = service.store.redis, service.store.prefix
        self.bots = service.drivers["bot"].bots if "bot" in service.drivers else \
            BotRegistry(self.redis, self.prefix)
        self.leaderboards = Leaderboards(self.redis, self.prefix)
        self.tournaments = Tournaments(self)
        self.inline = inline

    def install(self) -> "Arena":
        """Attach to the service: `service.arena`, and the finish listener."""
        self.service.arena = self
        self.service.finish_listeners.append(self._on_finish)
        return self

    # -- matches --------------------------------------------------------------------------

    def create_match(self, game: str, seats: list, options=None, seed=None, limits=None,
                     rated: bool = True, labels=None):
        """A match with bot, builtin and remote seats; rated only if no seat is remote."""
        limits = resolve_limits(limits)
        entrants = [self._entrant_of_kind(k) for k in seats]
        if rated and any(e.startswith("remote") for e in entrants):
            raise InvalidSeats("a rated match has bots and builtins only: pass rated=false "
                               "to seat remote players")
        if rated and len(set(entrants)) != len(entrants):
            raise InvalidSeats("a rated match cannot seat one entrant twice: pass "
                               "rated=false for self-play")
        labels = {**(labels or {}), "arena": True, "rated": bool(rated)}
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

    def _on_finish(self, meta, live) -> None:
        if not meta.labels.get("arena") and not any(s["kind"].startswith("bot:")
                                                    for s in meta.seats):
            return
        if self.inline:
            self.finish(meta.id)
        else:
            self.service.queue.queue.enqueue("arena.jobs.finish", meta.id,
                                             job_id=f"finish-{meta.id}", result_ttl=60,
                                             failure_ttl=86400)

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
            if prefix != "bot" or live.status != "over":
                continue
            self.bots.record_match(ref, live.forfeits.get(str(seat)))
            bot = self.bots.get(ref)
            payload = {"apiversion": "1", "match": meta.id, "game": meta.game, "seat": seat,
                       "result": live.result, "view": game.view(state, seat)}
            reply = self.bots.call(bot, "/end", payload, END_TIMEOUT_S)
            if reply.failure is not None:
                log.info("bot %s: /end of %s failed (%s)", ref, meta.id, reply.failure["code"])
