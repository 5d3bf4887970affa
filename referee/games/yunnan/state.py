"""The state document: its keys, and the checks `from_dict` runs before accepting one.

The state is a plain JSON-able dict (see `flow.setup` for every key); the checks are linear
and cheap: shapes, ranges, and that every participant's traders add up.
"""

from __future__ import annotations

from referee.core import InvalidState
from referee.games.yunnan.data import (BIDDABLE, BUILDABLE, DULI_CARD_IDS, DULI_TRADERS, GUARD,
                                       INFLUENCE_MAX, INFLUENCE_MIN, MAX_TRADERS, NPROV,
                                       PASSES_MAX, PASSES_MIN, SPACES, TOP)
from referee.games.yunnan.spec import DECISION_MOVES, SPEC

KEYS = frozenset({
    "n", "duli", "options", "seed", "round", "phase", "step", "actor", "cursor", "blue", "grey",
    "passed", "coins", "vp", "income", "passes", "horse", "influence", "supply", "reserve",
    "market", "traders", "posts", "bridges", "teahouses", "stock", "yard", "guards",
    "guard_spent", "bids", "bank", "blocker", "presents", "gifts", "yard_left", "journey",
    "arrived", "passes_used", "displace_at", "duli_cards", "report", "previous", "final"})
PHASES = ("bidding", "resolution", "travel", "convert", "over")


def _require(ok: bool, reason: str) -> None:
    if not ok:
        raise InvalidState(f"invalid yunnan state: {reason}")


def _ints(values, size: int, name: str, low: int = 0, high: int | None = None) -> None:
    _require(isinstance(values, list) and len(values) == size, f"{name} needs {size} entries")
    for v in values:
        _require(isinstance(v, int) and not isinstance(v, bool) and v >= low
                 and (high is None or v <= high), f"{name} has a bad value {v!r}")


def validate(s) -> None:
    """Raise InvalidState with the reason unless `s` is a consistent Yunnan state."""
    _require(isinstance(s, dict), "a state is an object")
    missing, extra = KEYS - set(s), set(s) - KEYS
    _require(not missing and not extra,
             f"keys missing {sorted(missing)} / unknown {sorted(extra)}")
    n = s["n"]
    _require(isinstance(n, int) and SPEC.min_players <= n <= SPEC.max_players, "bad n")
    _require(s["duli"] == (n if n == 2 else None), "Dúlì plays exactly in 2-player games")
    try:
        SPEC.resolve_options(s["options"])
    except Exception as err:  # noqa: BLE001 - any option problem is a state problem here
        raise InvalidState(f"invalid yunnan state: options: {err}") from err
    _require(set(s["options"]) == {o.name for o in SPEC.options}, "options must be resolved")
    total = n + (1 if s["duli"] is not None else 0)
    _check_flow(s, n, total)
    _check_tracks(s, n, total)
    _check_board(s, n, total)
    _check_traders(s, n, total)
    _check_duli(s)


def _check_flow(s, n: int, total: int) -> None:
    _require(s["phase"] in PHASES, f"unknown phase {s['phase']!r}")
    if s["phase"] == "over":
        _require(s["actor"] is None and isinstance(s["final"], list),
                 "a finished game has a result")
    else:
        _require(s["step"] in DECISION_MOVES, f"step {s['step']!r} is not a decision")
        _require(isinstance(s["actor"], int) and 0 <= s["actor"] < n, "the actor must be a seat")
    for name in ("blue", "grey"):
        order = s[name]
        _require(isinstance(order, list) and (not order or sorted(order) == list(range(total))),
                 f"{name} must order every participant")
    _require(sorted(s["blue"]) == list(range(total)), "the blue track orders every participant")
    _require(isinstance(s["passed"], list) and len(s["passed"]) == total, "passed per participant")
    _require(isinstance(s["round"], int) and s["round"] >= 1, "bad round")
    _require(isinstance(s["cursor"], int) and 0 <= s["cursor"] <= total, "bad cursor")


def _check_tracks(s, n: int, total: int) -> None:
    _ints(s["coins"], n, "coins")
    _ints(s["vp"], n, "vp")
    _ints(s["passes"], n, "passes", PASSES_MIN, PASSES_MAX)
    _ints(s["horse"], n, "horse", 0, TOP)
    _ints(s["influence"], total, "influence", INFLUENCE_MIN, INFLUENCE_MAX)
    _ints(s["gifts"], total, "gifts")
    _ints(s["presents"], NPROV, "presents")
    _require(isinstance(s["income"], list) and len(s["income"]) == n, "income per seat")
    for p in range(n):
        for name, kinds in (("stock", BUILDABLE), ("yard", (*BUILDABLE, GUARD))):
            entry = s[name][p]
            _require(isinstance(entry, dict) and set(entry) == set(kinds), f"{name} of {p}")
            _ints(list(entry.values()), len(kinds), name)


def _check_board(s, n: int, total: int) -> None:
    _require(isinstance(s["bids"], dict) and set(s["bids"]) == set(BIDDABLE), "bids per building")
    for b in BIDDABLE:
        row = s["bids"][b]
        _require(isinstance(row, list) and len(row) == len(SPACES[b]), f"bids of {b}")
        _require(all(o is None or (isinstance(o, int) and 0 <= o < total) for o in row),
                 f"bad bidder in {b}")
    for p in range(total):
        _ints(s["traders"][p], NPROV, "traders")
        _ints(s["posts"][p], NPROV, "posts", 0, 1)
    _require(len(s["traders"]) == total and len(s["posts"]) == total, "board per participant")
    _require(all(o is None or 0 <= o < total for o in s["teahouses"])
             and len(s["teahouses"]) == NPROV, "teahouses per province")
    _require(len(s["guards"]) == n and len(s["guard_spent"]) == n, "guards per seat")


def _check_traders(s, n: int, total: int) -> None:
    for name in ("supply", "reserve", "market"):
        _ints(s[name], total, name)
    for p in range(total):
        count = (s["supply"][p] + s["reserve"][p] + s["market"][p] + sum(s["traders"][p])
                 + sum(row.count(p) for row in s["bids"].values()) + s["bank"].count(p))
        if s["journey"] is not None and s["actor"] == p:
            count += 1
        expected = DULI_TRADERS if p == s["duli"] else MAX_TRADERS
        _require(count == expected, f"participant {p} has {count} traders, not {expected}")


def _check_duli(s) -> None:
    cards = s["duli_cards"]
    if s["duli"] is None:
        _require(cards is None, "no Dúlì cards without Dúlì")
        return
    _require(isinstance(cards, dict) and set(cards) == {"deck", "discard", "shown", "shuffles"},
             "Dúlì cards need deck, discard, shown, shuffles")
    every = sorted(cards["deck"] + cards["discard"] + cards["shown"])
    _require(every == sorted(DULI_CARD_IDS), "Dúlì's cards must be exactly her 16 cards")
