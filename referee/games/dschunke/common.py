"""Small helpers every phase uses: seat order, goods sources, special-card holdings."""

from __future__ import annotations

from referee.core.kit import rule_error
from referee.games.dschunke.data import ANY_JUNK, CARDS, GOODS, TWO_PLAYER


def seat_in_order(state: dict, index: int) -> int:
    """The seat at position `index` of this round's order (0 = the start player)."""
    return (state["start"] + index) % state["players"]


def hand_size(seat_state: dict) -> int:
    """How many goods cards a seat holds."""
    return sum(seat_state["hand"].values())


def resupply_count(seat_state: dict) -> int:
    """Goods cards a seat may take in phase 3: its resupply cards, base and special."""
    count = seat_state["resupply"]
    for record in seat_state["open"]:   # a loop, not a generator: every view asks, per seat
        card = CARDS[record["card"]]
        if card["effect"] == "resupply":
            count += card.get("cards", 0)
    return count


def holds_open(seat_state: dict, effect: str) -> bool:
    """True if the seat has a face-up card with this effect."""
    return any(CARDS[r["card"]]["effect"] == effect for r in seat_state["open"])


def play_card(state: dict, seat: int, kind: str) -> None:
    """Move one hidden card of `kind` from the seat's hand to its played (public) cards."""
    seat_state = state["seats"][seat]
    for i, record in enumerate(seat_state["cards"]):
        if record["card"] == kind:
            seat_state["played"].append(seat_state["cards"].pop(i))
            return
    raise rule_error("special_card", f"seat {seat} holds no {kind!r} card")


# -- goods on the junks -----------------------------------------------------------------

def goods_sources(state: dict) -> list[tuple[str, str]]:
    """Every (goods, junk) a card can be taken from now: coloured junks, then the 2p store."""
    sources = [(g, g) for g in GOODS if state["supply"][g] > 0]
    store = state["store"]
    if store is not None:
        sources += [(g, ANY_JUNK) for g in GOODS if store[g] > 0]
    return sources


def source_available(state: dict, goods: str, junk: str) -> bool:
    """True if a `goods` card can be taken from `junk` now."""
    if junk == goods:
        return state["supply"][goods] > 0
    if junk == ANY_JUNK and state["store"] is not None:
        return state["store"][goods] > 0
    return False


def describe_source(goods: str, junk: str) -> str:
    """Words for a goods source, for error messages."""
    return f"{goods} from the {'general store on the ' if junk != goods else ''}{junk} junk"


def take_card_from(state: dict, seat: int, goods: str, junk: str) -> None:
    """Move one goods card from its pile on `junk` into the seat's hand."""
    pile = state["supply"] if junk == goods else state["store"]
    pile[goods] -= 1
    state["seats"][seat]["hand"][goods] += 1
    refill_store(state)


def return_cards(state: dict, goods: str, count: int) -> None:
    """Put cards back on the junk of their colour."""
    state["supply"][goods] += count
    refill_store(state)


def refill_store(state: dict) -> None:
    """2-player variant: an empty general store is refilled at once with 3 of each type."""
    store = state["store"]
    if store is None or any(store.values()):
        return
    for g in GOODS:
        moved = min(TWO_PLAYER["store_refill_per_type"], state["supply"][g])
        state["supply"][g] -= moved
        store[g] += moved
