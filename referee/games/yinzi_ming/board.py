"""Board queries shared by the phases: spaces, unattended Fields, money, transport costs."""

from __future__ import annotations

from referee.core import chance
from referee.core.kit import rule_error
from referee.games.yinzi_ming import data


def unattended(s, sid: str) -> bool:
    """No Peasant on the space and (A1, default) not covered by a Workshop."""
    if sid in s["occupants"]:
        return False
    return sid not in s["covered"] or not s["options"]["unattended_excludes_workshops"]


def is_field(sid: str) -> bool:
    """A Field space (not a Salt Mine)."""
    return data.SPACES[sid]["kind"] == "field"


def province(sid: str) -> str:
    """The Province a board space lies in."""
    return data.SPACES[sid]["province"]


def crop(s, sid: str) -> str:
    """The crop a space grows now (a Crop tile replaces the printed one; Salt on a Salt Mine)."""
    tile = s["tiles"].get(sid)
    return data.SPACES[sid]["crop"] if tile is None else data.CROP_TILES[tile]


def peasants_for(crop_name: str) -> int:
    """How many Peasants Deploy puts on an unattended space of this crop (0: none)."""
    if crop_name in data.SINGLE:
        return 1
    return 2 if crop_name in data.DOUBLE else 0


def unattended_fields(s) -> list[str]:
    """Every unattended Field, in board order (targets for Crop tiles)."""
    return [f for f in data.FIELD_IDS if unattended(s, f)]


def rate(s) -> int:
    """The displayed exchange rate R (Sapeques per Yinzi)."""
    return data.RATE[s["dial"]]


def need(s, seat: int, item: str, amount: int, rule: str, what: str) -> None:
    """Fail unless `seat` holds at least `amount` of `item` (stone, peasants, overseers...)."""
    have = s["seats"][seat][item]
    if have < amount:
        raise rule_error(f"{rule}.{item}", f"{what} needs {amount} {item}, you have {have}")


def slot_bonus(s, seat: int, slot: int | None) -> int:
    """The amount of the register benefit in `slot` if `seat`'s Merchant holds it, else 0."""
    if slot is None or s["register"][slot - 1]["merchant"] != seat:
        return 0
    return data.SLOT_EFFECT[slot]["amount"]


def broker(s, seat: int) -> int:
    """Extra Sapeques per sale this round from the Market Broker slot."""
    return slot_bonus(s, seat, data.BROKER_SLOT)


def build_stone(s, seat: int) -> int:
    """Stone a Workshop build costs `seat` now: less for a first Workshop with the Kiln
    Licence (rules 5; only the first, so one round cannot bring two Workshops for nothing)."""
    if any(w["owner"] == seat for w in s["workshops"].values()):
        return data.BUILD_STONE
    return max(0, data.BUILD_STONE - slot_bonus(s, seat, data.KILN_SLOT))


def move_cost(s, turn, src: str, dst: str) -> tuple[int | None, bool]:
    """(points, uses the Yangtze) to move one piece from `src` to `dst` (Provinces or Port).

    Within a Province 0; to or from the Port 1; between Provinces one point per border
    crossed by land, or 1 along the Yangtze (A3 'cost': always; 'throughput': one piece per
    turn). None: no way there.
    """
    if src == dst:
        return data.COST_WITHIN, False
    if data.PORT in (src, dst):
        other = dst if src == data.PORT else src
        return (data.COST_PORT if other in data.PORT_LINKS else None), False
    land = data.LAND[src][dst]
    land_cost = None if land is None else land * data.COST_BORDER
    river = src in data.YANGTZE and dst in data.YANGTZE
    if not river or (land_cost is not None and land_cost <= data.COST_YANGTZE):
        return land_cost, False
    if s["options"]["yangtze_capacity"] == "cost":
        return data.COST_YANGTZE, False
    if turn is not None and turn.get("yangtze", 0) < data.YANGTZE_PIECES:
        return data.COST_YANGTZE, True
    return land_cost, False


def allowance_left(s, seat: int, turn) -> int:
    """Transport points `seat` may still spend this turn (Ambassador space + permits - spent)."""
    extra = turn.get("permit", 0) if turn else 0
    spent = turn.get("moved", 0) if turn else 0
    return s["seats"][seat]["ambassador"] + extra - spent


def check_transport(s, seat: int, turn, src: str, dst: str, rule: str, what: str):
    """Fail unless the move fits the allowance; returns (cost, uses the Yangtze)."""
    cost, river = move_cost(s, turn, src, dst)
    if cost is None:
        raise rule_error(f"{rule}.transport", f"{what}: there is no way from {src} to {dst}")
    left = allowance_left(s, seat, turn)
    if cost > left:
        raise rule_error(
            f"{rule}.transport",
            f"{what} costs {cost} transport point(s) from {src} to {dst}, "
            f"you have {left} left this turn")
    return cost, river


def spend_transport(turn, cost: int, river: bool) -> None:
    """Record transport spent this turn (the Ambassador never moves for it)."""
    turn["moved"] = turn.get("moved", 0) + cost
    if river:
        turn["yangtze"] = turn.get("yangtze", 0) + 1


def supply_cost(s, peasants: int) -> int:
    """A2: transport points to bring `peasants` from the supply (0 unless the option is off)."""
    return 0 if s["options"]["supply_ignores_transport"] else peasants * data.COST_PORT


def check_supply_transport(s, seat: int, turn, peasants: int, rule: str, what: str) -> int:
    """Fail if A2 is off and the supply placement does not fit the allowance; returns the cost."""
    cost = supply_cost(s, peasants)
    left = allowance_left(s, seat, turn)
    if cost > left:
        raise rule_error(
            f"{rule}.transport",
            f"{what}: {peasants} Peasant(s) from the supply at the Port "
            f"cost {cost} transport point(s), you have {left} left")
    return cost


def place_peasants(s, seat: int, sid: str, count: int) -> None:
    """Put `count` of `seat`'s supply Peasants on space `sid`."""
    s["seats"][seat]["peasants"] -= count
    held = s["occupants"].setdefault(sid, {"owner": seat, "count": 0})
    held["count"] += count


def take_peasant(s, sid: str) -> int:
    """Lift one Peasant off a board space; returns its owner."""
    held = s["occupants"][sid]
    held["count"] -= 1
    if not held["count"]:
        del s["occupants"][sid]
    return held["owner"]


def place_crop_tile(s, seat: int, tile: str, sid: str) -> None:
    """A Crop tile replaces the Field's crop for good and carries 2 of the seat's Peasants."""
    if sid in s["tiles"]:
        s["crop_discard"].append(s["tiles"][sid])
    s["tiles"][sid] = tile
    place_peasants(s, seat, sid, data.TILE_PEASANTS)


def refill_register(s) -> None:
    """Slide the remaining Crop tiles upward, then draw replacements into the empty slots."""
    tiles = [slot["tile"] for slot in s["register"] if slot["tile"] is not None]
    while len(tiles) < len(s["register"]) and s["crop_deck"]:
        tiles.append(chance.take(s["crop_deck"], "crop_tile", prompt={"slot": len(tiles) + 1}))
    for i, slot in enumerate(s["register"]):
        slot["tile"] = tiles[i] if i < len(tiles) else None


def refill_display(s) -> None:
    """Fill the empty places of the Workshop display from the Workshop deck."""
    display = s["display"]
    for i, tile in enumerate(display):
        if tile is None and s["workshop_deck"]:
            display[i] = chance.take(s["workshop_deck"], "workshop_tile", prompt={"place": i})
