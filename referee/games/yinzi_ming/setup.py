"""Set-up (completion 5.2): seating, starting resources, shuffled decks, the first placements.

Every random event goes through `referee.core.chance` (its docstring is the contract): with
internal chance the seeded shuffles and draws are exactly those of before; with external chance
a deck is an unordered (sorted) collection and each card turned face up is a chance event.
The events, all public (owner None: every card is turned face up), with equal probabilities:
`seating` (a permutation of the seats), `order_card` (a card id of that seat's deck; 3 per seat
here and in each Maintenance), `market_tile`, `crop_tile`, `workshop_tile`, `ship_tile` (a tile
id of that deck; here, in the refills and in Maintenance) and `die` (1-6, phase A).
"""

from __future__ import annotations

from itertools import permutations

from referee.core import Rng, chance
from referee.games.yinzi_ming import data


def new_seat(deck: list[int]) -> dict:
    """One player's starting holdings, with their shuffled Order deck and nothing revealed."""
    start = data.START
    return {
        "sapeques": start["sapeques"], "yinzi": start["yinzi"], "stone": start["stone"],
        "ambassador": start["ambassador"], "peasants": data.PEASANTS,
        "overseers": data.OVERSEERS, "ship_vp": 0, "tax_vp": 0,
        "deck": deck, "cards": [], "gone": [], "spaces": {a: None for a in data.ACTIONS},
        "turns": 0,
    }


def reveal_cards(seat_state: dict, seat: int) -> None:
    """Turn up the top Order cards of a player's deck (3 each round): face up, for everyone."""
    for _ in range(data.REVEALED):
        if seat_state["deck"]:
            card = chance.take(seat_state["deck"], "order_card", prompt={"seat": seat})
            seat_state["cards"].append({"card": card, "top": False, "bottom": False,
                                        "overseers": 0})


def deck(seed: int, name: str, items) -> list:
    """A shuffled deck from its own stream of the match seed (external chance: sorted)."""
    cards = sorted(items)
    return chance.shuffled(cards, lambda: Rng(seed, name).shuffled(cards))


def deal(cards: list, kind: str, count: int, about: str, first: int = 0) -> list:
    """Turn up to `count` cards face up from the top of `cards`, one chance event each (the
    prompt numbers the places `about` from `first`)."""
    return [chance.take(cards, kind, prompt={about: first + i})
            for i in range(min(count, len(cards)))]


def _decks(seed: int) -> dict:
    """Every shared deck, shuffled from its own stream of the match seed, and its first cards
    laid out: a Market per Province, the register, the Workshop display, the Port."""
    markets = deck(seed, "deck:markets", data.MARKETS)
    crops = deck(seed, "deck:crops", data.CROP_TILES)
    shops = deck(seed, "deck:workshops", data.WORKSHOP_TILES)
    ships = deck(seed, "deck:ships", data.SHIPS)
    laid = {p: chance.take(markets, "market_tile", prompt={"province": p})
            for p in data.PROVINCES}
    register = deal(crops, "crop_tile", len(data.SLOTS), "slot", 1)
    display = deal(shops, "workshop_tile", data.DISPLAY, "place")
    port = deal(ships, "ship_tile", data.AT_PORT, "place")
    return {
        "markets": {p: {"tile": t, "spaces": [None] * len(data.MARKETS[t]["spaces"])}
                    for p, t in laid.items()},
        "market_deck": markets, "market_discard": [],
        "register": [{"tile": register[i] if i < len(register) else None, "merchant": None}
                     for i in range(len(data.SLOTS))],
        "crop_deck": crops, "crop_discard": [],
        "display": display, "workshop_deck": shops,
        "workshops": {},
        "port": [{"ship": sid, "slots": [None] * len(data.SHIPS[sid]["goods"])}
                 for sid in port],
        "ship_deck": ships, "ships_sailed": [],
    }


def seating(seed: int, players: int) -> list[int]:
    """The random first turn order: one chance event, any order of the seats equally likely."""
    outcome = chance.draw("seating", lambda: [list(p) for p in permutations(range(players))],
                          lambda: Rng(seed, "seating").shuffled(range(players)))
    return list(outcome)


def setup(players: int, options: dict, seed: int) -> dict:
    """The state before the first placements: random turn order, resources, decks shuffled."""
    order = seating(seed, players)
    seats = [new_seat(deck(seed, f"deck:orders:{p}", range(len(data.CARDS))))
             for p in range(players)]
    for seat, seat_state in enumerate(seats):
        reveal_cards(seat_state, seat)
    state = {
        "players": players, "options": dict(options), "seed": seed,
        "round": 1, "phase": "placement", "stage": "place",
        "order": order, "queue": list(reversed(order)), "active": order[-1], "turn_no": 0,
        "dial": data.DIAL_START, "roll": None, "occupants": {}, "tiles": {}, "covered": {},
        "admin": {b: None for b in data.BENEFIT_IDS},
        "trade_slots": {a: [] for a in data.TRADE_ACTIONS},
        "seats": seats, "turn": None, "final": None,
    }
    state.update(_decks(seed))
    return state
