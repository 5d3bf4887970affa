"""Dschunke moves in words: `swap give=white take=orange junk=orange` -> `Trade Goods: give
back 1 white card, take 1 orange card from the orange junk`."""

from __future__ import annotations

SPECIAL = {"move_strip": "Move Cargo Strip", "resupply": "Resupply",
           "tie_breaker": "Tie Breaker", "trade_goods": "Trade Goods"}
"""Special cards named by their id alone; bonus_*, extra_sell_*, extra_take_* are built."""


def card_name(card) -> str:
    """A special card: `extra_sell_lilac` -> `Extra Action: sell lilac`."""
    card = str(card)
    if card in SPECIAL:
        return SPECIAL[card]
    for prefix, name in (("bonus_", "Bonus {}"), ("extra_sell_", "Extra Action: sell {}"),
                         ("extra_take_", "Extra Action: take {}")):
        if card.startswith(prefix):
            return name.format(card[len(prefix):])
    return card.replace("_", " ")


def _store(move: dict) -> str:
    """Where a goods card comes from, when it is not the junk of its own colour."""
    return "" if move.get("goods") == move.get("junk") else f" from the {move.get('junk')} store"


def describe(move: dict) -> str | None:
    """The move in words, or None for a type this table does not know."""
    kind, m = move.get("type"), move
    words = {
        "place_merchant": lambda: f"put the next face-down merchant on the {m.get('junk')} junk",
        "place_strip": lambda: f"place your held cargo strip on the {m.get('junk')} junk",
        "trade_goods": lambda: "play a Trade Goods card (then swap 1 or 2 goods cards)",
        "pass": lambda: "pass",
        "swap": lambda: (f"Trade Goods: give back 1 {m.get('give')} card, take 1 "
                         f"{m.get('take')} card from the {m.get('junk')} junk"),
        "done": lambda: "done (end your trade, turn or resupply)",
        "choose_stack": lambda: f"look through special-card stack {m.get('stack')}",
        "take_card": lambda: f"keep the {card_name(m.get('card'))} card",
        "s_reward": lambda: ("take 3 yuan" if m.get("choice") == "yuan"
                             else "take a special card"),
        "merchant": lambda: f"use the {m.get('merchant')} merchant's action",
        "assistant": lambda: (f"use the {m.get('assistant')} assistant's action on the "
                              f"{m.get('junk')} junk"),
        "take_goods": lambda: f"take 1 {m.get('goods')} card{_store(m)}",
        "resupply": lambda: f"resupply 1 {m.get('goods')} card{_store(m)}",
        "move_strip": lambda: (f"move the strip of seat {m.get('owner_seat')} from the "
                               f"{m.get('from')} junk to the {m.get('to')} junk"),
        "extra_action": lambda: f"play {card_name(m.get('card'))}",
        "relocate_merchant": lambda: (f"move the merchant you used to the {m.get('junk')} "
                                      f"junk"),
        "bid": lambda: (f"bid {m.get('count')} {m.get('goods')}" if m.get("count")
                        else f"bid no {m.get('goods')}"),
    }
    return words[kind]() if kind in words else None
