"""Set-up (completion 5.2): seating, starting resources, shuffled decks, the first placements."""

from __future__ import annotations

from referee.core import Rng
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


def reveal_cards(seat_state: dict) -> None:
    """Turn up the top Order cards of a player's deck (3 each round)."""
    for _ in range(data.REVEALED):
        if seat_state["deck"]:
            card = seat_state["deck"].pop(0)
            seat_state["cards"].append({"card": card, "top": False, "bottom": False,
                                        "overseers": 0})


def _decks(seed: int) -> dict:
    """Every shared deck, shuffled from its own stream of the match seed."""
    markets = Rng(seed, "deck:markets").shuffled(sorted(data.MARKETS))
    crops = Rng(seed, "deck:crops").shuffled(sorted(data.CROP_TILES))
    shops = Rng(seed, "deck:workshops").shuffled(sorted(data.WORKSHOP_TILES))
    ships = Rng(seed, "deck:ships").shuffled(sorted(data.SHIPS))
    n_prov, n_reg = len(data.PROVINCES), len(data.SLOTS)
    return {
        "markets": {p: {"tile": markets[i], "spaces": [None] * len(data.MARKETS[markets[i]]
                                                                   ["spaces"])}
                    for i, p in enumerate(data.PROVINCES)},
        "market_deck": markets[n_prov:], "market_discard": [],
        "register": [{"tile": crops[i] if i < len(crops) else None, "merchant": None}
                     for i in range(n_reg)],
        "crop_deck": crops[n_reg:], "crop_discard": [],
        "display": shops[:data.DISPLAY], "workshop_deck": shops[data.DISPLAY:],
        "workshops": {},
        "port": [{"ship": sid, "slots": [None] * len(data.SHIPS[sid]["goods"])}
                 for sid in ships[:data.AT_PORT]],
        "ship_deck": ships[data.AT_PORT:], "ships_sailed": [],
    }


def setup(players: int, options: dict, seed: int) -> dict:
    """The state before the first placements: random turn order, resources, decks shuffled."""
    order = Rng(seed, "seating").shuffled(range(players))
    seats = [new_seat(Rng(seed, f"deck:orders:{p}").shuffled(range(len(data.CARDS))))
             for p in range(players)]
    for seat in seats:
        reveal_cards(seat)
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
