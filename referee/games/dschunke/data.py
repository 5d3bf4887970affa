"""Dschunke's data tables from seeds/dschunke/, untagged: rules code reads values only here."""

from __future__ import annotations

from referee.core.seeds import load_table, untag

NAME = "dschunke"


def _table(filename: str):
    return untag(load_table(NAME, filename))


BOARD = _table("board.json")
SETUP = _table("setup.json")
MARKET = _table("market.json")["cards"]


def market_id(card: int) -> str:
    """A market card's id: what is printed on it, goods by goods in GOODS order (initial and
    value, S for a special card), e.g. "W1B2LSO4": a dealer reads it off the card."""
    return "".join(goods[0].upper() + str(MARKET[card][goods]) for goods in GOODS)
SPECIALS = _table("special_cards.json")
SCORING = _table("scoring.json")

JUNKS: tuple[str, ...] = tuple(BOARD["junks"])
"""The five junks in clockwise ring order (merchants move one step along it each round)."""
GOODS: tuple[str, ...] = tuple(BOARD["goods"])
"""The four goods colours, each lying on the junk of that colour; also the bid order."""
ANY_JUNK: str = BOARD["any_goods_junk"]
"""The junk without goods of its own, where a take may choose any type."""
LAYER = BOARD["cargo"]["layer_size"]
CRATES = BOARD["cargo"]["crates_per_strip"]
STRIPS = BOARD["cargo"]["strips_per_player"]
ACTIONS: dict = BOARD["actions"]
MERCHANTS: dict = BOARD["merchants"]
"""The three merchants, named by the action each carries out: load, take, sell."""
MERCHANT_ORDER: tuple[str, ...] = tuple(MERCHANTS)
"""The merchants in table order: the order moves list them in (stable across storage)."""
TRACKS: dict = {name: {"players": t["players"], "spaces": t["spaces"]}
                for name, t in BOARD["tracks"].items()}
EVENTS: list = BOARD["events"]
ROUNDS: int = BOARD["rounds"]
PER_TYPE: int = SETUP["goods_per_type"]
TWO_PLAYER: dict = SETUP["two_player"]

CARDS: dict = SPECIALS["cards"]
"""Special card kinds: count, effect, timing and parameters."""
OPEN_TIMINGS = tuple(SPECIALS["open_timings"])
STACK_SIZES: list = SPECIALS["stacks"]
STACKS = len(STACK_SIZES)


def next_junk(junk: str) -> str:
    """The junk after `junk`, clockwise."""
    return JUNKS[(JUNKS.index(junk) + 1) % len(JUNKS)]


def is_open_card(kind: str) -> bool:
    """True for cards laid face up when taken (permanent effects)."""
    return CARDS[kind]["timing"] in OPEN_TIMINGS


def special_deck() -> list[str]:
    """All special cards by kind, in table order (one entry per copy)."""
    return [kind for kind, card in CARDS.items() for _ in range(card["count"])]


def tracks_in_play(players: int) -> list[str]:
    """The assistant tracks used with this many players."""
    return [name for name, t in TRACKS.items() if players in t["players"]]
