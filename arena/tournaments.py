"""Tournaments: a duplicate-format round robin, and a continuous ladder.

Round robin: every table of `players` entrants drawn from those entered, each table played
in every seat rotation (or every seat order) on the same K seeds, so seat order and deal luck
cancel out.
Ladder: a matchmaker keeps `concurrency` matches running, always seating the entrants who
have played least (ties broken by a draw from the tournament seed), until `max_matches`.
"""

from __future__ import annotations

import itertools
import json
import secrets
import time

from arena.errors import InvalidTournament, TournamentNotFound
from arena.limits import resolve as resolve_limits
from arena.ratings import fold, standings
from referee.core.rng import MAX_SEED, Rng
from referee.service import defaults
from referee.service.lease import Lease

FORMATS = ("round_robin", "ladder")


def entrant_seat(entrant: str) -> str:
    """The seat kind of an entrant: a bot id, or a builtin policy as is."""
    return entrant if entrant.startswith("builtin:") else f"bot:{entrant}"


SEATINGS = ("rotations", "permutations")
TOURNAMENT = defaults.TOURNAMENT


def seatings_of(group: tuple, how: str) -> list[tuple]:
    """Each seating of a table: its cyclic rotations, or every order of its entrants (which
    also varies who sits after whom, at players! matches instead of players)."""
    if how == "permutations":
        return list(itertools.permutations(group))
    return [group[r:] + group[:r] for r in range(len(group))]


def round_robin_plan(entrants: list[str], players: int, seeds: list[int],
                     how: str = "rotations") -> list[dict]:
    """Every (table, seed, seating): the seats of each match, in a fixed order."""
    plan = []
    for table, group in enumerate(itertools.combinations(entrants, players)):
        for seed_index, seed in enumerate(seeds):
            for rotation, seats in enumerate(seatings_of(group, how)):
                plan.append({"table": table, "seed_index": seed_index, "seed": seed,
                             "rotation": rotation, "entrants": list(seats)})
    return plan


