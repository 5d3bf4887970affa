"""Yinzi: Ming moves in words (`command card=7 action=transport` -> `play card #7 as a
Command Directive: Increase Transport Capacity`), named from the last view drawn when there
is one (a Field's crop, a market space's demand, the exchange rate)."""

from __future__ import annotations

PROVINCES = {"YZ": "Yangzhou", "TZ": "Tongzhou", "CZ": "Changzhou", "SZ": "Suzhou"}
ACTIONS = {"transport": "Increase Transport Capacity", "deploy": "Deploy Peasants",
           "sell": "Sell at Local Markets", "build": "Build a Workshop",
           "corrupt": "Corrupt Administration"}
"""A Command line's action -> its name on the card."""


def space(sid, view: dict | None) -> str:
    """A board space with its Province and crop: `YZ2 (Yangzhou, rice)`."""
    sid = str(sid)
    province = PROVINCES.get(sid.rstrip("0123456789M")[:2] if sid else "", "")
    crop = ((view or {}).get("board") or {}).get(sid, {}).get("crop")
    about = ", ".join(x.replace("_", " ") for x in (province, crop) if x)
    return f"{sid} ({about})" if about else sid


def market_space(market, index, view: dict | None) -> str:
    """A Local Market space: `the Tongzhou market, space 1 (tea)`."""
    demands = (((view or {}).get("markets") or {}).get(market) or {}).get("demands") or []
    demand = demands[index] if isinstance(index, int) and 0 <= index < len(demands) else None
    tail = f" ({demand.replace('_', ' ')})" if demand else ""
    return f"the {str(market).capitalize()} market, space {index}{tail}"


def _card(number, view: dict | None) -> dict:
    for seat in (view or {}).get("seats") or []:
        for card in seat.get("cards") or []:
            if card.get("card") == number:
                return card
    return {}


def _rate(view: dict | None, shift: int = 0) -> str:
    rate = ((view or {}).get("exchange") or {}).get("rate")
    if rate is None:
        return "R" if not shift else f"R{shift:+d}"
    return str(max(1, rate + shift))


def describe(move: dict, view: dict | None, names: dict) -> str | None:
    """The move in words, or None for a type this table does not know. `names` holds
    functions naming a `workshop` tile, a register `slot`, a `benefit` and a `ship` (from the
    renderer's component tables)."""
    kind, m = move.get("type"), move
    workshop, slot, benefit = names["workshop"], names["slot"], names["benefit"]
    if kind == "place_start":
        return f"put your 2 starting Peasants on {space(m.get('space'), view)}"
    if kind == "merchant":
        return f"put your Merchant on register slot {m.get('slot')} ({slot(m.get('slot'))})"
    if kind == "buy_tile":
        return f"buy the Crop tile and place it with 2 Peasants on {space(m.get('field'), view)}"
    if kind == "decline":
        return "decline the Crop tile"
    if kind == "command":
        action = ACTIONS.get(m.get("action"), str(m.get("action")))
        lines = _card(m.get("card"), view).get("lines")
        count = f" ({lines} action(s))" if lines else ""
        return f"play card #{m.get('card')} as a Command Directive: {action}{count}"
    if kind == "trade":
        value = _card(m.get("card"), view).get("value")
        worth = f" worth {value}" if value is not None else ""
        return (f"play card #{m.get('card')} as a Trade Directive{worth} "
                f"(Produce, Ship or Quarry)")
    if kind == "advance":
        return "advance your Ambassador one space (+1 transport capacity)"
    if kind == "deploy":
        return f"deploy Peasants on {space(m.get('space'), view)}"
    if kind == "deploy_tile":
        return (f"buy the Crop tile of register slot {m.get('slot')} and place it with 2 "
                f"Peasants on {space(m.get('field'), view)}")
    if kind == "sell":
        return (f"sell a Peasant from {space(m.get('space'), view)} to "
                f"{market_space(m.get('market'), m.get('index'), view)}")
    if kind == "build":
        fields = ", ".join(str(f) for f in m.get("fields") or [])
        return f"build {workshop(m.get('tile'))} over {fields} (1 Stone, 1 Overseer)"
    if kind == "upgrade":
        return f"upgrade {workshop(m.get('workshop'))} one level (and add an Overseer)"
    if kind == "corrupt":
        return f"put an Overseer on {m.get('benefit')} ({benefit(m.get('benefit'))})"
    if kind == "produce":
        return (f"{workshop(m.get('workshop'))} makes 1 Good from the Peasant at "
                f"{market_space(m.get('market'), m.get('index'), view)}")
    if kind == "ship":
        return (f"ship 1 Good of {workshop(m.get('workshop'))} onto {m.get('ship')} "
                f"({names['ship'](m.get('ship'))})")
    if kind == "quarry":
        return "quarry: pay 2 Sapeques for 1 Stone"
    if kind in ("exchange", "mint"):
        shift = 0 if kind == "exchange" else (-1 if m.get("direction") == "buy" else 1)
        how = "exchange" if kind == "exchange" else "Mint Contact (B4)"
        rate = _rate(view, shift)
        return (f"{how}: pay {rate} Sapeques for 1 Yinzi" if m.get("direction") == "buy"
                else f"{how}: 1 Yinzi for {rate} Sapeques")
    if kind == "benefit":
        return f"use {m.get('benefit')} ({benefit(m.get('benefit'))})"
    if kind == "overseer":
        return "put an extra Overseer on this turn's card (+1 action)"
    if kind == "done":
        return "done (end your Directive turn, or your Regulation step: the tax is paid)"
    return None
