"""The round: A Exchange Rate, B Bonus and Turn Order, C Directives, D Regulation, E Maintenance.

Each `end_*` function closes one seat's turn or step and moves the cursor (phase, stage,
active seat) to the next decision, running the automatic phases (A, refills, E, scoring) on
the way. Chance comes from the match seed, one stream per event and round, so replays repeat;
with external chance (`referee.core.chance`) the die and every card drawn are supplied instead.
"""

from __future__ import annotations

from referee.core import Rng, chance
from referee.games.yinzi_ming import board, data, scoring
from referee.games.yinzi_ming.setup import reveal_cards


def dial_after(space: int, roll: int) -> int:
    """Phase A: above the marker one space clockwise, below one counterclockwise, else stay."""
    i = data.DIAL.index(space)
    if roll > space:
        i = (i + 1) % len(data.DIAL)
    elif roll < space:
        i = (i - 1) % len(data.DIAL)
    return data.DIAL[i]


def new_directive(seat: int, card: int, half: str, action: str | None, actions: int) -> dict:
    """The record of one Directive turn: what it may still do, and what it has spent."""
    return {"seat": seat, "card": card, "half": half, "action": action,
            "allowed": min(actions, data.MAX_ACTIONS), "used": 0, "moved": 0, "permit": 0,
            "yangtze": 0, "tile_bought": False, "refill_display": False,
            "refill_register": False}


def end_placement_turn(s) -> None:
    """Setup placements go in reverse turn order; after the last one, round 1 begins."""
    s["queue"].pop(0)
    if s["queue"]:
        s["active"] = s["queue"][0]
        return
    begin_round(s)


def begin_round(s) -> None:
    """Phase A (roll, move the marker), then phase B in the current turn order."""
    roll = chance.draw("die", range(1, data.DIE + 1),
                       lambda: Rng(s["seed"], "die", s["round"]).randint(1, data.DIE),
                       prompt={"round": s["round"]})
    s["roll"], s["dial"] = roll, dial_after(s["dial"], roll)
    s["phase"], s["stage"], s["turn"] = "bonus", "merchant", None
    s["queue"] = list(s["order"])
    s["active"] = s["queue"][0]


def end_bonus_turn(s) -> None:
    """Next Merchant; after the last: refill the register, set the new turn order, phase C."""
    s["turn"] = None
    s["queue"].pop(0)
    if s["queue"]:
        s["stage"], s["active"] = "merchant", s["queue"][0]
        return
    board.refill_register(s)
    s["order"] = [slot["merchant"] for slot in s["register"] if slot["merchant"] is not None]
    s["phase"], s["stage"], s["turn_no"] = "directives", "choose", 0
    s["active"] = s["order"][0]


def end_directive_turn(s) -> None:
    """End-of-turn refills, then the next seat in turn order; after 6 turns each, phase D."""
    turn = s["turn"]
    if turn["refill_display"]:
        board.refill_display(s)
    if turn["refill_register"]:
        board.refill_register(s)
    s["seats"][turn["seat"]]["turns"] += 1
    s["turn"] = None
    s["turn_no"] += 1
    if s["turn_no"] < data.TURNS * s["players"]:
        s["stage"], s["active"] = "choose", s["order"][s["turn_no"] % s["players"]]
        return
    s["phase"], s["stage"] = "regulation", "step"
    s["queue"] = list(s["order"])
    _begin_step(s)


def _begin_step(s) -> None:
    s["active"] = s["queue"][0]
    s["turn"] = {"seat": s["active"], "waived": False}


def end_regulation_step(s) -> None:
    """Next Regulation step; after the last: Maintenance and a new round, or final scoring."""
    s["queue"].pop(0)
    if s["queue"]:
        _begin_step(s)
        return
    s["turn"] = None
    if s["round"] >= data.ROUNDS:
        if not data.SKIP_LAST_MAINTENANCE:
            maintenance(s)
        finish(s)
        return
    maintenance(s)
    s["round"] += 1
    begin_round(s)


def finish(s) -> None:
    """Final scoring; no decision is pending afterwards."""
    s["final"] = scoring.final_scores(s)
    s["phase"], s["stage"], s["active"], s["queue"] = "over", None, None, []


def maintenance(s) -> None:
    """Phase E (completion 5.14): clear the markets, sail ships, return pieces, reveal cards."""
    _clear_markets(s)
    _sail_ships(s)
    for seat, seat_state in enumerate(s["seats"]):
        for card in seat_state["cards"]:
            seat_state["overseers"] += card["overseers"]
            seat_state["gone"].append(card["card"])
        seat_state["cards"] = []
        seat_state["spaces"] = {a: None for a in data.ACTIONS}
        seat_state["turns"] = 0
        reveal_cards(seat_state, seat)
    for slot in s["register"]:
        slot["merchant"] = None
    for shop in s["workshops"].values():
        shop["produced"] = 0
    s["trade_slots"] = {a: [] for a in data.TRADE_ACTIONS}


def _clear_markets(s) -> None:
    """Market Peasants go home; the tiles are discarded and 4 new ones drawn."""
    for prov in data.PROVINCES:
        market = s["markets"][prov]
        for owner in market["spaces"]:
            if owner is not None:
                s["seats"][owner]["peasants"] += 1
        s["market_discard"].append(market["tile"])
    for prov in data.PROVINCES:
        if not s["market_deck"]:
            s["market_deck"] = _reshuffled(s, "markets", s["market_discard"])
            s["market_discard"] = []
        tile = chance.take(s["market_deck"], "market_tile", prompt={"province": prov})
        s["markets"][prov] = {"tile": tile, "spaces": [None] * len(data.MARKETS[tile]["spaces"])}


def sails(s, ship: dict) -> bool:
    """Whether a Ship at the Port sails in Maintenance: when full, or (option `ships_sail`
    'loaded', the default since rules 3) as soon as it carries at least one Good."""
    loaded = sum(owner is not None for owner in ship["slots"])
    return loaded == len(ship["slots"]) or (s["options"]["ships_sail"] == "loaded" and loaded > 0)


def _sail_ships(s) -> None:
    """Ships that sail leave; the Port is refilled, reshuffling sailed Ships when the deck is
    empty."""
    staying = []
    for ship in s["port"]:
        if sails(s, ship):
            s["ships_sailed"].append(ship["ship"])
        else:
            staying.append(ship)
    while len(staying) < data.AT_PORT:
        if not s["ship_deck"]:
            if not s["ships_sailed"]:
                break
            s["ship_deck"] = _reshuffled(s, "ships", s["ships_sailed"])
            s["ships_sailed"] = []
        ship = chance.take(s["ship_deck"], "ship_tile", prompt={"place": len(staying)})
        staying.append({"ship": ship, "slots": [None] * len(data.SHIPS[ship]["goods"])})
    s["port"] = staying


def _reshuffled(s, deck: str, discards: list) -> list:
    """The discards shuffled into a new deck (not a chance event: the draws from it are)."""
    return chance.shuffled(discards, lambda: Rng(s["seed"], f"reshuffle:{deck}",
                                                 s["round"]).shuffled(discards))
