"""Setup placements and phase B: Merchants on the Bonus register, benefits, Crop tiles.

Handlers follow `common`'s convention: `(s, seat, move, dry)`, raise a `rule_error`
naming the rule, return early at `dry`, else change `s`.
"""

from __future__ import annotations

from referee.games.yinzi_ming import board, data, flow
from referee.core.kit import Rule, accepts, one, rule_error


def place_start(s, seat, move, dry) -> None:
    """Setup 5: 2 Peasants on one unattended Rice, Maize or Salt Mine space (reverse order)."""
    sid = move["space"]
    crop = board.crop(s, sid)
    if crop not in data.START_CROPS:
        raise rule_error("place_start.crop", f"{sid} grows {crop}; starting Peasants go on "
                                             f"{'/'.join(sorted(data.START_CROPS))}")
    if not board.unattended(s, sid):
        raise rule_error("place_start.attended", f"{sid} is not unattended")
    if dry:
        return
    board.place_peasants(s, seat, sid, data.START_PEASANTS)
    flow.end_placement_turn(s)


def merchant(s, seat, move, dry) -> None:
    """Put your Merchant on an empty register slot and take its benefit."""
    slot = move["slot"]
    holder = s["register"][slot - 1]["merchant"]
    if holder is not None:
        raise rule_error(
            "merchant.occupied",
            f"slot {slot} already holds the Merchant of seat {holder}; "
            f"each space may hold one Merchant")
    if dry:
        return
    s["register"][slot - 1]["merchant"] = seat
    _take_benefit(s, seat, data.SLOT_EFFECT[slot])
    s["turn"] = {"seat": seat, "slot": slot, "moved": 0, "permit": 0}
    if buy_possible(s, seat):
        s["stage"] = "crop_tile"
    else:
        flow.end_bonus_turn(s)


def _take_benefit(s, seat: int, effect: dict) -> None:
    """Immediate benefits; Market Broker and Tax Exemption work from the slot itself."""
    st, kind = s["seats"][seat], effect["kind"]
    if kind == "sapeques":
        st["sapeques"] += effect["amount"]
    elif kind == "ambassador":
        st["ambassador"] = min(st["ambassador"] + effect["amount"], data.TRACK_LAST)
    elif kind == "stone":
        st["stone"] += effect["amount"]


def buy_possible(s, seat: int) -> bool:
    """Whether the Crop tile step is worth a decision: a legal buy, or exchanges to try."""
    if buy_tile_moves(s, seat):
        return True
    slot = s["register"][s["turn"]["slot"] - 1]
    return (s["options"]["exchange_in_bonus_turn"] and slot["tile"] is not None
            and s["seats"][seat]["peasants"] >= data.TILE_PEASANTS)


def check_tile_purchase(s, seat: int, slot: int, field: str, turn, rule: str) -> str:
    """The checks a Crop tile purchase shares in phase B and Deploy; returns the tile."""
    tile = s["register"][slot - 1]["tile"]
    if tile is None:
        raise rule_error(f"{rule}.no_tile", f"register slot {slot} has no Crop tile")
    if not board.is_field(field):
        raise rule_error(f"{rule}.not_field", f"{field} is not a Field")
    if not board.unattended(s, field):
        raise rule_error(f"{rule}.attended", f"{field} is not an unattended Field")
    have = s["seats"][seat]["peasants"]
    if have < data.TILE_PEASANTS:
        raise rule_error(
            f"{rule}.peasants",
            f"a Crop tile needs {data.TILE_PEASANTS} Peasants from your "
            f"supply, you have {have}")
    board.check_supply_transport(s, seat, turn, data.TILE_PEASANTS, rule, "a Crop tile")
    cost = data.SLOT_COST[slot]
    if s["seats"][seat]["sapeques"] < cost:
        raise rule_error(
            f"{rule}.sapeques",
            f"the Crop tile of slot {slot} costs {cost} Sapeques, you "
            f"have {s['seats'][seat]['sapeques']}")
    return tile


def buy_tile_now(s, seat: int, slot: int, field: str, turn) -> None:
    """Pay the slot's cost, take its tile, and place it with 2 Peasants on `field`."""
    tile = s["register"][slot - 1]["tile"]
    s["seats"][seat]["sapeques"] -= data.SLOT_COST[slot]
    s["register"][slot - 1]["tile"] = None
    turn["moved"] = turn.get("moved", 0) + board.supply_cost(s, data.TILE_PEASANTS)
    board.place_crop_tile(s, seat, tile, field)


def buy_tile(s, seat, move, dry) -> None:
    """Buy the Crop tile printed beside your Merchant's slot."""
    slot = s["turn"]["slot"]
    check_tile_purchase(s, seat, slot, move["field"], s["turn"], "buy_tile")
    if dry:
        return
    buy_tile_now(s, seat, slot, move["field"], s["turn"])
    flow.end_bonus_turn(s)


def decline(s, seat, move, dry) -> None:
    """Do not buy the Crop tile."""
    if not dry:
        flow.end_bonus_turn(s)


def buy_tile_moves(s, seat: int) -> list[dict]:
    """The legal purchases of the tile beside the Merchant's slot."""
    return [m for m in _buy_candidates(s, seat) if accepts(RULES["buy_tile"], s, seat, m)]


def _buy_candidates(s, seat):
    if s["register"][s["turn"]["slot"] - 1]["tile"] is None:
        return []
    return [{"type": "buy_tile", "field": f} for f in board.unattended_fields(s)]


RULES = {r.type: r for r in (
    Rule.dry("place_start", place_start,
             lambda s, seat: [{"type": "place_start", "space": sid} for sid in data.SPACE_IDS
                              if board.crop(s, sid) in data.START_CROPS]),
    Rule.dry("merchant", merchant,
             lambda s, seat: [{"type": "merchant", "slot": i + 1}
                              for i, slot in enumerate(s["register"]) if slot["merchant"] is None]),
    Rule.dry("buy_tile", buy_tile, _buy_candidates),
    Rule.dry("decline", decline, one("decline")),
)}
"""The rules of phase B and the setup placements: candidates, each checked by its handler."""
