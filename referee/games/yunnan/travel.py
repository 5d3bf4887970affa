"""A player's Build & Travel turn: builds, journeys step by step, displacement, the route check.

A journey moves one trader border by border (each province entered once, only provinces the
horse has reached, over the road or the player's own unblocked bridges), paid from the Border
Passes the player's traders share this turn; it ends with `stop`, after which the trader may
displace one lower-influence opponent trader down the road. A trader travels once per turn.
"""

from __future__ import annotations

from referee.core import IllegalMove
from referee.core.kit import rule_error
from referee.games.yunnan import board, build
from referee.games.yunnan.data import MARKET, NPROV, PROV_INDEX, PROVINCES


def start_turn(s) -> None:
    """Reset the per-turn bookkeeping for the actor's Build & Travel turn."""
    s["step"] = "travel"
    s["journey"] = None
    s["arrived"] = [0] * NPROV
    s["passes_used"] = 0
    s["displace_at"] = None


def _exit_cost(s) -> int:
    return 1 if s["options"]["market_exit_costs_pass"] else 0


def _targets(s, p: int, origin: str, visited) -> list[tuple[str, int]]:
    """(destination, pass cost) pairs for one step from `origin` avoiding `visited`."""
    left = s["passes"][p] - s["passes_used"]
    if origin == MARKET:
        cost = _exit_cost(s)
        return [(PROVINCES[0], cost)] if cost <= left and 0 not in visited else []
    if left < 1:
        return []
    i = PROV_INDEX[origin]
    return [(PROVINCES[j], 1) for j in board.neighbours(s, p, i, s["horse"][p])
            if j not in visited]


def starts(s, p: int) -> list[str]:
    """Locations holding a trader of `p` that may still begin a journey this turn."""
    out = [MARKET] if s["market"][p] > 0 else []
    return out + [PROVINCES[i] for i in range(NPROV)
                  if s["traders"][p][i] - s["arrived"][i] > 0]


def _next_to(s, p: int, origin: str) -> list[str]:
    """Where one step from `origin` could lead, before passes, reach and visits are checked."""
    if origin == MARKET:
        return [PROVINCES[0]]
    return [PROVINCES[j] for j in board.neighbours(s, p, PROV_INDEX[origin])]


def step_candidates(s, p: int) -> list[dict]:
    """A first step from each location holding a trader that may travel, to every place
    next to it (the check filters by passes, reach and the road)."""
    return [{"type": "step", "from": origin, "to": to}
            for origin in starts(s, p) for to in _next_to(s, p, origin)]


def journey_candidates(s, p: int) -> list[dict]:
    """The journey under way: a step on from where the trader is (the check filters)."""
    here = PROVINCES[s["journey"]["at"]]
    return [{"type": "step", "from": here, "to": to} for to in _next_to(s, p, here)]


def displace_candidates(s, p: int) -> list[dict]:
    """A displacement of each participant with a trader where the journey ended."""
    at = s["displace_at"]
    return [{"type": "displace", "owner": o} for o in range(board.participants(s))
            if s["traders"][o][at] > 0]


def victims(s, p: int, i: int) -> list[int]:
    """Owners with a trader in province `i` that `p`'s arriving trader may displace."""
    mine = s["influence"][p]
    return [o for o in range(board.participants(s))
            if o != p and s["traders"][o][i] > 0 and s["influence"][o] < mine
            and not board.guarded(s, o, i)]


def check_step(s, p: int, move: dict) -> IllegalMove | None:
    """A step of the journey under way, or the first step of a trader that may still travel."""
    origin, to = move["from"], move["to"]
    journey = s["journey"]
    if journey is not None:
        if origin != PROVINCES[journey["at"]]:
            return rule_error("travel.journey", f"the journey under way is in "
                              f"{PROVINCES[journey['at']]}; finish it before moving from "
                              f"{origin}")
        visited = journey["visited"]
    else:
        if origin not in starts(s, p):
            return rule_error("travel.no_trader", f"you have no trader in {origin} that may "
                              f"travel this turn")
        visited = [] if origin == MARKET else [PROV_INDEX[origin]]
    if to not in dict(_targets(s, p, origin, visited)):
        return _step_refusal(s, p, origin, to, visited)
    return None


