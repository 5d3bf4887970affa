"""The round's flow: set-up, phase changes and every automatic step between seat decisions.

`advance` runs until a seat must decide or the game is over: Dúlì's turns, forced passes,
single-choice resolutions, turns with nothing to do, and the end-of-round steps.
"""

from __future__ import annotations

from itertools import permutations

from referee.core import Rng, chance
from referee.games.yunnan import board, bidding, duli, resolution, scoring, travel, upkeep
from referee.games.yunnan.data import (BIDDABLE, BUILDABLE, DULI_FIRST_BID, DULI_POSTS,
                                       DULI_TRADERS, GUARD, GUARDS, INFLUENCE_MIN, MAX_TRADERS,
                                       NPROV, PASSES_MIN, PRESENTS, SPACES, START_COINS,
                                       START_TRADERS, STABLES, STRUCTURES)


def new_report() -> dict:
    """An empty record of the automatic events of a round (for views)."""
    return {"bank": None, "duli": [], "displaced": [], "inspector": None, "presents": None,
            "income": None}


def setup(players: int, options: dict, seed: int) -> dict:
    """The initial state: random order, coins by position, everything at rest, round 1 bidding."""
    n = players
    d = n if n == 2 else None
    total = n + (1 if d is not None else 0)
    order = list(chance.draw(
        "order", lambda: [list(p) for p in permutations(range(n))],
        lambda: Rng(seed, "order").shuffled(range(n)),
        prompt={"what": "the blue Turn Order Track, first seat to last (set-up step 3)"}))
    coins = [0] * n
    for pos, p in enumerate(order):
        coins[p] = START_COINS[pos]
    s = {
        "n": n, "duli": d, "options": dict(options), "seed": seed, "round": 1,
        "phase": "bidding", "step": "bid", "actor": order[0], "cursor": 0,
        "blue": order + ([d] if d is not None else []), "grey": [],
        "passed": [False] * total,
        "coins": coins, "vp": [0] * n, "income": [None] * n,
        "passes": [PASSES_MIN] * n, "horse": [STABLES] * n,
        "influence": [INFLUENCE_MIN] * total,
        "supply": [START_TRADERS] * n + ([DULI_TRADERS] if d is not None else []),
        "reserve": [MAX_TRADERS - START_TRADERS] * n + ([0] if d is not None else []),
        "market": [0] * total,
        "traders": [[0] * NPROV for _ in range(total)],
        "posts": [[0] * NPROV for _ in range(total)],
        "bridges": [[] for _ in range(total)],
        "teahouses": [None] * NPROV,
        "stock": [{k: 0 for k in BUILDABLE} for _ in range(n)],
        "yard": [{**STRUCTURES, GUARD: GUARDS if options["guards"] else 0} for _ in range(n)],
        "guards": [None] * n, "guard_spent": [False] * n,
        "bids": {b: [None] * len(SPACES[b]) for b in BIDDABLE},
        "bank": [], "blocker": None, "presents": list(PRESENTS), "gifts": [0] * total,
        "yard_left": 0, "journey": None, "arrived": [0] * NPROV, "passes_used": 0,
        "displace_at": None, "duli_cards": None, "report": new_report(), "previous": None,
        "final": None,
    }
    if d is not None:
        _setup_duli(s, d)
    return advance(s)


def _setup_duli(s, d: int) -> None:
    for i in DULI_POSTS:
        s["posts"][d][i] = 1
    s["duli_cards"] = {"deck": [], "discard": [], "shown": [], "shuffles": 0}
    duli.new_deck(s)
    building, value = DULI_FIRST_BID
    s["supply"][d] -= 1
    s["bids"][building][SPACES[building].index(value)] = d


def advance(s) -> dict:
    """Play every automatic step until a seat must decide or the game ends; returns `s`."""
    while True:
        phase = s["phase"]
        if phase == "over":
            return s
        if phase == "bidding":
            if not _bidding(s):
                return s
        elif phase == "resolution":
            if not _resolution(s):
                return s
        elif phase == "travel":
            if not _travel(s):
                return s
        elif not _convert(s):
            return s


def _bidding(s) -> bool:
    """One automatic bidding step; False when the actor (a seat) must decide."""
    p = s["actor"]
    if board.is_duli(s, p):
        duli.bid_turn(s)
    elif bidding.forced_pass(s, p):
        bidding.do_pass(s, p)
    else:
        s["step"] = "bid"
        return False
    bidding.next_bidder(s)
    return True


def _resolution(s) -> bool:
    if s["step"] in ("block", "yard"):
        return False
    order = s["blue"]
    if s["cursor"] >= len(order):
        if s["duli"] is not None:
            resolution.clear_duli(s)
        _begin_travel(s)
        return True
    p = s["actor"] = order[s["cursor"]]
    if board.is_duli(s, p):
        resolution.resolve_duli(s, p)
        s["cursor"] += 1
        return True
    todo = resolution.buildings_of(s, p)
    if resolution.order_matters(todo):
        return False
    if todo:
        resolution.resolve_building(s, p, todo[0])
    else:
        s["cursor"] += 1
    return True


def _begin_travel(s) -> None:
    s["phase"] = "travel"
    s["grey"] = list(reversed(s["blue"]))
    s["passed"] = [False] * board.participants(s)
    s["cursor"], s["step"] = 0, "start"


def _travel(s) -> bool:
    order = s["grey"]
    if s["cursor"] >= len(order):
        upkeep.inspector(s)
        upkeep.presents(s)
        upkeep.income_and_order(s)
        s["report"]["income"] = list(s["income"])
        s["phase"], s["cursor"], s["step"] = "convert", 0, "convert"
        return True
    p = s["actor"] = order[s["cursor"]]
    if s["step"] == "start":
        if board.is_duli(s, p):
            duli.travel_turn(s)
            s["cursor"] += 1
            return True
        travel.start_turn(s)
    if s["step"] == "travel" and travel.only_done(s, p):
        end_travel_turn(s, p)
        return True
    return False


def end_travel_turn(s, p: int) -> None:
    """Close seat `p`'s Build & Travel turn and hand on to the next participant."""
    travel.finish_turn(s, p)
    s["cursor"] += 1
    s["step"] = "start"


def _convert(s) -> bool:
    order = s["grey"]
    if s["cursor"] >= len(order):
        _end_round(s)
        return True
    p = s["actor"] = order[s["cursor"]]
    if board.is_duli(s, p) or not s["income"][p]:
        if not board.is_duli(s, p):
            upkeep.apply_convert(s, p, 0)
        s["cursor"] += 1
        return True
    s["step"] = "convert"
    return False


def _end_round(s) -> None:
    if upkeep.game_over(s):
        s["phase"], s["step"], s["actor"] = "over", None, None
        s["final"] = scoring.final_scores(s)
        return
    upkeep.prepare_round(s)
    s["previous"], s["report"] = s["report"], new_report()
    s["phase"], s["step"], s["cursor"] = "bidding", "bid", 0
    s["actor"] = s["blue"][0]
