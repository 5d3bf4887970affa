"""The Yinzi: Ming heuristic bot's candidate moves, each with what it is worth in end-of-game
VP, priced on the seat model (`Position`) of yinzi_ming_strategy.py beside this file."""

from __future__ import annotations

from referee_client.render.yinzi_ming import GOOD_OF, INPUT, SHIPS
from yinzi_ming_strategy import DOUBLE, TRACK_LAST, UPGRADE, Position

# -- candidate actions, as our own model of the rules sees them --------------------------------
# legal_moves lists only what fits the actions left and the Sapeques in hand; planning a round,
# adding an Overseer or selling Yinzi for an upgrade needs the moves beyond that too.

def sells(pos: Position, allowance: int | None = None) -> list[tuple[float, dict]]:
    """(value, move) for each sale of one of our field Peasants to a vacant matching space."""
    left = pos.allowance() if allowance is None else allowance
    room, out = pos.inputs(), []
    for sid, crop, _ in pos.field_peasants():
        for prov, i, want, pay in pos.vacant_demand():
            if want != crop or pos.cost(pos.province(sid), prov) > left:
                continue
            feeds = 1.4 if room.get(crop, 0) > 0 and pos.trade_left() + pos.extra_trade() else 0
            value = pay * pos.sv + feeds - 0.05 * pos.cost(pos.province(sid), prov)
            out.append((value, {"type": "sell", "space": sid, "market": prov, "index": i}))
    return out


def deploys(pos: Position) -> list[tuple[float, dict]]:
    """(value, move) for Peasants from the supply onto unattended spaces."""
    out, have = [], pos.st["peasants"]
    for sid, e in pos.view["board"].items():
        count = 2 if e["crop"] in DOUBLE else 1
        if pos.unattended(sid) and have >= count:
            value = sum(pos.peasant_value(e["crop"], k) for k in range(count))
            out.append((value, {"type": "deploy", "space": sid}))
    return out


def produces(pos: Position) -> list[tuple[float, dict]]:
    """(value, move) for our Workshops taking a sold Peasant of their crop from a market."""
    out, left = [], pos.allowance()
    for wid, shop in pos.shops.items():
        if shop["produced"] >= shop["level"]:
            continue
        tax = pos.first_good_tax(shop)
        crop = INPUT[GOOD_OF[wid]]
        for prov, m in pos.view["markets"].items():
            for i, (want, owner) in enumerate(zip(m["demands"], m["spaces"])):
                cost = pos.cost(prov, shop["province"])
                if owner is not None and want == crop and cost <= left:
                    # a rival's Peasant first: ours may still feed another of our Workshops
                    mine = 0.05 if owner == pos.me else 0
                    value = pos.good_value(GOOD_OF[wid]) - 0.3 * cost - mine - tax
                    out.append((value, {"type": "produce", "workshop": wid, "market": prov,
                                        "index": i}))
    return out


def ships(pos: Position) -> list[tuple[float, dict]]:
    """(value, move) for a Good of ours onto a vacant matching Ship slot (1 Yinzi + 2 VP)."""
    if pos.allowance() < 1:
        return []
    out = []
    for wid, shop in pos.shops.items():
        if not shop["goods"]:
            continue
        for p in pos.view["port"]:
            wants = SHIPS[p["ship"]][1]
            good = GOOD_OF[wid]
            if good in wants and p["slots"][wants.index(good)] is None:
                # a full Ship sails in Maintenance under either ships_sail rule: slightly
                # prefer completing one
                last = 0.1 if sum(o is None for o in p["slots"]) == 1 else 0
                out.append((4.0 + last, {"type": "ship", "workshop": wid, "ship": p["ship"]}))
    return out


def field_triples(pos: Position, good: str) -> list[tuple[float, list[str]]]:
    """Good sets of 3 unattended Fields, one Province each, for a Workshop of `good`."""
    crop = INPUT[good]
    useful = pos.used_crops() | {crop}
    out = []
    for prov, ids in pos.view["map"]["provinces"].items():
        free = [sid for sid in ids if sid not in pos.view["map"]["salt_mines"]
                and pos.unattended(sid)]
        if len(free) < 3:
            continue
        # cover Fields whose crops we do not need, keep the ones that feed us
        free.sort(key=lambda sid: (pos.view["board"][sid]["crop"] in useful, ids.index(sid)))
        trio = sorted(free[:3], key=ids.index)
        demand = pos.view["markets"][prov]["demands"].count(crop)
        near = sum(c for sid, k, c in pos.field_peasants() if k == crop and pos.province(sid) == prov)
        lost = sum(pos.view["board"][sid]["crop"] in useful for sid in trio)
        out.append((0.3 * min(demand, 1) + 0.1 * min(near, 2) - 0.3 * lost, trio))
    out.sort(key=lambda t: -t[0])
    return out


