"""The state document's shape (a schema the kit checks) and the invariants a schema cannot say.

The state is plain JSON-able data (see `setup.setup` for its shape). `SCHEMA` fixes every key,
type and range; `check` (the kit's `check_state`) is linear in the state's size and checks what
a corrupted or hand-edited document could still get wrong: one entry per player, the cursor
consistent, every tile and card exactly once somewhere, each player's Peasants and Overseers
accounted for. Each failure names the JSON path of the field at fault.
"""

from __future__ import annotations

from collections import Counter

from referee.core import InvalidOptions
from referee.core.statecheck import (boolean, enum, integer, list_of, mapping, nat, nullable,
                                     record, state_error)
from referee.games.yinzi_ming import data

SEAT_NO = nat(data.MAX_PLAYERS - 1)
CARD = nat(len(data.CARDS) - 1)
PHASES = ("placement", "bonus", "directives", "regulation", "over")
STAGES = {"placement": {"place"}, "bonus": {"merchant", "crop_tile"},
          "directives": {"choose", "act"}, "regulation": {"step"}, "over": {None}}
_TILE_ID = enum(*data.CROP_TILES)
_WORKSHOP_ID = enum(*data.WORKSHOP_TILES)
_SHIP_ID = enum(*data.SHIPS)
_MARKET_ID = enum(*data.MARKETS)

SEAT = record(
    sapeques=nat(), yinzi=nat(), stone=nat(),
    ambassador=integer(data.TRACK_FIRST, data.TRACK_LAST),
    peasants=nat(data.PEASANTS), overseers=nat(data.OVERSEERS), ship_vp=nat(),
    tax_vp=integer(maximum=0), deck=list_of(CARD), gone=list_of(CARD),
    cards=list_of(record(card=CARD, top=boolean(), bottom=boolean(), overseers=nat()),
                  max_items=data.REVEALED),
    spaces=mapping(nullable(CARD), keys=data.ACTIONS, complete=True),
    turns=nat(data.TURNS))

_BONUS_TURN = record(seat=SEAT_NO, slot=integer(1, len(data.SLOTS)), moved=nat(), permit=nat())
_DIRECTIVE_TURN = record(
    seat=SEAT_NO, card=CARD, half=enum("top", "bottom"), action=nullable(enum(*data.ACTIONS)),
    allowed=integer(1, data.MAX_ACTIONS), used=nat(data.MAX_ACTIONS), moved=nat(), permit=nat(),
    yangtze=nat(), tile_bought=boolean(), refill_display=boolean(), refill_register=boolean())
_REGULATION_TURN = record(seat=SEAT_NO, waived=boolean())

_BREAKDOWN = mapping(integer())
FINAL = record(scores=list_of(integer()), ranks=list_of(integer(1, data.MAX_PLAYERS)),
               breakdown=list_of(_BREAKDOWN), final_rate=nat())

SCHEMA = record(
    players=integer(data.MIN_PLAYERS, data.MAX_PLAYERS),
    options={"type": "object"},
    seed=nat(),
    round=integer(1, data.ROUNDS),
    phase=enum(*PHASES),
    stage=enum(*sorted(s for stages in STAGES.values() for s in stages if s), None),
    order=list_of(SEAT_NO, min_items=data.MIN_PLAYERS, max_items=data.MAX_PLAYERS, unique=True),
    queue=list_of(SEAT_NO, max_items=data.MAX_PLAYERS),
    active=nullable(SEAT_NO),
    turn_no=nat(),
    dial=enum(*data.DIAL),
    roll=nullable(integer(1, data.DIE)),
    occupants=mapping(record(owner=SEAT_NO, count=integer(1, data.PEASANTS)),
                      keys=data.SPACE_IDS),
    tiles=mapping(_TILE_ID, keys=data.FIELD_IDS),
    covered=mapping(_WORKSHOP_ID, keys=data.FIELD_IDS),
    admin=mapping(nullable(record(owner=SEAT_NO, round=integer(1, data.ROUNDS),
                                  phase=enum(*PHASES))),
                  keys=data.BENEFIT_IDS, complete=True),
    trade_slots=mapping(list_of(SEAT_NO), keys=data.TRADE_ACTIONS, complete=True),
    seats=list_of(SEAT, min_items=data.MIN_PLAYERS, max_items=data.MAX_PLAYERS),
    turn={"oneOf": [{"type": "null"}, _BONUS_TURN, _DIRECTIVE_TURN, _REGULATION_TURN]},
    final=nullable(FINAL),
    markets=mapping(record(tile=_MARKET_ID, spaces=list_of(nullable(SEAT_NO))),
                    keys=data.PROVINCES, complete=True),
    market_deck=list_of(_MARKET_ID), market_discard=list_of(_MARKET_ID),
    register=list_of(record(tile=nullable(_TILE_ID), merchant=nullable(SEAT_NO)),
                     len(data.SLOTS)),
    crop_deck=list_of(_TILE_ID), crop_discard=list_of(_TILE_ID),
    display=list_of(nullable(_WORKSHOP_ID), data.DISPLAY),
    workshop_deck=list_of(_WORKSHOP_ID),
    workshops=mapping(record(owner=SEAT_NO, province=enum(*data.PROVINCES),
                             fields=list_of(enum(*data.FIELD_IDS), data.BUILD_FIELDS,
                                            unique=True),
                             level=integer(1, data.MAX_LEVEL), goods=nat(), produced=nat()),
                      keys=data.WORKSHOP_TILES),
    port=list_of(record(ship=_SHIP_ID, slots=list_of(nullable(SEAT_NO))),
                 max_items=data.AT_PORT),
    ship_deck=list_of(_SHIP_ID), ships_sailed=list_of(_SHIP_ID),
)
"""Every key of the state, its type and range; `check` does the rest."""


