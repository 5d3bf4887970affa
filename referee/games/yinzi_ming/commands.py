"""The five Command actions; each move is one repetition, resolved fully before the next.

Handlers follow `common`'s convention: `(s, seat, move, dry)`.
"""

from __future__ import annotations

from itertools import combinations

from referee.games.yinzi_ming import board, data
from referee.core.kit import ALIKE, Rule, one, rule_error
from referee.games.yinzi_ming.bonus import buy_tile_now, check_tile_purchase


def check_action_left(s, rule: str) -> dict:
    """Fail when the Directive has no action left; returns the turn record."""
    turn = s["turn"]
    if turn["used"] >= turn["allowed"]:
        raise rule_error(
            f"{rule}.no_action_left",
            f"this Directive's {turn['allowed']} action(s) are "
            f"used up (add an Overseer for another, up to "
            f"{data.MAX_ACTIONS})")
    return turn


def action_left(s, seat) -> bool:
    """A listing gate: False when `check_action_left` refuses (every Command and Trade move
    of the turn then, whatever the move: no candidate need be built or checked)."""
    turn = s["turn"]
    return turn["used"] < turn["allowed"]


def _tile_gate(s, seat) -> bool:
    """Deploy's tile option: an action left, no tile bought this Command, the Peasants and
    the transport for one (deploy_tile's checks that no slot or Field changes)."""
    turn = s["turn"]
    return (action_left(s, seat) and not turn["tile_bought"]
            and s["seats"][seat]["peasants"] >= data.TILE_PEASANTS
            and board.supply_cost(s, data.TILE_PEASANTS) <= board.allowance_left(s, seat, turn))


def _build_gate(s, seat) -> bool:
    """Build: an action left, the Stone and the Overseers (the checks no Workshop tile or
    Field changes); up to 672 candidates are built otherwise."""
    st = s["seats"][seat]
    return (action_left(s, seat) and st["stone"] >= board.build_stone(s, seat)
            and st["overseers"] >= data.BUILD_OVERSEERS)


def advance(s, seat, move, dry) -> None:
    """Increase Transport Capacity: the Ambassador moves one space (to the last at most)."""
    turn = check_action_left(s, "advance")
    st = s["seats"][seat]
    if st["ambassador"] >= data.TRACK_LAST:
        raise rule_error(
            "advance.track_end",
            f"your Ambassador is already on space {data.TRACK_LAST}")
    if dry:
        return
    st["ambassador"] = min(st["ambassador"] + data.TRACK_STEP, data.TRACK_LAST)
    turn["used"] += 1


def deploy(s, seat, move, dry) -> None:
    """1 Peasant on an unattended light-crop Field, or 2 on an unattended Rice/Maize/Salt Mine."""
    turn = check_action_left(s, "deploy")
    sid = move["space"]
    if not board.unattended(s, sid):
        raise rule_error("deploy.attended", f"{sid} is not unattended")
    count = board.peasants_for(board.crop(s, sid))
    if not count:
        raise rule_error(
            "deploy.crop",
            f"{sid} grows {board.crop(s, sid)}, which takes no Peasants")
    have = s["seats"][seat]["peasants"]
    if have < count:
        raise rule_error(
            "deploy.peasants",
            f"{sid} ({board.crop(s, sid)}) takes {count} Peasant(s), you "
            f"have {have} in your supply")
    cost = board.check_supply_transport(s, seat, turn, count, "deploy", "Deploy")
    if dry:
        return
    board.place_peasants(s, seat, sid, count)
    turn["moved"] += cost
    turn["used"] += 1


def deploy_tile(s, seat, move, dry) -> None:
    """Deploy's third option: buy a register tile and place it with 2 Peasants (once/Command)."""
    turn = check_action_left(s, "deploy_tile")
    if turn["tile_bought"]:
        raise rule_error("deploy_tile.once", "you can buy a Crop tile only once per Command")
    check_tile_purchase(s, seat, move["slot"], move["field"], turn, "deploy_tile")
    if dry:
        return
    buy_tile_now(s, seat, move["slot"], move["field"], turn)
    turn["tile_bought"] = turn["refill_register"] = True
    turn["used"] += 1


