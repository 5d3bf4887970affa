"""The prompt of every Yinzi: Ming decision kind as JSON Schema (plain data, no I/O): what
`pending()[i].prompt` holds; GET /v1/games/yinzi-ming and the bot protocol document show them."""

from __future__ import annotations


def _closed(description: str, **properties) -> dict:
    """An object with exactly these properties, all required."""
    return {"type": "object", "description": description, "properties": properties,
            "required": list(properties), "additionalProperties": False}


def _int(description: str, minimum: int = 0) -> dict:
    return {"type": "integer", "minimum": minimum, "description": description}


_ROUND = _int("the round, from 1", 1)


def _turn(description: str, action: dict) -> dict:
    """A Directive turn under way: its card, half, action and what is left of it."""
    return _closed(description, card=_int("the Order card played"),
                   half={"type": "string", "enum": ["top", "bottom"],
                         "description": "top: a Command Directive; bottom: a Trade Directive"},
                   action=action,
                   actions_left=_int("actions this Directive still allows"),
                   transport_left=_int("Transport points you may still spend this turn"))


COMMANDS = ("transport", "deploy", "sell", "build", "corrupt")
"""The Command action spaces (game.COMMAND_MOVES), one decision kind `command:<action>` each."""

PROMPTS = {
    "start_peasants": _closed("set-up: place your two starting Peasants", round=_ROUND),
    "merchant": _closed("phase B: put your Merchant on an empty Bonus register slot",
                        round=_ROUND),
    "crop_tile": _closed("phase B: buy the Crop tile beside your Merchant, or decline",
                         slot=_int("the register slot (1 = top)", 1),
                         tile={"type": "string", "description": "the Crop tile on offer"}),
    "directive": _closed("phase C: choose a Directive (a half of a revealed Order card)",
                         round=_ROUND),
    "trade": _turn("phase C: a Trade Directive under way",
                   {"type": "null", "description": "null: a Trade Directive has no action "
                                                   "space"}),
    **{f"command:{action}": _turn(f"phase C: a Command Directive on the {action} space",
                                  {"type": "string", "enum": [action],
                                   "description": "the action space the card is under"})
       for action in COMMANDS},
    "regulation": _closed("the Regulation step: exchange, use a benefit, then pay your tax (done)",
                          tax_owed=_int("the tax you will pay when you finish")),
}
"""Decision kind -> the JSON Schema of its prompt."""