def check(s, spec) -> None:
    """Raise InvalidState naming the path of the first field that breaks an invariant."""
    try:
        if spec.resolve_options(s["options"]) != s["options"]:
            raise state_error("$.options", "must name every option with a valid value")
    except InvalidOptions as err:
        raise state_error("$.options", err.message) from err
    players = s["players"]
    if len(s["seats"]) != players:
        raise state_error("$.seats", f"needs one seat per player ({players})")
    _check_seat_numbers(s, players)
    _check_cursor(s, players)
    _check_board(s)
    _check_decks(s)
    for seat, st in enumerate(s["seats"]):
        _check_seat(s, seat, st)


def _seat_refs(s):
    """(path, seat number) for every place the state names a seat."""
    yield from ((f"$.queue[{i}]", q) for i, q in enumerate(s["queue"]))
    if s["active"] is not None:
        yield "$.active", s["active"]
    yield from ((f"$.occupants.{k}.owner", v["owner"]) for k, v in s["occupants"].items())
    yield from ((f"$.admin.{k}.owner", v["owner"]) for k, v in s["admin"].items() if v)
    yield from ((f"$.trade_slots.{a}[{i}]", q) for a, taken in s["trade_slots"].items()
                for i, q in enumerate(taken))
    yield from ((f"$.register[{i}].merchant", r["merchant"]) for i, r in enumerate(s["register"])
                if r["merchant"] is not None)
    yield from ((f"$.workshops.{w}.owner", v["owner"]) for w, v in s["workshops"].items())
    yield from ((f"$.markets.{p}.spaces[{i}]", o) for p, m in s["markets"].items()
                for i, o in enumerate(m["spaces"]) if o is not None)
    yield from ((f"$.port[{i}].slots[{j}]", o) for i, p in enumerate(s["port"])
                for j, o in enumerate(p["slots"]) if o is not None)
    if s["turn"] is not None:
        yield "$.turn.seat", s["turn"]["seat"]


def _check_seat_numbers(s, players: int) -> None:
    for path, seat in _seat_refs(s):
        if seat >= players:
            raise state_error(path, f"seat {seat} does not exist with {players} players")


def _check_cursor(s, players: int) -> None:
    if s["stage"] not in STAGES[s["phase"]]:
        raise state_error("$.stage", f"stage {s['stage']!r} is not a stage of phase "
                                     f"{s['phase']!r}")
    if sorted(s["order"]) != list(range(players)):
        raise state_error("$.order", "must list every seat once")
    if s["phase"] == "over":
        if s["active"] is not None or s["final"] is None:
            raise state_error("$.final", "a finished game has final scores and no active seat")
    elif s["active"] is None or s["final"] is not None:
        raise state_error("$.active", "a game in progress has an active seat and no final scores")
    if s["final"] is not None and any(len(s["final"][k]) != players
                                      for k in ("scores", "ranks", "breakdown")):
        raise state_error("$.final", f"needs scores, ranks and breakdown for {players} seats")
    if s["phase"] == "directives" and s["turn_no"] >= data.TURNS * players:
        raise state_error("$.turn_no", f"at most {data.TURNS * players - 1} in phase directives")
    _check_turn(s)