def sell(s, seat, move, dry) -> None:
    """Move your Peasant to a vacant matching market space: 2 Sapeques, 3 at High Demand."""
    turn = check_action_left(s, "sell")
    sid, prov, index = move["space"], move["market"], move["index"]
    held = s["occupants"].get(sid)
    if held is None or held["owner"] != seat:
        raise rule_error("sell.no_peasant", f"you have no Peasant on {sid}")
    market = s["markets"][prov]
    demands = data.MARKETS[market["tile"]]["spaces"]
    if index >= len(demands):
        raise rule_error(
            "sell.no_space",
            f"the {prov} market ({market['tile']}) has {len(demands)} spaces")
    if market["spaces"][index] is not None:
        raise rule_error(
            "sell.occupied",
            f"space {index} of the {prov} market already holds a Peasant of "
            f"seat {market['spaces'][index]}")
    grown = board.crop(s, sid)
    if demands[index] != grown:
        raise rule_error(
            "sell.demand",
            f"space {index} of the {prov} market demands {demands[index]}, "
            f"{sid} grows {grown}")
    cost, river = board.check_transport(s, seat, turn, board.province(sid), prov, "sell",
                                        "the sale")
    if dry:
        return
    board.take_peasant(s, sid)
    market["spaces"][index] = seat
    high = data.MARKETS[market["tile"]]["high_demand"] == grown
    s["seats"][seat]["sapeques"] += (data.PAY_HIGH if high else data.PAY) + board.broker(s, seat)
    board.spend_transport(turn, cost, river)
    turn["used"] += 1


def _check_build_fields(s, fields: list[str]) -> None:
    provinces = {board.province(f) for f in fields}
    if data.BUILD_SAME_PROVINCE and len(provinces) != 1:
        raise rule_error(
            "build.province",
            f"a Workshop's Fields lie in one Province, not {sorted(provinces)}")
    for f in fields:
        if f in s["covered"]:
            raise rule_error("build.covered", f"{f} is under Workshop {s['covered'][f]}")
        if not board.unattended(s, f):
            raise rule_error("build.attended", f"{f} is not an unattended Field")


def build(s, seat, move, dry) -> None:
    """Pay 1 Stone, lay a displayed Workshop over 3 unattended Fields, mark it with an Overseer."""
    turn = check_action_left(s, "build")
    # Any order names the same three Fields (Decisions: build move); stored in board order.
    tile, fields = move["tile"], sorted(move["fields"], key=data.SPACE_ORDER.__getitem__)
    if tile not in s["display"]:
        shown = [t for t in s["display"] if t is not None]
        raise rule_error("build.not_displayed", f"Workshop {tile} is not in the display {shown}")
    _check_build_fields(s, fields)
    board.need(s, seat, "stone", board.build_stone(s, seat), "build", "a Workshop")
    board.need(s, seat, "overseers", data.BUILD_OVERSEERS, "build", "a Workshop")
    if dry:
        return
    st = s["seats"][seat]
    st["stone"] -= board.build_stone(s, seat)
    st["overseers"] -= data.BUILD_OVERSEERS
    s["display"][s["display"].index(tile)] = None
    s["workshops"][tile] = {"owner": seat, "province": board.province(fields[0]),
                            "fields": list(fields), "level": 1, "goods": 0, "produced": 0}
    for f in fields:
        s["covered"][f] = tile
    turn["refill_display"] = True
    turn["used"] += 1


