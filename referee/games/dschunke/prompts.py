"""The prompt of every Dschunke decision kind as JSON Schema (plain data, no I/O): what
`pending()[i].prompt` holds; GET /v1/games/dschunke and the bot protocol document show them."""

from __future__ import annotations

from referee.games.dschunke.data import GOODS

_COLOUR = {"type": "string", "enum": list(GOODS)}


def _closed(description: str, **properties) -> dict:
    """An object with exactly these properties, all required."""
    return {"type": "object", "description": description, "properties": properties,
            "required": list(properties), "additionalProperties": False}


def _int(description: str, minimum: int = 0) -> dict:
    return {"type": "integer", "minimum": minimum, "description": description}


_ROUND = _int("the round, 1 to 10 (1 during the set-up)", 1)

PROMPTS = {
    "place_merchant": _closed("set-up: place one merchant on a junk", round=_ROUND),
    "place_strip": _closed(
        "set-up: place one cargo strip on a junk",
        owner_seat=_int("whose strip you place (yours, or your right-hand neighbour's in the "
                        "set-up variant)"),
        held=_int("strips you still have to place, this one included", 1)),
    "trade_window": _closed("phase 1: trade goods cards with the bank, or pass", round=_ROUND),
    "trade": _closed("phase 1: a trade under way; swap cards or finish it",
                     swaps=_int("swaps still allowed in this trade")),
    "choose_stack": _closed("a special-card event: pick a stack of special cards to look "
                            "through", stacks={"type": "array", "items": _int("a stack index"),
                                               "description": "the stacks you may choose"}),
    "take_card": _closed("a special-card event: keep one card of the stack you look through",
                         stack=_int("the stack's index"),
                         cards={"type": "array", "items": {"type": "string"},
                                "description": "the stack's cards, sorted (only you see them)"}),
    "s_reward": _closed("the last round's S reward: take the yuan or a special card",
                        yuan=_int("yuan the reward pays")),
    "action": _closed("phase 2: your action (a merchant, an assistant, a special card) or "
                      "pass", round=_ROUND),
    "after_action": _closed("phase 2: after your action, play a card or end the turn",
                            round=_ROUND),
    "take_goods": _closed("phase 2: take goods from a junk, one card at a time",
                          junk={"type": "string", "description": "the junk you take from"},
                          left=_int("goods cards still to take", 1)),
    "relocate_merchant": _closed("phase 2: move a merchant to another junk", round=_ROUND),
    "resupply": _closed("phase 3: buy goods cards, or finish",
                        left=_int("cards you may still buy")),
    "bid": _closed(
        "phase 4, sealed: your stake in this colour's goods poker",
        goods={**_COLOUR, "description": "the colour bid for at this step"},
        step=_int("this bid's step, 1 to `of`", 1), of=_int("steps in all (the colours)", 1),
        open={"type": "array", "items": _COLOUR,
              "description": "colours of the market card not yet settled this round"},
        market=_closed("the market card: per colour its price in yuan, or \"S\" (a special "
                       "card instead)",
                       **{c: {"oneOf": [{"type": "integer", "minimum": 0},
                                        {"type": "string", "enum": ["S"]}]} for c in GOODS})),
}
"""Decision kind -> the JSON Schema of its prompt."""
