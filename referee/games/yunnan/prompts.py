"""The prompt of every Yunnan decision kind as JSON Schema (plain data, no I/O): what
`pending()[i].prompt` holds; GET /v1/games/yunnan and the bot protocol document show them."""

from __future__ import annotations

from referee.games.yunnan.data import PROVINCES

_BASE = {
    "phase": {"type": "string", "enum": ["bidding", "resolution", "travel", "convert"],
              "description": "the round's phase"},
    "round": {"type": "integer", "minimum": 1, "description": "the round, from 1"},
}
_PROVINCE = {"type": "string", "enum": list(PROVINCES)}


def _prompt(description: str, **extra) -> dict:
    """`phase` and `round`, plus what this step is about; every property required."""
    properties = {**_BASE, **extra}
    return {"type": "object", "description": description, "properties": properties,
            "required": list(properties), "additionalProperties": False}


_PASSES = {"type": "integer", "minimum": 0,
           "description": "province passes you may still cross this turn"}

PROMPTS = {
    "bid": _prompt("bidding: place a trader (a building space, the Bank, the Market) or pass"),
    "resolve": _prompt("resolution: resolve one of your traders' spaces"),
    "block": _prompt("resolution: place the Gorge Blocker across a gorge (Dianmu Temple)"),
    "yard": _prompt("resolution: take structures from the Building Yard",
                    structures_to_take={"type": "integer", "minimum": 1,
                                        "description": "structures still to take"}),
    "travel": _prompt("Build & Travel: build a structure, move a trader one border, or end the turn", passes_left=_PASSES),
    "journey": _prompt("Build & Travel: a journey is under way; step on or stop",
                       passes_left=_PASSES,
                       at={**_PROVINCE, "description": "the province the trader is in"}),
    "displace": _prompt("Build & Travel: the journey ended; displace a trader there, or nobody",
                        province={**_PROVINCE, "description": "where the journey ended"}),
    "convert": _prompt("upkeep: convert coins of this round's income into victory points",
                       income={"type": "integer", "minimum": 0,
                               "description": "your income this round"}),
}
"""Decision kind -> the JSON Schema of its prompt."""
