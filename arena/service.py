"""The arena on top of the match service: bot seats, rated matches, finishing, tournaments.

The arena plug-in (arena/plugin.py) attaches one `Arena` to each service the root builds
(`service.extensions["arena"]`); its `on_finish` hook finishes every match with bot seats
(their /end, health figures, the leaderboard, the tournament).
"""

from __future__ import annotations

import logging

from arena.bots import BotRegistry
from arena.errors import InvalidTournament
from arena.botversions import BotVersions
from arena.leaderboard import Leaderboards, result_record
from arena.limits import resolve as resolve_limits
from arena.requests import end_request
from arena.tournaments import Tournaments
from referee.core.bots import BUILTIN_BOTS
from referee.service import defaults
from referee.service.access import seat_owners, several_seats_one_account
from referee.service.drivers import REMOTE, split_kind
from referee.service.errors import InvalidSeats
from referee.service.plugins import ServiceHooks
from referee.service.store import MatchStatus, match_key

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
                     rated: bool | None = True, labels=None, seed_group: str | None = None):
        """A match with bot, builtin and remote seats. `rated=None`: rated unless a seat is
        remote or one builtin holds several seats (then `labels["unrated"]` says why); never
        rated when one account fills several seats (played unrated, and says why).

        A rated match's limits stay under the rated ceilings, and if the service aborts it,
        it is replayed on its seed (`replay_on_abort`, see `finish`).
        """
        entrants = [self._entrant_of_kind(k) for k in seats]
        twice = sorted({e for e in entrants if entrants.count(e) > 1})
        labels = dict(labels or {})
        if rated is None:
            rated = "remote" not in entrants and not twice
            if twice and "remote" not in entrants:  # the natural test: bot vs random, random
                labels["unrated"] = (f"{', '.join(twice)} holds several seats: a match is "
                                     f"rated only when each entrant holds one")
        limits = resolve_limits(limits, rated=bool(rated))
        if rated and any(e.startswith("remote") for e in entrants):
            raise InvalidSeats("a rated match has bots and builtins only: pass rated=false "
                               "to seat remote players")
        if rated and twice:
            raise InvalidSeats(f"a rated match cannot seat one entrant twice ({', '.join(twice)}"
                               f"): leave rated out or pass rated=false")
        if rated and several_seats_one_account(seat_owners(self.service.drivers, seats)):
            # one account's bots could feed each other wins (issue 11, attack 3)
            rated, labels["unrated"] = False, "one account fills several seats"
        labels = {**labels, "arena": True, "rated": bool(rated)}
        if rated:
            labels["replay_on_abort"] = True
        name = self.service.games.get(game).spec.name
        if rated:
            labels["seq"] = self.leaderboards.next_seq(name)
        try:
            return self.service.create(game, seats, options, seed, labels=labels, limits=limits,
                                       seed_group=seed_group)
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

    def after_commit(self, meta, old, live) -> None:
        """A match ended: the bots' health counts this process kept go out now, before its
        finishing (here or in another worker) counts the match."""
        if old is not None and old.status == MatchStatus.ACTIVE and \
                live.status != MatchStatus.ACTIVE:
            self.bots.flush()

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
        first = self._end_group(meta, live)
        replay = self._replay(meta) if live.status == MatchStatus.ABORTED and \
            meta.labels.get("replay_on_abort") else None
        if meta.labels.get("rated"):
            record = result_record(meta, live, self.entrants_of(match_id))
            carry = BotVersions(self.bots).carry_of(record["entrants"]) if record else None
            if carry:   # a new version's rating may start from its previous version's
                record["carry"] = carry
            if replay is not None:  # the replay's own result counts in its stead
                record = {"skip": True, "replayed_by": replay}
            self.leaderboards.finished(meta.game, meta.labels["seq"], record)
        if meta.labels.get("tournament"):
            if replay is not None:
                self.tournaments.match_replayed(meta.labels["tournament"], match_id, replay)
            else:
                self.tournaments.match_finished(meta.labels["tournament"], match_id)
        return first

    def _replay(self, meta) -> str | None:
        """A rated match the service aborted is played again: a new match with the same
        seats, options, seed, limits and labels, in the same seed group (the service reserved
        its place when it aborted), linked both ways (`replay_of` label, `replayed_by` in the
        aborted match's result). Once per match (a retried job finds the first replay); a
        replay aborted in turn is replayed up to MAX_REPLAYS times, then stays unrated."""
        claim = match_key(self.prefix, meta.id, "replayed-by")
        if not self.redis.set(claim, "", nx=True):
            return self.redis.get(claim) or None
        generation = int(meta.labels.get("replay", 0)) + 1
        if generation > defaults.MAX_REPLAYS:
            self.service.seeds.release(meta.seed_group, meta.id)
            return None
        keep = {k: v for k, v in meta.labels.items()
                if k not in ("arena", "rated", "seq", "replay_on_abort")}
        try:
            created = self.create_match(
                meta.game, [s["kind"] for s in meta.seats], meta.options, meta.seed,
                meta.limits, rated=True, seed_group=meta.seed_group,
                labels={**keep, "replay_of": meta.id, "replay": generation})
        except Exception:  # a bot since disabled or deleted: the result stays unrated
            log.exception("match %s: the replay could not be created", meta.id)
            self.service.seeds.release(meta.seed_group, meta.id)
            return None
        self.redis.set(claim, created.meta.id)
        self.service.link_replay(meta.id, created.meta.id)
        return created.meta.id

    def _end_group(self, meta, live) -> bool:
        """Send /end (and count health figures) once per match; for a match that shares its
        seed, only when the whole group is over: a finished twin's final view would show a
        bot, sitting in a twin still running, the cards it may not see there. Whether this
        match's /end went out now."""
        if self.service.twins_running(meta):
            return False
        members = [meta.id] + sorted(m for m in self.service.seeds.members(meta.seed_group)
                                     if m != meta.id) if meta.seed_group else [meta.id]
        sent = False
        for member in members:
            if self.redis.sadd(f"{self.prefix}:arena:ended", member):
                self._send_end(*self.service.load(member))
                sent = sent or member == meta.id
        return sent

    def _send_end(self, meta, live) -> None:
        game = self.service.games.get(meta.game)
        state = self.service.state(meta, live)
        for seat, info in enumerate(meta.seats):
            prefix, ref = split_kind(info["kind"])
            if prefix != "bot" or live.status != MatchStatus.OVER:
                continue
            self.bots.record_match(ref, live.forfeits.get(str(seat)))
            bot = self.bots.get(ref)
            payload = end_request(meta, seat, live.result, game.view(state, seat))
            reply = self.bots.call(bot, "/end", payload, defaults.END_TIMEOUT_S)
            if reply.failure is not None:
                log.info("bot %s: /end of %s failed (%s)", ref, meta.id, reply.failure["code"])
