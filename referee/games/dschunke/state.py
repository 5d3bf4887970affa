"""The stored state: a plain JSON-able dict; `check` validates one loaded from storage."""

from __future__ import annotations

from collections import Counter

from referee.core import InvalidState
from referee.games.dschunke.board import strips_of
from referee.games.dschunke.data import (GOODS, JUNKS, LAYER, MARKET, MERCHANTS, PER_TYPE,
                                         ROUNDS, STACKS, STRIPS, special_deck)

KEYS = {"players", "options", "seed", "colours", "round", "phase", "start", "market", "junks",
        "merchants", "hidden_merchants", "assistants", "seats", "supply", "store", "stacks",
        "clock", "announced", "poker", "stage"}
SEAT_KEYS = {"cash", "hand", "strips", "resupply", "cards", "open", "played", "looks"}
STAGES = {"place_merchant", "place_strip", "trade_window", "trade", "s_event", "action",
          "resupply", "bid", "s_reward", "over"}
_DECK = Counter(special_deck())


def check(data) -> None:
    """Raise InvalidState with the reason unless `data` is a consistent Dschunke state."""
    try:
        _check(data)
    except InvalidState:
        raise
    except (KeyError, TypeError, AttributeError, ValueError, IndexError) as err:
        raise InvalidState(f"invalid dschunke state: malformed ({type(err).__name__}: {err})")


def _check(data) -> None:
    _need(isinstance(data, dict) and set(data) == KEYS,
          f"a dschunke state has exactly the keys {sorted(KEYS)}")
    players = data["players"]
    _need(isinstance(players, int) and 2 <= players <= 4, "players must be 2-4")
    _need(isinstance(data["seats"], list) and len(data["seats"]) == players
          and len(data["colours"]) == players, "seats and colours need one entry per player")
    _need(1 <= data["round"] <= ROUNDS and 0 <= data["start"] < players,
          "round or start player out of range")
    _need(isinstance(data["stage"], dict) and data["stage"].get("kind") in STAGES,
          f"stage kind must be one of {sorted(STAGES)}")
    for seat in data["seats"]:
        _need(isinstance(seat, dict) and set(seat) == SEAT_KEYS,
              f"a seat has exactly the keys {sorted(SEAT_KEYS)}")
        _need(isinstance(seat["cash"], int) and seat["cash"] >= 0, "cash must be >= 0")
    _check_board(data)
    _check_goods(data)
    _check_cards(data)
    _check_market(data)


def _need(condition: bool, reason: str) -> None:
    if not condition:
        raise InvalidState(f"invalid dschunke state: {reason}")


def _check_board(data: dict) -> None:
    _need(set(data["junks"]) == set(JUNKS), f"junks must be {list(JUNKS)}")
    for junk, info in data["junks"].items():
        layers = info["layers"]
        _need(all(len(layer) == LAYER for layer in layers[:-1])
              and all(0 < len(layer) <= LAYER for layer in layers),
              f"junk {junk}: every layer but the top holds {LAYER} strips")
        _need(all(0 <= o < data["players"] for layer in layers for o in layer),
              f"junk {junk}: strip owner out of range")
    for seat, info in enumerate(data["seats"]):
        aboard = sum(strips_of(data["junks"][j]["layers"], seat) for j in JUNKS)
        _need(aboard + info["strips"] == STRIPS,
              f"seat {seat}: {aboard} strips aboard + {info['strips']} left != {STRIPS}")
    _need(set(data["merchants"]) == set(MERCHANTS), f"merchants must be {sorted(MERCHANTS)}")
    spots = [m["junk"] for m in data["merchants"].values() if m["junk"] is not None]
    _need(len(spots) == len(set(spots)) and set(spots) <= set(JUNKS),
          "merchants stand on distinct junks")


def _check_goods(data: dict) -> None:
    total = Counter(data["supply"]) + Counter(data["store"] or {})
    for seat in data["seats"]:
        _need(set(seat["hand"]) == set(GOODS) and all(
            isinstance(n, int) and n >= 0 for n in seat["hand"].values()),
            "a hand counts each goods colour, never below 0")
        total += Counter(seat["hand"])
    poker = data["poker"]
    if poker is not None:
        for entry in poker["bids"]:
            if entry is not None:
                total += Counter(entry["stake"])
    _need(all(n >= 0 for n in list(data["supply"].values()) + list((data["store"] or {}).values())),
          "goods piles never below 0")
    _need(all(total[g] == PER_TYPE for g in GOODS) and set(total) <= set(GOODS),
          f"there are {PER_TYPE} goods cards of each colour, found {dict(total)}")


def _check_cards(data: dict) -> None:
    _need(len(data["stacks"]) == STACKS, f"there are {STACKS} special-card stacks")
    found = Counter(card for stack in data["stacks"] for card in stack)
    for seat in data["seats"]:
        _need(len(seat["looks"]) == STACKS, "looks: one list per stack")
        for record in seat["cards"] + seat["open"] + seat["played"]:
            found[record["card"]] += 1
    _need(found == _DECK, "the special cards must be exactly the 30 of the deck")


def _check_market(data: dict) -> None:
    market = data["market"]
    cards = market["deck"] + market["seen"]
    _need(sorted(cards) == list(range(len(MARKET))), "market deck + played cards = all cards")
    _need(market["card"] is None or market["card"] == market["seen"][-1],
          "the current market card is the last one turned over")
    _need(set(market["settled"]) <= set(GOODS), "settled colours must be goods colours")
