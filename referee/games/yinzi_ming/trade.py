"""The Trade Directive (bottom half, completion 5.6): Produce, Ship and Quarry.

Repeats are allowed; each action resolves fully before the next. With the option
`exclusive_trade_slots`, each action has (players - 1) slots a round. Handlers follow
`common`'s convention: `(s, seat, move, dry)`.
"""

from __future__ import annotations

from referee.games.yinzi_ming import board, data
from referee.core.kit import Rule, one, rule_error
from referee.games.yinzi_ming.commands import action_left, check_action_left


def _check_slot(s, action: str) -> None:
    if not s["options"]["exclusive_trade_slots"]:
        return
    taken, limit = s["trade_slots"][action], s["players"] - 1
    if len(taken) >= limit:
        raise rule_error(
            f"{action}.slots_full",
            f"the {limit} {action} slot(s) of this round are taken "
            f"(by seats {taken}); option exclusive_trade_slots is on")


def _fill_slot(s, seat: int, action: str) -> None:
    if s["options"]["exclusive_trade_slots"]:
        s["trade_slots"][action].append(seat)


def _own_workshop(s, seat: int, wid: str, rule: str) -> dict:
    shop = s["workshops"].get(wid)
    if shop is None or shop["owner"] != seat:
        raise rule_error(f"{rule}.not_yours", f"you have no Workshop {wid}")
    return shop


def produce(s, seat, move, dry) -> None:
    """Your Workshop takes a Peasant of its input crop from a market space and makes 1 Good."""
    turn = check_action_left(s, "produce")
    _check_slot(s, "produce")
    wid, prov, index = move["workshop"], move["market"], move["index"]
    shop = _own_workshop(s, seat, wid, "produce")
    limit = shop["level"] * data.PRODUCTION_PER_LEVEL
    if shop["produced"] >= limit:
        raise rule_error(
            "produce.level",
            f"Workshop {wid} (Level {shop['level']}) has made {limit} Good(s) "
            f"this round, its most")
    market = s["markets"][prov]
    demands = data.MARKETS[market["tile"]]["spaces"]
    owner = market["spaces"][index] if index < len(demands) else None
    if owner is None:
        raise rule_error(
            "produce.no_peasant",
            f"space {index} of the {prov} market holds no Peasant")
    needed = data.GOOD_INPUT[data.WORKSHOP_TILES[wid]]
    if demands[index] != needed:
        raise rule_error(
            "produce.input",
            f"Workshop {wid} needs {needed}, space {index} of the {prov} "
            f"market holds {demands[index]}")
    cost, river = board.check_transport(s, seat, turn, prov, shop["province"], "produce",
                                        "bringing the Peasant to the Workshop")
    if dry:
        return
    market["spaces"][index] = None
    s["seats"][owner]["peasants"] += 1
    shop["goods"] += 1
    shop["produced"] += 1
    board.spend_transport(turn, cost, river)
    _fill_slot(s, seat, "produce")
    turn["used"] += 1


def ship(s, seat, move, dry) -> None:
    """Move 1 Good to the Port onto a vacant matching Ship slot: 1 Yinzi and 2 VP."""
    turn = check_action_left(s, "ship")
    _check_slot(s, "ship")
    wid = move["workshop"]
    shop = _own_workshop(s, seat, wid, "ship")
    if not shop["goods"]:
        raise rule_error("ship.no_goods", f"Workshop {wid} holds no Good")
    at_port = next((p for p in s["port"] if p["ship"] == move["ship"]), None)
    if at_port is None:
        raise rule_error("ship.not_at_port", f"ship {move['ship']} is not at the Port "
                                             f"{[p['ship'] for p in s['port']]}")
    good = data.WORKSHOP_TILES[wid]
    wants = data.SHIPS[move["ship"]]["goods"]
    if good not in wants:
        raise rule_error("ship.no_demand", f"ship {move['ship']} wants {wants}, not {good}")
    slot = wants.index(good)
    if at_port["slots"][slot] is not None:
        raise rule_error(
            "ship.slot_full",
            f"the {good} slot of ship {move['ship']} is already filled by "
            f"seat {at_port['slots'][slot]}")
    cost, river = board.check_transport(s, seat, turn, shop["province"], data.PORT, "ship",
                                        "the Good")
    if dry:
        return
    shop["goods"] -= 1
    at_port["slots"][slot] = seat
    s["seats"][seat]["yinzi"] += data.SHIP_YINZI
    s["seats"][seat]["ship_vp"] += data.SHIP_VP
    board.spend_transport(turn, cost, river)
    _fill_slot(s, seat, "ship")
    turn["used"] += 1


def quarry(s, seat, move, dry) -> None:
    """Pay 2 Sapeques, gain 1 Stone."""
    turn = check_action_left(s, "quarry")
    _check_slot(s, "quarry")
    board.need(s, seat, "sapeques", data.QUARRY_COST, "quarry", "Quarry")
    if dry:
        return
    s["seats"][seat]["sapeques"] -= data.QUARRY_COST
    s["seats"][seat]["stone"] += data.QUARRY_STONE
    _fill_slot(s, seat, "quarry")
    turn["used"] += 1


def _produce_candidates(s, seat):
    mine = [w for w in sorted(s["workshops"]) if s["workshops"][w]["owner"] == seat]
    return [{"type": "produce", "workshop": w, "market": prov, "index": i}
            for w in mine for prov in data.PROVINCES
            for i, owner in enumerate(s["markets"][prov]["spaces"]) if owner is not None]


def _ship_candidates(s, seat):
    return [{"type": "ship", "workshop": w, "ship": p["ship"]}
            for w in sorted(s["workshops"])
            if s["workshops"][w]["owner"] == seat and s["workshops"][w]["goods"]
            for p in s["port"]]


RULES = {r.type: r for r in (Rule.dry("produce", produce, _produce_candidates,
                                     gate=action_left),
                            Rule.dry("ship", ship, _ship_candidates, gate=action_left),
                            Rule.dry("quarry", quarry, one("quarry")))}
"""The Trade actions: candidates, each checked by its handler (skipped with no action left)."""
