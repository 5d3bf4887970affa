"""The stored state: a plain JSON-able dict, its schema, and the invariants a schema cannot say."""

from __future__ import annotations

from collections import Counter

from referee.core.schema import first_error
from referee.core.statecheck import (boolean, enum, integer, list_of, mapping, nat, nullable,
                                     record, state_error)
from referee.games.dschunke.board import strips_of
from referee.games.dschunke.data import (CARDS, GOODS, JUNKS, LAYER, MARKET, MERCHANT_ORDER,
                                         MERCHANTS,
                                         PER_TYPE, ROUNDS, SETUP, STACKS, STRIPS, TRACKS,
                                         special_deck, tracks_in_play)

_SEAT_NO = nat(3)
_STACK = nat(STACKS - 1)
_GOODS = enum(*GOODS)
_JUNK = enum(*JUNKS)
_MERCHANT = enum(*MERCHANT_ORDER)
_COUNTS = mapping(nat(PER_TYPE), keys=GOODS, complete=True)
_STAKE = mapping(integer(1, PER_TYPE), keys=GOODS)
_RECORD = record(card=enum(*sorted(CARDS)), stack=_STACK, at=nat(), round=nat(ROUNDS))
"""A special card held: which, from which stack, at which moment and round (0: before play)."""
_SEAT = record(cash=nat(), hand=_COUNTS, strips=nat(STRIPS), resupply=nat(),
               cards=list_of(_RECORD), open=list_of(_RECORD), played=list_of(_RECORD),
               looks=list_of(list_of(nat()), STACKS))
_REVEAL = record(round=integer(1), bids=list_of(nullable(record(stake=_STAKE, valid=boolean()))),
                 winners=mapping(list_of(_SEAT_NO, min_items=1), keys=GOODS),
                 paid=list_of(nat()), s_winner=nullable(_SEAT_NO), settled=list_of(_GOODS),
                 any_valid=boolean())
_POKER = record(round=nat(), bids=list_of(nullable(record(steps=nat(len(GOODS)), stake=_STAKE))),
                reveal=nullable(_REVEAL))
_COLOURS = sorted({c for colours in SETUP["colours"].values() for c in colours})

STATE = record(
    players=integer(2, 4), seed=integer(),
    options=record(two_player_variant=boolean(), setup_variant=boolean(),
                   load_single_last_strip=boolean(), s_tie_settles=boolean()),
    colours=list_of(enum(*_COLOURS), min_items=2, max_items=4),
    round=integer(1, ROUNDS), phase=integer(0, 4), start=_SEAT_NO,
    market=record(deck=list_of(nat(len(MARKET) - 1)), card=nullable(nat(len(MARKET) - 1)),
                  settled=list_of(_GOODS, unique=True), seen=list_of(nat(len(MARKET) - 1))),
    junks=record(**{j: record(layers=list_of(list_of(_SEAT_NO, min_items=1, max_items=LAYER)))
                    for j in JUNKS}),
    merchants=record(**{m: record(junk=nullable(_JUNK), used=boolean())
                        for m in MERCHANT_ORDER}),
    hidden_merchants=nullable(list_of(_MERCHANT, len(MERCHANTS), unique=True)),
    assistants=mapping(record(used=boolean()), keys=sorted(TRACKS)),
    seats=list_of(_SEAT, min_items=2, max_items=4),
    supply=_COUNTS, store=nullable(_COUNTS),
    stacks=list_of(list_of(enum(*sorted(CARDS))), STACKS),
    clock=nat(), announced=nullable(record(round=integer(1, ROUNDS), cash=list_of(nat()))),
    poker=nullable(_POKER), last_poker=nullable(record(round=integer(1, ROUNDS), reveal=_REVEAL)),
    reveals=nat(),
    stage={"type": "object", "properties": {"kind": enum(*sorted(
        ("place_merchant", "place_strip", "trade_window", "trade", "s_event", "action",
         "resupply", "bid", "s_reward", "over")))}, "required": ["kind"]},
)
"""The shape of a stored Dschunke state; `check` adds what depends on the player count."""

_I = nat(3)
_MAX_SWAPS = CARDS["trade_goods"]["max_swaps"]
STAGES = {
    "place_merchant": record(kind=enum("place_merchant")),
    "place_strip": record(kind=enum("place_strip"), i=nat(), held=list_of(nat())),
    "trade_window": record(kind=enum("trade_window"), i=_I),
    "trade": record(kind=enum("trade"), i=_I, swaps=nat(_MAX_SWAPS - 1)),
    "s_event": record(kind=enum("s_event"), event=nat(), i=_I, chosen=list_of(_STACK),
                      looking=nullable(_STACK)),
    "action": record(kind=enum("action"), i=_I, acted=boolean(),
                     take=nullable(record(junk=_JUNK, left=integer(1))),
                     relocate=nullable(_MERCHANT)),
    "resupply": record(kind=enum("resupply"), i=_I, left=integer(1)),
    "bid": record(kind=enum("bid")),
    "s_reward": record(kind=enum("s_reward"), seat=_SEAT_NO, step=enum("choose", "stack",
                                                                        "take"),
                       looking=nullable(_STACK)),
    "over": record(kind=enum("over")),
}
"""The shape of each kind of stage (what is being decided now)."""
_DECK = Counter(special_deck())


