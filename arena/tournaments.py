"""Tournaments: a duplicate-format round robin, and a continuous ladder.

Round robin: every table of `players` entrants drawn from those entered, each table played
in every seat rotation (or every seat order) on the same K seeds, so seat order and deal luck
cancel out.
Ladder: a matchmaker keeps `concurrency` matches running, seating the entrants with the
fewest games, until `max_matches` (arena/ladder.py: games within one, the queue shown).
Swiss: `rounds` rounds, each seating entrants of similar points together (arena/swiss.py).
SPRT: is the candidate better than the baseline? Pairs of duplicate matches until a
sequential test decides (arena/sprt_tour.py).
This module keeps the shared lifecycle (create, results, standings, stop); each format's start
and fill is in arena/tour_formats.py, who sits where in arena/seating.py.

Seeds (issue 11): with no `seed` given, every match seed is derived from the server secret
(HMAC over the tournament id and the seed index or match index, referee/service/seeds.py), so
nothing public lets anyone compute one; the rotations of one seed index form one seed group,
whose seed is revealed only when all of them are over. A `seed` given by the creator makes
the event reproducible from it (as the offline commands do): its creator knows every deal, and
the record shows it to others only once the event is over.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from math import comb

from arena import sprt_tour, swiss, tour_formats
from arena.errors import InvalidTournament, TournamentNotFound, TournamentTooLarge
from arena.limits import resolve as resolve_limits
from arena.leaderboard import result_record
from arena.ratings import apply, standings
# the seating helpers are imported from here too (arena/api.py, sprt_cli.py, tests)
from arena.seating import (SEATINGS, entrant_seat, name_entrants,  # noqa: F401
                           round_robin_plan, seatings_of, seats_repeat, seed_group as _group,
                           table_size)
from referee.service import defaults
from referee.service.lease import Lease

FORMATS = ("round_robin", "ladder", "sprt", "swiss")
TOURNAMENT = defaults.TOURNAMENT


class Tournaments:
    """Tournaments under `<prefix>:tour:<id>`; matches are created through the arena."""

    def __init__(self, arena):
        self.arena = arena
        self.redis, self.prefix = arena.redis, arena.prefix
        self.seeds = arena.service.seeds

    def _key(self, tid: str, part: str = "") -> str:
        return f"{self.prefix}:tour:{tid}{':' + part if part else ''}"

    def create(self, spec: dict) -> dict:
        """Validate, store and start a tournament; returns its record (parameters left out,
        or None, take the defaults)."""
        spec = {**TOURNAMENT, **{k: v for k, v in spec.items() if v is not None}}
        game = self.arena.service.games.get(spec["game"])
        given = list(spec["entrants"])
        options = game.spec.resolve_options(spec.get("options") or {})
        players = table_size(game, spec.get("players"), len(given), options)
        self._validate(game, given, players, spec)
        entrants = name_entrants(given)
        seed = spec.get("seed")
        tour = {"id": "t" + secrets.token_hex(6), "game": game.spec.name,
                "format": spec["format"], "entrants": entrants, "players": players,
                "seeds_per_table": spec["seeds_per_table"], "seatings": spec["seatings"],
                "seed": seed, "options": spec.get("options") or {},
                "limits": resolve_limits(spec.get("limits"), rated=spec["rated"]),
                "rated": spec["rated"],
                "concurrency": spec["concurrency"], "max_matches": spec["max_matches"],
                "created_at": time.time(), "status": "running", "planned": 0,
                "owner": spec.get("owner") or ""}  # issue 11: the creating account
        if tour["format"] == "swiss":   # every round has the same number of tables
            tour.update(round=0, byes={}, rounds=spec.get("rounds") or
                        swiss.default_rounds(len(entrants), players))
            tour["planned"] = tour["rounds"] * (len(entrants) // players)
        if tour["format"] == "sprt":   # its matches seat one entrant in several seats
            tour.update(rated=False, opponents=spec.get("opponents") or [],
                        sprt={**sprt_tour.SPRT_DEFAULTS, **(spec.get("sprt") or {})})
        if tour["format"] == "ladder" and tour["rated"] and len(set(given)) != len(given):
            tour["note"] = ("matches that seat one builtin in several seats are not rated on "
                            "the game's leaderboard; the standings keep its seats apart")
        self.redis.set(self._key(tour["id"]), json.dumps(tour))
        self.redis.zadd(f"{self.prefix}:tours", {tour["id"]: tour["created_at"]})
        if tour["format"] == "round_robin":
            tour_formats.start_round_robin(self, tour)
        else:
            self.matchmake(tour["id"])
        return self.get(tour["id"])

    def _validate(self, game, entrants, players, spec) -> None:
        if spec["format"] not in FORMATS:
            raise InvalidTournament(f"format must be one of {FORMATS}")
        bots = [e for e in entrants if not e.startswith("builtin:")]
        if len(set(bots)) != len(bots):
            raise InvalidTournament("each bot may be entered once (a builtin may be entered "
                                    "several times to fill seats)")
        if len(entrants) < players and spec["format"] != "sprt":   # sprt: opponents fill
            raise InvalidTournament(f"{players}-player tables need at least {players} entrants")
        for entrant in entrants:
            self.arena.check_entrant(entrant, game.spec.name)
        if spec["format"] == "sprt":
            sprt_tour.validate(spec, entrants, players)
            for opponent in spec.get("opponents") or []:
                self.arena.check_entrant(opponent, game.spec.name)
        if spec["seatings"] not in SEATINGS:
            raise InvalidTournament(f"seatings must be one of {SEATINGS}")
        self._check_size(entrants, players, spec)

    def _check_size(self, entrants, players, spec) -> None:
        """The service's ceilings on matches per round robin and per ladder (settings)."""
        settings = self.arena.service.settings
        if spec["format"] in ("ladder", "sprt"):
            if spec["max_matches"] > settings.ladder_max_matches:
                raise TournamentTooLarge(f"a ladder may run at most "
                                         f"{settings.ladder_max_matches} matches; max_matches "
                                         f"is {spec['max_matches']}")
            return
        if spec["format"] == "swiss":
            rounds = spec.get("rounds") or swiss.default_rounds(len(entrants), players)
            count = rounds * (len(entrants) // players)
            if count > settings.tournament_max_matches:
                raise TournamentTooLarge(f"this swiss would need {count} matches; the limit "
                                         f"is {settings.tournament_max_matches}")
            return
        per_table = len(seatings_of(tuple(range(players)), spec["seatings"]))
        count = comb(len(entrants), players) * spec["seeds_per_table"] * per_table
        if count > settings.tournament_max_matches:
            raise TournamentTooLarge(f"this round robin would need {count} matches; the limit "
                                     f"is {settings.tournament_max_matches}")

    def _create_match(self, tour: dict, index: int, item: dict, group: str | None = None) -> str:
        labels = {"tournament": tour["id"], "index": index, "entrants": item["entrants"],
                  **{k: item[k] for k in ("table", "seed_index", "rotation", "pair", "focus")
                     if k in item}}
        rated = tour["rated"] and not seats_repeat(item["entrants"])
        created = self.arena.create_match(
            tour["game"], [entrant_seat(e) for e in item["entrants"]], tour["options"],
            item["seed"], tour["limits"], rated=rated, labels=labels,
            seed_group=group or (_group(tour["id"], item["seed_index"])
                                 if "seed_index" in item else None))
        self.redis.rpush(self._key(tour["id"], "matches"), created.meta.id)
        return created.meta.id

    def matchmake(self, tid: str) -> int:
        """Ladder: start matches until `concurrency` run or `max_matches` exist; how many."""
        with Lease(self.redis, self._key(tid, "mm-lock"), defaults.LOCK_SECONDS) as held:
            if not held:
                return 0
            tour = self._load(tid)
            return tour_formats.FILLS.get(tour["format"], tour_formats.fill_ladder)(self, tour)

    def match_finished(self, tid: str, match_id: str) -> None:
        """Note a finished match and its result (the standings read that, not the match);
        top up a ladder; close a finished round robin."""
        meta, live = self.arena.service.load(match_id)   # once, for the record and the ranks
        record = result_record(meta, live, self.entrants_of(match_id))
        pipe = self.redis.pipeline(transaction=True)
        pipe.hset(self._key(tid, "results"), match_id, json.dumps(record))
        pipe.sadd(self._key(tid, "done"), match_id)
        if live.result:   # the ranks alone: an sprt's matches are not rateable records
            pipe.hset(self._key(tid, "ranks"), match_id, json.dumps(live.result["ranks"]))
        pipe.execute()
        tour = self._load(tid)
        if tour["format"] in ("ladder", "sprt", "swiss"):
            self.matchmake(tid)
            tour = self._load(tid)
        done = self.redis.scard(self._key(tid, "done"))
        total = tour["planned"] if tour["format"] in ("round_robin", "swiss") else \
            tour["max_matches"]
        if tour["format"] == "sprt":
            total = len(self.match_ids(tid)) if tour_formats.sprt_over(self, tour) else total + 1
        if done >= total and tour["status"] == "running":
            self._update(tid, status="finished", finished_at=time.time())

    def match_replayed(self, tid: str, match_id: str, replay: str) -> None:
        """An aborted match was replayed: the replay takes its place (counted when it ends)."""
        if self.redis.sadd(self._key(tid, "replaced"), match_id):
            self.redis.rpush(self._key(tid, "matches"), replay)

    def _replaced(self, tid: str) -> set:
        return self.redis.smembers(self._key(tid, "replaced"))

    def stop(self, tid: str) -> dict:
        """Stop a tournament: no new matches (running ones finish)."""
        tour = self._load(tid)
        if tour["status"] == "running":
            self._update(tid, status="stopped", finished_at=time.time())
        return self.get(tid)

    def owner_of(self, tid: str) -> str:
        """The account that created the tournament (issue 11: it, or an organiser, stops it)."""
        return self._load(tid).get("owner") or ""

    def match_ids(self, tid: str) -> list[str]:
        """The tournament's matches, in creation order (a replay after the rest, and the
        aborted match it replaces left out)."""
        replaced = self._replaced(tid)
        return [m for m in self.redis.lrange(self._key(tid, "matches"), 0, -1)
                if m not in replaced]

    def get(self, tid: str) -> dict:
        """The tournament with its progress and standings (its seed only once it is over)."""
        tour = self._load(tid)
        ids = self.match_ids(tid)
        done = self.redis.smembers(self._key(tid, "done"))
        tour = _public(tour, over=tour["status"] != "running" and len(done) >= len(ids))
        table = standings(self._table(tid, ids, done))
        for row in table:
            row["name"] = self.arena.entrant_name(row["entrant"])
        total = tour["planned"] if tour["format"] in ("round_robin", "swiss") else \
            tour["max_matches"]
        extra = tour_formats.shown(self, tour, ids)
        return {**tour, "progress": {"matches": len(ids), "finished": len(done), "total": total},
                "standings": table, "matches": ids, **extra}

    def _table(self, tid: str, ids: list[str], done: set) -> dict:
        """The ratings table: the finished matches' results folded in creation order. The
        fold of the longest run of finished matches from the first is kept in Redis, so a
        read folds only the matches past it (about as many as run at once), not all of them:
        OpenSkill's rate costs ~0.1 ms a result."""
        prefix = next((i for i, m in enumerate(ids) if m not in done), len(ids))
        kept = self._kept_fold(tid, ids, prefix)
        start, table = (kept["upto"], kept["table"]) if kept else (0, {})
        finished = [m for m in ids[start:] if m in done]   # ids[start:prefix] come first
        for index, result in enumerate(self.results(tid, finished)):
            if result:
                apply(table, result)
            if index == prefix - start - 1:   # the whole finished run is folded: keep it
                self._keep_fold(tid, ids, prefix, table)
        return table

    def _kept_fold(self, tid: str, ids: list[str], prefix: int) -> dict | None:
        """The kept fold, if it is of the first matches of `ids` as they are now (a replay
        replacing an aborted match changes them) and within the finished run."""
        raw = self.redis.get(self._key(tid, "fold"))
        kept = json.loads(raw) if raw else None
        if kept is None or kept["upto"] > prefix or kept["ids"] != _digest(ids[:kept["upto"]]):
            return None
        return kept

    def _keep_fold(self, tid: str, ids: list[str], upto: int, table: dict) -> None:
        self.redis.set(self._key(tid, "fold"), json.dumps(
            {"upto": upto, "ids": _digest(ids[:upto]), "table": table}))

    def results(self, tid: str, match_ids: list[str]) -> list[dict | None]:
        """The results `match_finished` noted, in one round trip (a match it did not note,
        finished before results were kept, is read from the match). Reading every finished
        match made GET /v1/tournaments/{id} cost ~0.8 ms per match: 90 ms for 120."""
        raws = self.redis.hmget(self._key(tid, "results"), match_ids) if match_ids else []
        return [self.result_of(m) if raw is None else json.loads(raw)
                for m, raw in zip(match_ids, raws)]

    def entrants_of(self, match_id: str) -> list[str]:
        """The tournament entrant in each seat (`builtin:random#2` apart from its twin)."""
        meta = self.arena.service.store.meta(match_id)
        return meta.labels.get("entrants") or self.arena.entrants_of(match_id)

    def result_of(self, match_id: str) -> dict | None:
        """A finished match's result by tournament entrant (`builtin:random#2` apart from
        `builtin:random`), for the tournament's own standings; None while it runs."""
        meta, live = self.arena.service.load(match_id)
        return result_record(meta, live, self.entrants_of(match_id))

    def list(self) -> list[dict]:
        """Every tournament's record (newest first), without match lists."""
        ids = self.redis.zrevrange(f"{self.prefix}:tours", 0, 99)
        raws = self.redis.mget([self._key(t) for t in ids]) if ids else []   # one round trip
        return [_public(json.loads(raw), over=False) for raw in raws if raw is not None]

    def _load(self, tid: str) -> dict:
        raw = self.redis.get(self._key(tid)) if isinstance(tid, str) else None
        if raw is None:
            raise TournamentNotFound(f"no tournament {tid!r}")
        return json.loads(raw)

    def _update(self, tid: str, **changes) -> None:
        tour = self._load(tid)
        tour.update(changes)
        self.redis.set(self._key(tid), json.dumps(tour))


def _public(tour: dict, over: bool) -> dict:
    """The record as anyone may read it: a creator's seed only once the event is over."""
    return {**tour, "seed": tour.get("seed") if over else None}


def _digest(match_ids: list[str]) -> str:
    """A fingerprint of a list of match ids (which matches a kept fold covers)."""
    return hashlib.sha256("\n".join(match_ids).encode()).hexdigest()
