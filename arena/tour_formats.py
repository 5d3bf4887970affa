"""Each tournament format's own running (arena/tournaments.py keeps the shared lifecycle: create,
results, standings, stop): a round robin's start, the ladder's, sprt's and swiss's fill (what
`matchmake` starts next), and the state each shows. The pure planning stays in arena/ladder.py,
sprt_tour.py and swiss.py; these functions read and write the tournament's Redis keys through
`tours` (an arena.tournaments.Tournaments)."""

from __future__ import annotations

import json

from arena import ladder, sprt_tour, swiss
from arena.seating import round_robin_plan, seats_repeat, seed_group, unrated_note
from referee.core.rng import MAX_SEED, Rng


def start_round_robin(tours, tour: dict) -> None:
    """Round robin: plan every match, open each seed's group, then create them all."""
    seeds = table_seeds(tours, tour)
    plan = round_robin_plan(tour["entrants"], tour["players"], seeds, tour["seatings"])
    unrated = sum(seats_repeat(item["entrants"]) for item in plan) if tour["rated"] else 0
    tours._update(tour["id"], planned=len(plan), unrated_matches=unrated,
                 **({"note": unrated_note(unrated)} if unrated else {}))
    for seed_index in range(len(seeds)):  # every member is counted before any can end
        tours.seeds.open_group(seed_group(tour["id"], seed_index),
                              sum(1 for p in plan if p["seed_index"] == seed_index))
    for index, item in enumerate(plan):
        try:
            tours._create_match(tour, index, item)
        except Exception:  # the rest will not be played: their seeds' groups may close
            for later, missing in enumerate(plan[index:], start=index):
                tours.seeds.release(seed_group(tour["id"], missing["seed_index"]),
                                   f"unplayed:{later}")
            raise

def table_seeds(tours, tour: dict) -> list[int]:
    """The K seeds every table is played on: from the creator's seed if one was given,
    else from the server secret."""
    if tour["seed"] is not None:
        rng = Rng(tour["seed"], "tournament-seeds")
        return [rng.below(MAX_SEED) for _ in range(tour["seeds_per_table"])]
    return [tours.seeds.derive("tournament", tour["id"], "seed", k)
            for k in range(tour["seeds_per_table"])]

def draws(tours, tour: dict, index: int) -> tuple[Rng, int]:
    """The seating draw and the match seed of ladder match `index`."""
    if tour["seed"] is not None:
        return (Rng(tour["seed"], "ladder", index),
                Rng(tour["seed"], "ladder-seed", index).below(MAX_SEED))
    return (Rng(tours.seeds.derive("tournament", tour["id"], "ladder", index)),
            tours.seeds.derive("tournament", tour["id"], "ladder-seed", index))

def fill_ladder(tours, tour: dict) -> int:
    """Ladder: seat whoever has played least until `concurrency` run or `max_matches` exist."""
    started = 0
    while tour["status"] == "running":
        ids = tours.match_ids(tour["id"])
        running = len(ids) - tours.redis.scard(tours._key(tour["id"], "done"))
        if len(ids) >= tour["max_matches"] or running >= tour["concurrency"]:
            break
        rng, seed = draws(tours, tour, len(ids))
        seats = ladder.next_table(ladder_queue(tours, tour, ids), tour["players"], rng)
        tours._create_match(tour, len(ids), {"entrants": seats, "seed": seed})
        started += 1
    return started

def fill_sprt(tours, tour: dict) -> int:
    """SPRT: start pairs until `concurrency` pairs run, the budget is spent or the test
    has decided."""
    started = 0
    while tour["status"] == "running" and sprt_state(tours, tour)["result"] is None:
        ids = tours.match_ids(tour["id"])
        running = len(ids) - tours.redis.scard(tours._key(tour["id"], "done"))
        if len(ids) + 2 > tour["max_matches"] or running >= 2 * tour["concurrency"]:
            break
        pair = len(ids) // 2
        group = f"tournament:{tour['id']}:pair:{pair}"
        tours.seeds.open_group(group, 2)
        for item in sprt_tour.pair_plan(tour, pair, tours.seeds.derive):
            tours._create_match(tour, len(tours.match_ids(tour["id"])), item, group)
        started += 2
    return started

def fill_swiss(tours, tour: dict) -> int:
    """Swiss: once every match of the round is over, seat the next round."""
    ids = tours.match_ids(tour["id"])
    if (tour["status"] != "running" or tour["round"] >= tour["rounds"]
            or tours.redis.scard(tours._key(tour["id"], "done")) < len(ids)):
        return 0
    table = swiss_table(tours, tour, ids)
    rng, seed = draws(tours, tour, len(ids))
    tables, byes = swiss.plan_round(tour["entrants"], tour["players"], table, rng,
                                    tour["round"])
    byes_now = {**tour["byes"], **{e: tour["byes"].get(e, 0) + 1 for e in byes}}
    tours._update(tour["id"], round=tour["round"] + 1, byes=byes_now)
    for number, seats in enumerate(tables):
        seed = draws(tours, tour, len(ids) + number)[1]
        tours._create_match(tour, len(ids) + number, {"entrants": seats, "seed": seed,
                                                      "table": number})
    return len(tables)

def swiss_table(tours, tour: dict, ids: list[str]) -> dict:
    """Points, matches and byes per entrant from the finished matches' ranks."""
    raws = tours.redis.hmget(tours._key(tour["id"], "ranks"), ids) if ids else []
    played = [{"entrants": tours.entrants_of(m), "ranks": json.loads(raw)}
              for m, raw in zip(ids, raws) if raw is not None]
    return swiss.tally(tour["entrants"], played, tour.get("byes") or {})

def sprt_state(tours, tour: dict) -> dict:
    """The test as it stands: the pairs scored, and the verdict (None while undecided)."""
    ids = tours.match_ids(tour["id"])
    raws = tours.redis.hmget(tours._key(tour["id"], "ranks"), ids) if ids else []
    results = [None if raw is None else {"ranks": json.loads(raw)} for raw in raws]
    return sprt_tour.state(tour, ids, results)

def ladder_queue(tours, tour: dict, ids: list[str]) -> list[dict]:
    """The ladder's queue (arena/ladder.py): every entrant by who is seated next."""
    tours.arena.service.store.metas(ids)   # the uncached in one round trip, not one each
    done = tours.redis.smembers(tours._key(tour["id"], "done"))
    running = {i for i, m in enumerate(ids) if m not in done}
    return ladder.queue(tour["entrants"], [tours.entrants_of(m) for m in ids], running)

def sprt_over(tours, tour: dict) -> bool:
    """Whether an sprt will start no more pairs: decided, or no budget for another."""
    state = sprt_state(tours, tour)
    return state["result"] is not None or len(tours.match_ids(tour["id"])) + 2 > \
        tour["max_matches"]


def shown(tours, tour: dict, ids: list[str]) -> dict:
    """What the tournament's record adds for its format: the sprt's state, the swiss
    standings, or the ladder's queue (a round robin adds nothing)."""
    if tour["format"] == "sprt":
        return {"sprt_state": sprt_state(tours, tour)}
    if tour["format"] == "swiss":
        return {"swiss_standings": swiss.standings(swiss_table(tours, tour, ids))}
    if tour["format"] == "ladder":
        return {"ladder_queue": ladder_queue(tours, tour, ids)}
    return {}


FILLS = {"ladder": fill_ladder, "sprt": fill_sprt, "swiss": fill_swiss}
"""What `matchmake` runs for each format that starts matches as others end."""