_TURN_SHAPES = {"crop_tile": "slot", "act": "card", "step": "waived"}


def _check_turn(s) -> None:
    key = _TURN_SHAPES.get(s["stage"])
    turn = s["turn"]
    if key is None:
        if turn is not None:
            raise state_error("$.turn", f"stage {s['stage']!r} has no turn record")
        return
    if turn is None or key not in turn:
        raise state_error("$.turn", f"stage {s['stage']!r} needs its turn record")
    if turn["seat"] != s["active"]:
        raise state_error("$.turn.seat", "the turn record belongs to the active seat")


def _check_board(s) -> None:
    pairs = {(f, w) for w, shop in s["workshops"].items() for f in shop["fields"]}
    if set(s["covered"].items()) != pairs:
        raise state_error("$.covered", "covered Fields and Workshops disagree")
    for prov, market in s["markets"].items():
        if len(market["spaces"]) != len(data.MARKETS[market["tile"]]["spaces"]):
            raise state_error(f"$.markets.{prov}.spaces", f"tile {market['tile']} has "
                              f"{len(data.MARKETS[market['tile']]['spaces'])} spaces")
    for i, ship in enumerate(s["port"]):
        if len(ship["slots"]) != len(data.SHIPS[ship["ship"]]["goods"]):
            raise state_error(f"$.port[{i}].slots", f"ship {ship['ship']} has "
                              f"{len(data.SHIPS[ship['ship']]['goods'])} slots")


def _exactly_once(found: list, expected, path: str, what: str) -> None:
    counts = Counter(found)
    if set(counts) != set(expected) or any(c != 1 for c in counts.values()):
        raise state_error(path, f"every {what} must be in exactly one place")


def _check_decks(s) -> None:
    on_board = [m["tile"] for m in s["markets"].values()]
    _exactly_once(on_board + s["market_deck"] + s["market_discard"], data.MARKETS,
                  "$.market_deck", "Local Market tile")
    placed = list(s["tiles"].values())
    shown = [r["tile"] for r in s["register"] if r["tile"] is not None]
    _exactly_once(placed + shown + s["crop_deck"] + s["crop_discard"], data.CROP_TILES,
                  "$.crop_deck", "Crop tile")
    display = [t for t in s["display"] if t is not None]
    _exactly_once(display + s["workshop_deck"] + list(s["workshops"]), data.WORKSHOP_TILES,
                  "$.workshop_deck", "Workshop tile")
    _exactly_once([p["ship"] for p in s["port"]] + s["ship_deck"] + s["ships_sailed"],
                  data.SHIPS, "$.ship_deck", "Ship tile")


def _check_seat(s, seat: int, st) -> None:
    path = f"$.seats[{seat}]"
    cards = [c["card"] for c in st["cards"]]
    _exactly_once(st["deck"] + cards + st["gone"], range(len(data.CARDS)), f"{path}.deck",
                  f"Order card of seat {seat}")
    for action, card in st["spaces"].items():
        if card is not None and card not in cards:
            raise state_error(f"{path}.spaces.{action}", f"card {card} is not revealed")
    on_fields = sum(h["count"] for h in s["occupants"].values() if h["owner"] == seat)
    on_markets = sum(m["spaces"].count(seat) for m in s["markets"].values())
    if st["peasants"] + on_fields + on_markets != data.PEASANTS:
        raise state_error(f"{path}.peasants", f"seat {seat} Peasants do not add up to "
                                              f"{data.PEASANTS}")
    on_cards = sum(c["overseers"] for c in st["cards"])
    on_shops = sum(data.BUILD_OVERSEERS + (w["level"] - 1) * data.UPGRADE_OVERSEERS
                   for w in s["workshops"].values() if w["owner"] == seat)
    on_admin = sum(data.CORRUPT_OVERSEERS for t in s["admin"].values()
                   if t is not None and t["owner"] == seat)
    if st["overseers"] + on_cards + on_shops + on_admin != data.OVERSEERS:
        raise state_error(f"{path}.overseers", f"seat {seat} Overseers do not add up to "
                                               f"{data.OVERSEERS}")