def _step_refusal(s, p: int, origin: str, to: str, visited) -> IllegalMove:
    left = s["passes"][p] - s["passes_used"]
    if origin == MARKET and to != PROVINCES[0]:
        reason = f"from the Market a trader always moves to {PROVINCES[0]} first"
    elif to in PROV_INDEX and PROV_INDEX[to] in visited:
        reason = f"this trader has already entered {to} on this journey"
    elif to in PROV_INDEX and PROV_INDEX[to] > s["horse"][p]:
        reason = (f"your horse has reached {PROVINCES[s['horse'][p]]}, so your traders may not "
                  f"enter {to}")
    elif left < 1:
        return rule_error("travel.step", f"all {s['passes'][p]} of your Border Passes are used",
                          rule="border_passes")
    else:
        reason = (f"{to} is not next to {origin} by the road or one of your unblocked bridges")
    return rule_error("travel.step", reason)


def play_step(s, p: int, move: dict) -> None:
    """Move the trader one border on (starting its journey); stop where it can go no further."""
    origin, to = move["from"], move["to"]
    journey = s["journey"]
    visited = (journey["visited"] if journey is not None
               else [] if origin == MARKET else [PROV_INDEX[origin]])
    cost = dict(_targets(s, p, origin, visited))[to]
    if journey is None:
        if origin == MARKET:
            s["market"][p] -= 1
        else:
            s["traders"][p][PROV_INDEX[origin]] -= 1
        journey = s["journey"] = {"at": None, "visited": visited}
        s["step"] = "journey"
    s["passes_used"] += cost
    journey["at"] = PROV_INDEX[to]
    journey["visited"].append(PROV_INDEX[to])
    if not _targets(s, p, to, journey["visited"]):
        play_stop(s, p, move)  # nowhere further to go: the journey ends here


def check_stop(s, p: int, move: dict) -> IllegalMove | None:
    """Only a journey under way can stop."""
    if s["journey"] is None:
        return rule_error("travel.no_journey", "no journey is under way")
    return None


def play_stop(s, p: int, move: dict) -> None:
    """The trader stays where it is; then a displacement is offered if there is a victim."""
    at = s["journey"]["at"]
    s["traders"][p][at] += 1
    s["arrived"][at] += 1
    s["journey"] = None
    if victims(s, p, at):
        s["step"], s["displace_at"] = "displace", at
    else:
        s["step"] = "travel"


def check_displace(s, p: int, move: dict) -> IllegalMove | None:
    """Only a lower-influence, unguarded owner with a trader where the journey ended."""
    owner, at = move["owner"], s["displace_at"]
    if owner not in victims(s, p, at):
        return rule_error("displace.target", f"participant {owner} has no trader in "
                          f"{PROVINCES[at]} with influence below your {s['influence'][p]} "
                          f"that is not guarded", rule="displacement")
    return None


def play_displace(s, p: int, move: dict) -> None:
    """Send one of the owner's traders down the road."""
    at, owner = s["displace_at"], move["owner"]
    board.displace_one(s, owner, at)
    s["report"]["displaced"].append({"by": p, "owner": owner, "from": PROVINCES[at]})
    s["step"], s["displace_at"] = "travel", None


def play_no_displace(s, p: int, move: dict) -> None:
    """Nobody is displaced; the turn goes on."""
    s["step"], s["displace_at"] = "travel", None


def finish_turn(s, p: int) -> None:
    """Connected-route check: `p`'s traders with no gap-free route to Pu'er go to the Market."""
    gap = board.gaps(s, p)
    for i in range(NPROV):
        count = s["traders"][p][i]
        if count and gap[i] > 0:
            s["traders"][p][i] = 0
            s["market"][p] += count
    s["journey"], s["displace_at"] = None, None


def only_done(s, p: int) -> bool:
    """True when seat `p` can neither build nor start a journey (its turn is a formality)."""
    if build.can_build(s, p):
        return False
    for origin in starts(s, p):
        visited = () if origin == MARKET else (PROV_INDEX[origin],)
        if _targets(s, p, origin, visited):
            return False
    return True