def upgrade(s, seat, move, dry) -> None:
    """One level up: 3 Sapeques for Level II, 5 for Level III, plus an Overseer."""
    turn = check_action_left(s, "upgrade")
    shop = s["workshops"].get(move["workshop"])
    if shop is None or shop["owner"] != seat:
        raise rule_error("upgrade.not_yours", f"you have no Workshop {move['workshop']}")
    if shop["level"] >= data.MAX_LEVEL:
        raise rule_error(
            "upgrade.max_level",
            f"Workshop {move['workshop']} is already Level {shop['level']}")
    cost = data.UPGRADE_COST[shop["level"] + 1]
    board.need(s, seat, "sapeques", cost, "upgrade", f"Level {shop['level'] + 1}")
    board.need(s, seat, "overseers", data.UPGRADE_OVERSEERS, "upgrade", "an upgrade")
    if dry:
        return
    st = s["seats"][seat]
    st["sapeques"] -= cost
    st["overseers"] -= data.UPGRADE_OVERSEERS
    shop["level"] += 1
    turn["used"] += 1


def corrupt(s, seat, move, dry) -> None:
    """One Overseer on an empty benefit space; usable from the next phase on."""
    turn = check_action_left(s, "corrupt")
    b = move["benefit"]
    taken = s["admin"][b]
    if taken is not None:
        raise rule_error(
            "corrupt.occupied",
            f"{b} already holds an Overseer of seat {taken['owner']}")
    board.need(s, seat, "overseers", data.CORRUPT_OVERSEERS, "corrupt", "Corrupt Administration")
    if dry:
        return
    s["seats"][seat]["overseers"] -= data.CORRUPT_OVERSEERS
    s["admin"][b] = {"owner": seat, "round": s["round"], "phase": s["phase"]}
    turn["used"] += 1


def _build_candidates(s, seat):
    tiles = [t for t in s["display"] if t is not None]
    if not tiles:
        return []
    moves = []
    for prov in data.PROVINCES:
        free = [f for f in data.FIELDS_BY_PROVINCE[prov]
                if f not in s["covered"] and board.unattended(s, f)]
        for trio in combinations(free, data.BUILD_FIELDS):
            moves += [{"type": "build", "tile": t, "fields": list(trio)} for t in tiles]
    return moves


def _sell_candidates(s, seat):
    own = [sid for sid in data.SPACE_IDS
           if sid in s["occupants"] and s["occupants"][sid]["owner"] == seat]
    moves = []
    for prov in data.PROVINCES:
        market = s["markets"][prov]
        demands = data.MARKETS[market["tile"]]["spaces"]
        for i, owner in enumerate(market["spaces"]):
            if owner is None:
                moves += [{"type": "sell", "space": sid, "market": prov, "index": i}
                          for sid in own if board.crop(s, sid) == demands[i]]
    return moves


RULES = {r.type: r for r in (
    Rule.dry("advance", advance, one("advance")),
    Rule.dry("deploy", deploy,
             lambda s, seat: [{"type": "deploy", "space": sid} for sid in data.SPACE_IDS
                              if board.unattended(s, sid)], gate=action_left),
    Rule.dry("deploy_tile", deploy_tile,
             lambda s, seat: [{"type": "deploy_tile", "slot": i + 1, "field": f}
                              for i, slot in enumerate(s["register"]) if slot["tile"] is not None
                              for f in board.unattended_fields(s)], gate=_tile_gate),
    Rule.dry("sell", sell, _sell_candidates, gate=action_left),
    # Build lists up to 3 x 4 x 56 Field triples, all legal or none (they differ only in
    # what the checks do not look at); audit_listing in the tests confirms it over playouts.
    Rule.dry("build", build, _build_candidates, ALIKE, gate=_build_gate),
    Rule.dry("upgrade", upgrade,
             lambda s, seat: [{"type": "upgrade", "workshop": w} for w in sorted(s["workshops"])
                              if s["workshops"][w]["owner"] == seat], gate=action_left),
    Rule.dry("corrupt", corrupt,
             lambda s, seat: [{"type": "corrupt", "benefit": b} for b in data.BENEFIT_IDS
                              if s["admin"][b] is None], gate=action_left),
)}
"""The Command actions: candidates, each checked by its handler (Build: one check for all);
the gates skip the candidates when a check every one of them would fail refuses."""