def builds(pos: Position) -> list[tuple[float, dict]]:
    """(value, move) for building a displayed Workshop, best Fields for each tile."""
    if pos.st["overseers"] < 1 or pos.st["stone"] < pos.build_stone() or \
            not pos.want_workshop():
        return []
    out = []
    for wid in pos.view["display"]:
        if wid is None:
            continue
        triples = field_triples(pos, GOOD_OF[wid])
        if triples:
            bonus, trio = triples[0]
            out.append((pos.workshop_value(wid) + bonus,
                        {"type": "build", "tile": wid, "fields": trio}))
    return out


def upgrades(pos: Position) -> list[tuple[float, dict]]:
    """(value, move) for raising one of our Workshops a level (Sapeques and an Overseer)."""
    if pos.st["overseers"] < 1:
        return []
    return [(pos.upgrade_value(wid), {"type": "upgrade", "workshop": wid})
            for wid, shop in pos.shops.items() if shop["level"] < 3
            and UPGRADE[shop["level"] + 1][0] <= pos.wealth]


def corrupts(pos: Position) -> list[tuple[float, dict]]:
    """(value, move) for an Overseer on a free Administration space."""
    if pos.st["overseers"] < 1:
        return []
    keep = 0.4 if pos.want_workshop() or pos.shops else 0.1  # the Overseer leaves our supply
    return [(pos.benefit_value(b) - keep, {"type": "corrupt", "benefit": b})
            for b in pos.free_admin()]


def quarries(pos: Position) -> list[tuple[float, dict]]:
    """(value, move) for Quarry: 2 Sapeques for a Stone."""
    if pos.wealth < 2:
        return []
    return [(pos.stone_value() - 2 * pos.sv, {"type": "quarry"})]


def deploy_tiles(pos: Position) -> list[tuple[float, dict]]:
    """(value, move) for Deploy's third option: a register Crop tile with 2 Peasants."""
    if pos.turn.get("tile_bought") or pos.st["peasants"] < 2:
        return []
    out = []
    for slot in pos.view["register"]:
        if slot["tile"] is None or slot["cost"] > pos.st["sapeques"]:
            continue
        field = best_tile_field(pos, slot["crop"])
        if field:
            value = pos.peasant_value(slot["crop"]) + pos.peasant_value(slot["crop"], 1) \
                - slot["cost"] * pos.sv
            out.append((value, {"type": "deploy_tile", "slot": slot["slot"], "field": field}))
    return out


def best_tile_field(pos: Position, crop: str) -> str | None:
    """Where a Crop tile goes: an unattended Field of a Province that buys the crop, and not
    of the Province where a Workshop of ours would best stand."""
    fields = [sid for sid in pos.view["board"] if sid not in pos.view["map"]["salt_mines"]
              and pos.unattended(sid)]
    if not fields:
        return None

    def score(sid):
        prov = pos.province(sid)
        wanted = pos.view["markets"][prov]["demands"].count(crop)
        free = sum(pos.unattended(f) for f in pos.view["map"]["provinces"][prov])
        # a Field whose own crop we use is worth keeping for a plain Deploy
        own = pos.view["board"][sid]["crop"] in pos.used_crops() | {crop}
        return (wanted > 0, -own, free > 4, -list(pos.view["board"]).index(sid))
    return max(fields, key=score)


ACTION_MOVES = {"transport": lambda pos: [(advance_value(pos), {"type": "advance"})]
                if pos.st["ambassador"] < TRACK_LAST else [],
                "deploy": lambda pos: deploys(pos) + deploy_tiles(pos),
                "sell": sells,
                "build": lambda pos: builds(pos) + upgrades(pos),
                "corrupt": corrupts,
                None: lambda pos: produces(pos) + ships(pos) + quarries(pos)}
"""Our model's candidate moves for each Command action space (None: a Trade Directive)."""


def advance_value(pos: Position) -> float:
    """Ambassador +1: a VP, and early on more transport for sales, Produce and Ships."""
    return 1.0 + (0.5 if pos.st["ambassador"] < 3 and not pos.last_round else 0.0)


def action_plan_value(pos: Position, action: str | None, n: int) -> float:
    """What `n` actions of one Command (or, for None, a Trade Directive) would bring now:
    the best `n` distinct positive candidates, a rough bound that ranks the choices."""
    if action == "transport":
        return min(n, TRACK_LAST - pos.st["ambassador"]) * advance_value(pos)
    scored = sorted((v for v, m in distinct(ACTION_MOVES[action](pos))), reverse=True)
    return sum(v for v in scored[:n] if v > 0)


def distinct(cands: list[tuple[float, dict]]) -> list[tuple[float, dict]]:
    """The best candidate per thing a move uses up: a sale per Peasant's space, Produce and
    Ship per Workshop, one build and one Crop tile per Command; other moves are all kept."""
    best: dict = {}
    for value, move in cands:
        kind = move["type"]
        if kind == "sell":
            key = (kind, move["space"])
        elif kind in ("produce", "ship"):
            key = (kind, move["workshop"])
        elif kind in ("build", "deploy_tile"):
            key = (kind,)
        else:
            key = (kind, tuple(sorted(move.items())))
        if key not in best or value > best[key][0]:
            best[key] = (value, move)
    return list(best.values())
