"""A player's Build & Travel turn: builds, journeys step by step, displacement, the route check.

A journey moves one trader border by border (each province entered once, only provinces the
horse has reached, over the road or the player's own unblocked bridges), paid from the Border
Passes the player's traders share this turn; it ends with `stop`, after which the trader may
displace one lower-influence opponent trader down the road. A trader travels once per turn.
"""

from __future__ import annotations

from referee.core import IllegalMove
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


def legal(s, p: int) -> list[dict]:
    """Every legal move of seat `p`'s pending Build & Travel decision."""
    step = s["step"]
    if step == "displace":
        at = s["displace_at"]
        return ([{"type": "displace", "owner": o} for o in victims(s, p, at)]
                + [{"type": "no_displace"}])
    if step == "journey":
        j = s["journey"]
        here = PROVINCES[j["at"]]
        return ([{"type": "step", "from": here, "to": to}
                 for to, _ in _targets(s, p, here, j["visited"])] + [{"type": "stop"}])
    moves = build.legal_builds(s, p)
    for origin in starts(s, p):
        visited = () if origin == MARKET else (PROV_INDEX[origin],)
        moves += [{"type": "step", "from": origin, "to": to}
                  for to, _ in _targets(s, p, origin, visited)]
    moves.append({"type": "done"})
    return moves


def victims(s, p: int, i: int) -> list[int]:
    """Owners with a trader in province `i` that `p`'s arriving trader may displace."""
    mine = s["influence"][p]
    return [o for o in range(board.participants(s))
            if o != p and s["traders"][o][i] > 0 and s["influence"][o] < mine
            and not board.guarded(s, o, i)]


def apply(s, p: int, move: dict) -> bool:
    """Apply a Build & Travel move of seat `p`; True when the turn is over."""
    kind = move["type"]
    if kind == "build":
        build.apply_build(s, p, move)
    elif kind == "step":
        _step(s, p, move["from"], move["to"])
    elif kind == "stop":
        _stop(s, p)
    elif kind == "displace":
        _displace(s, p, move["owner"])
    elif kind == "no_displace":
        s["step"], s["displace_at"] = "travel", None
    else:
        return True
    return False


def _step(s, p: int, origin: str, to: str) -> None:
    journey = s["journey"]
    if journey is not None:
        if origin != PROVINCES[journey["at"]]:
            raise IllegalMove("travel.journey", f"rule 'travel': the journey under way is in "
                              f"{PROVINCES[journey['at']]}; finish it before moving from {origin}")
        visited = journey["visited"]
    else:
        if origin not in starts(s, p):
            raise IllegalMove("travel.no_trader", f"rule 'travel': you have no trader in "
                              f"{origin} that may travel this turn")
        visited = [] if origin == MARKET else [PROV_INDEX[origin]]
    options = dict(_targets(s, p, origin, visited))
    if to not in options:
        raise IllegalMove("travel.step", _step_reason(s, p, origin, to, visited))
    if journey is None:
        if origin == MARKET:
            s["market"][p] -= 1
        else:
            s["traders"][p][PROV_INDEX[origin]] -= 1
        journey = s["journey"] = {"at": None, "visited": visited}
        s["step"] = "journey"
    s["passes_used"] += options[to]
    journey["at"] = PROV_INDEX[to]
    journey["visited"].append(PROV_INDEX[to])
    if not _targets(s, p, to, journey["visited"]):
        _stop(s, p)  # nowhere further to go: the journey ends here


def _step_reason(s, p: int, origin: str, to: str, visited) -> str:
    left = s["passes"][p] - s["passes_used"]
    if origin == MARKET and to != PROVINCES[0]:
        return f"rule 'travel': from the Market a trader always moves to {PROVINCES[0]} first"
    if to in PROV_INDEX and PROV_INDEX[to] in visited:
        return f"rule 'travel': this trader has already entered {to} on this journey"
    if to in PROV_INDEX and PROV_INDEX[to] > s["horse"][p]:
        return (f"rule 'travel': your horse has reached {PROVINCES[s['horse'][p]]}, so your "
                f"traders may not enter {to}")
    if left < 1:
        return f"rule 'border_passes': all {s['passes'][p]} of your Border Passes are used"
    return (f"rule 'travel': {to} is not next to {origin} by the road or one of your unblocked "
            f"bridges")


def _stop(s, p: int) -> None:
    journey = s["journey"]
    if journey is None:
        raise IllegalMove("travel.no_journey", "rule 'travel': no journey is under way")
    at = journey["at"]
    s["traders"][p][at] += 1
    s["arrived"][at] += 1
    s["journey"] = None
    if victims(s, p, at):
        s["step"], s["displace_at"] = "displace", at
    else:
        s["step"] = "travel"


def _displace(s, p: int, owner: int) -> None:
    at = s["displace_at"]
    if owner not in victims(s, p, at):
        raise IllegalMove("displace.target", f"rule 'displacement': participant {owner} has no "
                          f"trader in {PROVINCES[at]} with influence below your "
                          f"{s['influence'][p]} that is not guarded")
    board.displace_one(s, owner, at)
    s["report"]["displaced"].append({"by": p, "owner": owner, "from": PROVINCES[at]})
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
    if build.legal_builds(s, p):
        return False
    for origin in starts(s, p):
        visited = () if origin == MARKET else (PROV_INDEX[origin],)
        if _targets(s, p, origin, visited):
            return False
    return True