def check(data: dict) -> None:
    """Raise InvalidState (with the JSON path) unless the schema-valid `data` is consistent."""
    players = data["players"]
    two = data["options"]["two_player_variant"]
    if (players == 2) != two:
        raise state_error("$.players", "2 players play exactly with two_player_variant")
    _check_stage(data["stage"], players)
    for key in ("seats", "colours"):
        if len(data[key]) != players:
            raise state_error(f"$.{key}", f"needs one entry per player ({players})")
    if data["colours"] != SETUP["colours"][str(players)]:
        raise state_error("$.colours", f"are {SETUP['colours'][str(players)]} with {players}")
    if data["start"] >= players:
        raise state_error("$.start", f"seat {data['start']} is not at this table")
    tracks = [] if two else tracks_in_play(players)
    if sorted(data["assistants"]) != sorted(tracks):
        raise state_error("$.assistants", f"the assistants in play are {tracks}")
    if (data["store"] is None) == two:
        raise state_error("$.store", "the general store exists exactly in the 2-player variant")
    _check_board(data)
    _check_goods(data)
    _check_cards(data)
    _check_market(data)
    _check_poker(data)


def _check_stage(stage: dict, players: int) -> None:
    problem = first_error(stage, STAGES[stage["kind"]], "$.stage")
    if problem is not None:
        path, reason = problem.split(": ", 1)
        raise state_error(path, reason)
    for key in ("i", "seat"):
        if stage["kind"] != "place_strip" and stage.get(key, 0) >= players:
            raise state_error(f"$.stage.{key}", f"{stage[key]} is not a seat position here")
    if stage["kind"] == "place_strip" and len(stage["held"]) != players:
        raise state_error("$.stage.held", "needs one entry per player")


def _check_board(data: dict) -> None:
    players = data["players"]
    for junk, info in data["junks"].items():
        layers = info["layers"]
        for k, layer in enumerate(layers):
            path = f"$.junks.{junk}.layers[{k}]"
            if k < len(layers) - 1 and len(layer) != LAYER:
                raise state_error(path, f"every layer but the top holds {LAYER} strips")
            if layer != sorted(layer) or max(layer) >= players:
                raise state_error(path, "owners are sorted seats of this table")
    for seat, info in enumerate(data["seats"]):
        aboard = sum(strips_of(data["junks"][j]["layers"], seat) for j in JUNKS)
        if aboard + info["strips"] != STRIPS:
            raise state_error(f"$.seats[{seat}].strips", f"{aboard} strips aboard + "
                              f"{info['strips']} left != {STRIPS}")
    hidden = data["hidden_merchants"]
    spots = [m["junk"] for m in data["merchants"].values() if m["junk"] is not None]
    if len(spots) != len(set(spots)):
        raise state_error("$.merchants", "merchants stand on distinct junks")
    if hidden is None and len(spots) != len(MERCHANTS):
        raise state_error("$.merchants", "every merchant stands on a junk once revealed")


def _check_goods(data: dict) -> None:
    total = Counter(data["supply"]) + Counter(data["store"] or {})
    for seat in data["seats"]:
        total += Counter(seat["hand"])
    poker = data["poker"]
    for entry in poker["bids"] if poker is not None else ():
        if entry is not None:
            total += Counter(entry["stake"])
    for goods in GOODS:
        if total[goods] != PER_TYPE:
            raise state_error(f"$.supply.{goods}", f"there are {PER_TYPE} {goods} goods cards, "
                              f"found {total[goods]}")


def _check_cards(data: dict) -> None:
    found = Counter(card for stack in data["stacks"] for card in stack)
    moments = []
    for seat in data["seats"]:
        for held in seat["cards"] + seat["open"] + seat["played"]:
            found[held["card"]] += 1
            moments.append(held["at"])
    if found != _DECK:
        raise state_error("$.stacks", "the special cards must be exactly the 30 of the deck")
    if sorted(moments) != list(range(data["clock"])):
        raise state_error("$.clock", "counts the special cards taken, each at its own moment")


def _check_market(data: dict) -> None:
    market = data["market"]
    if sorted(market["deck"] + market["seen"]) != list(range(len(MARKET))):
        raise state_error("$.market.deck", "market deck + played cards = all cards")
    if market["card"] != (market["seen"][-1] if market["seen"] else None):
        raise state_error("$.market.card", "the current market card is the last turned over")
    if len(market["seen"]) > data["round"]:
        raise state_error("$.market.seen", "one market card is turned over each round")


def _check_poker(data: dict) -> None:
    poker, players = data["poker"], data["players"]
    if data["stage"]["kind"] == "bid" and poker is None:
        raise state_error("$.poker", "the goods poker is on while bids are asked")
    if poker is not None:
        if len(poker["bids"]) != players:
            raise state_error("$.poker.bids", "needs one entry per player")
    for path, reveal in (("$.poker.reveal", poker and poker["reveal"]),
                         ("$.last_poker.reveal", (data["last_poker"] or {}).get("reveal"))):
        for key in ("bids", "paid"):
            if reveal is not None and len(reveal[key]) != players:
                raise state_error(f"{path}.{key}", "needs one entry per player")
    announced = data["announced"]
    if announced is not None and len(announced["cash"]) != players:
        raise state_error("$.announced.cash", "needs one entry per player")