class Tournaments:
    """Tournaments under `<prefix>:tour:<id>`; matches are created through the arena."""

    def __init__(self, arena):
        self.arena = arena
        self.redis, self.prefix = arena.redis, arena.prefix

    def _key(self, tid: str, part: str = "") -> str:
        return f"{self.prefix}:tour:{tid}{':' + part if part else ''}"

    def create(self, spec: dict) -> dict:
        """Validate, store and start a tournament; returns its record (parameters left out,
        or None, take the defaults)."""
        spec = {**TOURNAMENT, **{k: v for k, v in spec.items() if v is not None}}
        game = self.arena.service.games.get(spec["game"])
        entrants = list(spec["entrants"])
        players = spec.get("players") or min(game.spec.max_players,
                                             max(game.spec.min_players, len(entrants)))
        self._validate(game, entrants, players, spec)
        seed = spec.get("seed")
        seed = secrets.randbelow(MAX_SEED) if seed is None else seed
        tour = {"id": "t" + secrets.token_hex(6), "game": game.spec.name,
                "format": spec["format"], "entrants": entrants, "players": players,
                "seeds_per_table": spec["seeds_per_table"], "seatings": spec["seatings"],
                "seed": seed, "options": spec.get("options") or {},
                "limits": resolve_limits(spec.get("limits")), "rated": spec["rated"],
                "concurrency": spec["concurrency"], "max_matches": spec["max_matches"],
                "created_at": time.time(), "status": "running", "planned": 0}
        game.check_setup(players, game.spec.resolve_options(tour["options"]))
        self.redis.set(self._key(tour["id"]), json.dumps(tour))
        self.redis.zadd(f"{self.prefix}:tours", {tour["id"]: tour["created_at"]})
        if tour["format"] == "round_robin":
            self._start_round_robin(tour)
        else:
            self.matchmake(tour["id"])
        return self.get(tour["id"])

    def _validate(self, game, entrants, players, spec) -> None:
        if spec["format"] not in FORMATS:
            raise InvalidTournament(f"format must be one of {FORMATS}")
        if len(set(entrants)) != len(entrants):
            raise InvalidTournament("each entrant may be entered once")
        if not game.spec.min_players <= players <= game.spec.max_players:
            raise InvalidTournament(f"{game.spec.title} tables take {game.spec.min_players}-"
                                    f"{game.spec.max_players} players, not {players}")
        if len(entrants) < players:
            raise InvalidTournament(f"{players}-player tables need at least {players} entrants")
        for entrant in entrants:
            self.arena.check_entrant(entrant, game.spec.name)
        if spec["seatings"] not in SEATINGS:
            raise InvalidTournament(f"seatings must be one of {SEATINGS}")
        if spec["format"] == "round_robin":
            per_table = len(seatings_of(tuple(range(players)), spec["seatings"]))
            count = _comb(len(entrants), players) * spec["seeds_per_table"] * per_table
            if count > defaults.TOURNAMENT_MAX_MATCHES:
                raise InvalidTournament(f"this round robin would need {count} matches; "
                                        f"the limit is {defaults.TOURNAMENT_MAX_MATCHES}")

    def _start_round_robin(self, tour: dict) -> None:
        rng = Rng(tour["seed"], "tournament-seeds")
        seeds = [rng.below(MAX_SEED) for _ in range(tour["seeds_per_table"])]
        plan = round_robin_plan(tour["entrants"], tour["players"], seeds, tour["seatings"])
        self._update(tour["id"], planned=len(plan))
        for index, item in enumerate(plan):
            self._create_match(tour, index, item)

    def _create_match(self, tour: dict, index: int, item: dict) -> str:
        labels = {"tournament": tour["id"], "index": index,
                  **{k: item[k] for k in ("table", "seed_index", "rotation") if k in item}}
        created = self.arena.create_match(
            tour["game"], [entrant_seat(e) for e in item["entrants"]], tour["options"],
            item["seed"], tour["limits"], rated=tour["rated"], labels=labels)
        self.redis.rpush(self._key(tour["id"], "matches"), created.meta.id)
        return created.meta.id

    def matchmake(self, tid: str) -> int:
        """Ladder: start matches until `concurrency` run or `max_matches` exist; how many."""
        with Lease(self.redis, self._key(tid, "mm-lock"), defaults.LOCK_SECONDS) as held:
            return self._fill_ladder(self._load(tid)) if held else 0

    def _fill_ladder(self, tour: dict) -> int:
        started = 0
        while tour["status"] == "running":
            ids = self.match_ids(tour["id"])
            running = len(ids) - self.redis.scard(self._key(tour["id"], "done"))
            if len(ids) >= tour["max_matches"] or running >= tour["concurrency"]:
                break
            played = self._seated_counts(tour, ids)
            rng = Rng(tour["seed"], "ladder", len(ids))
            order = sorted(tour["entrants"], key=lambda e: (played[e], rng.random()))
            seats = rng.shuffled(order[:tour["players"]])
            self._create_match(tour, len(ids), {"entrants": seats,
                                                "seed": Rng(tour["seed"], "ladder-seed",
                                                            len(ids)).below(MAX_SEED)})
            started += 1
        return started

    def _seated_counts(self, tour: dict, ids: list[str]) -> dict:
        counts = dict.fromkeys(tour["entrants"], 0)
        for match_id in ids:
            for entrant in self.arena.entrants_of(match_id):
                counts[entrant] = counts.get(entrant, 0) + 1
        return counts

    def match_finished(self, tid: str, match_id: str) -> None:
        """Note a finished match; top up a ladder; close a finished round robin."""
        self.redis.sadd(self._key(tid, "done"), match_id)
        tour = self._load(tid)
        if tour["format"] == "ladder":
            self.matchmake(tid)
            tour = self._load(tid)
        done = self.redis.scard(self._key(tid, "done"))
        total = tour["planned"] if tour["format"] == "round_robin" else tour["max_matches"]
        if done >= total and tour["status"] == "running":
            self._update(tid, status="finished", finished_at=time.time())

    def stop(self, tid: str) -> dict:
        """Stop a tournament: no new matches (running ones finish)."""
        tour = self._load(tid)
        if tour["status"] == "running":
            self._update(tid, status="stopped", finished_at=time.time())
        return self.get(tid)

    def match_ids(self, tid: str) -> list[str]:
        """The tournament's matches, in creation order."""
        return list(self.redis.lrange(self._key(tid, "matches"), 0, -1))

    def get(self, tid: str) -> dict:
        """The tournament with its progress and standings."""
        tour = self._load(tid)
        ids = self.match_ids(tid)
        done = self.redis.smembers(self._key(tid, "done"))
        results = [r for r in (self.arena.result_of(m) for m in ids if m in done) if r]
        table = standings(fold(results))
        for row in table:
            row["name"] = self.arena.entrant_name(row["entrant"])
        total = tour["planned"] if tour["format"] == "round_robin" else tour["max_matches"]
        return {**tour, "progress": {"matches": len(ids), "finished": len(done), "total": total},
                "standings": table, "matches": ids}

    def list(self) -> list[dict]:
        """Every tournament's record (newest first), without match lists."""
        ids = self.redis.zrevrange(f"{self.prefix}:tours", 0, 99)
        return [self._load(t) for t in ids]

    def _load(self, tid: str) -> dict:
        raw = self.redis.get(self._key(tid)) if isinstance(tid, str) else None
        if raw is None:
            raise TournamentNotFound(f"no tournament {tid!r}")
        return json.loads(raw)

    def _update(self, tid: str, **changes) -> None:
        tour = self._load(tid)
        tour.update(changes)
        self.redis.set(self._key(tid), json.dumps(tour))


def _comb(n: int, k: int) -> int:
    from math import comb
    return comb(n, k)
