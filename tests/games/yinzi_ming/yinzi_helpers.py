"""Building specific Yinzi: Ming states for scenario tests, and playing moves on them.

States are plain dicts: tests reach a phase by playing the first legal moves, then patch the
dict (money, pieces, markets) through these helpers, which keep every piece accounted for, so
`check` (the game's own from_dict validation) still accepts the patched state.
"""

from __future__ import annotations

import pytest

from referee.core import engine
from referee.core.errors import RefereeError
from referee.games import GAMES
from referee.games.yinzi_ming import data

GAME = GAMES.get("yinzi-ming")

CARD_WITH_LINES = {1: 0, 2: 4, 3: 8}
"""An Order card id per top value (lines): cards 0-3 are 1/3, 4-7 are 2/2, 8-11 are 3/1."""
CARD_WITH_VALUE = {3: 0, 2: 4, 1: 8}
"""An Order card id per bottom value."""


def new(players: int = 2, seed: int = 1, **options) -> dict:
    """A fresh game (set-up placements pending)."""
    _, state = engine.start(GAME, players, options, seed)
    return state


def check(s) -> dict:
    """The state, after the game's own validation accepted it."""
    return GAME.from_dict(GAME.to_dict(s))


def seat_of(s) -> int:
    """The seat that must act now."""
    return s["active"]


def act(s, move: dict, seat: int | None = None) -> dict:
    """Play `move` through every generic check and the rules; returns the new state."""
    check(s)
    seat = s["active"] if seat is None else seat
    new_state, _ = engine.play(GAME, s, 0, seat, move)
    return new_state


def acts(s, *moves) -> dict:
    """Play several moves, each by whoever must act."""
    for move in moves:
        s = act(s, move)
    return s


def illegal(s, move: dict, code: str, seat: int | None = None) -> RefereeError:
    """Assert `move` is rejected with code `move.illegal.<code>` (or a full code) and unlisted."""
    seat = s["active"] if seat is None else seat
    with pytest.raises(RefereeError) as info:
        act(s, move, seat)
    full = code if "." in code and code.startswith("move.") else f"move.illegal.{code}"
    assert info.value.code == full, info.value.message
    assert move not in GAME.legal_moves(s, seat)
    return info.value


def legal(s, type_: str | None = None) -> list[dict]:
    """The active seat's legal moves (of one type)."""
    moves = GAME.legal_moves(s, s["active"])
    return [m for m in moves if type_ is None or m["type"] == type_]


def first(s, type_: str) -> dict:
    """The first legal move of a type."""
    return legal(s, type_)[0]


def through_placement(s) -> dict:
    """Play every set-up placement (first legal space)."""
    while s["phase"] == "placement":
        s = act(s, first(s, "place_start"))
    return s


def through_bonus(s) -> dict:
    """Place every Merchant on the first free slot and decline every Crop tile."""
    while s["phase"] == "bonus":
        s = act(s, first(s, "merchant") if s["stage"] == "merchant" else {"type": "decline"})
    return s


def at_directives(players: int = 2, seed: int = 1, **options) -> dict:
    """A game at the first Directive choice of round 1."""
    return through_bonus(through_placement(new(players, seed, **options)))


def set_cards(s, seat: int, cards: list[int]) -> None:
    """Make `cards` the seat's revealed (unused) Order cards; the others go back to the deck."""
    st = s["seats"][seat]
    for entry in st["cards"]:
        st["overseers"] += entry["overseers"]
    st["deck"] = [c for c in st["deck"] + [e["card"] for e in st["cards"]] if c not in cards]
    st["gone"] = [c for c in st["gone"] if c not in cards]
    st["cards"] = [{"card": c, "top": False, "bottom": False, "overseers": 0} for c in cards]
    st["spaces"] = {a: None for a in data.ACTIONS}


def command(s, action: str, lines: int = 3) -> dict:
    """The active seat starts a Command of `lines` lines on `action`."""
    card = CARD_WITH_LINES[lines]
    set_cards(s, s["active"], [card, *(c for c in (1, 5, 9) if c != card)][:3])
    return act(s, {"type": "command", "card": card, "action": action})


def trade(s, value: int = 3) -> dict:
    """The active seat starts a Trade Directive with bottom value `value`."""
    card = CARD_WITH_VALUE[value]
    set_cards(s, s["active"], [card, *(c for c in (1, 5, 9) if c != card)][:3])
    return act(s, {"type": "trade", "card": card})


def give(s, seat: int, **amounts) -> None:
    """Set a seat's holdings (sapeques=..., yinzi=..., stone=..., ambassador=..., ...)."""
    s["seats"][seat].update(amounts)


def clear_board(s) -> None:
    """Every Peasant on a Field, Salt Mine or market goes back to its owner's supply."""
    for held in s["occupants"].values():
        s["seats"][held["owner"]]["peasants"] += held["count"]
    s["occupants"] = {}
    for market in s["markets"].values():
        for i, owner in enumerate(market["spaces"]):
            if owner is not None:
                s["seats"][owner]["peasants"] += 1
                market["spaces"][i] = None


def leave_peasants(s, seat: int, left: int) -> None:
    """Put the seat's supply Peasants on free Fields (2 each) until `left` remain."""
    free = (f for f in data.FIELD_IDS if f not in s["occupants"] and f not in s["covered"])
    while s["seats"][seat]["peasants"] > left:
        occupy(s, next(free), seat, min(2, s["seats"][seat]["peasants"] - left))


def occupy(s, sid: str, seat: int, count: int = 1) -> None:
    """Put `count` of the seat's supply Peasants on a board space."""
    s["seats"][seat]["peasants"] -= count
    s["occupants"][sid] = {"owner": seat, "count": count}


def set_market(s, prov: str, tile: str, spaces: list | None = None) -> None:
    """Show Market tile `tile` in `prov` (swapped with wherever it was), with these occupants."""
    current = s["markets"][prov]["tile"]
    for owner in s["markets"][prov]["spaces"]:
        if owner is not None:
            s["seats"][owner]["peasants"] += 1
    for key in ("market_deck", "market_discard"):
        if tile in s[key]:
            s[key][s[key].index(tile)] = current
    for other, market in s["markets"].items():
        if other != prov and market["tile"] == tile:
            market["tile"] = current
    size = len(data.MARKETS[tile]["spaces"])
    s["markets"][prov] = {"tile": tile, "spaces": [None] * size}
    for i, owner in enumerate(spaces or []):
        if owner is not None:
            s["seats"][owner]["peasants"] -= 1
            s["markets"][prov]["spaces"][i] = owner


def add_workshop(s, seat: int, wid: str, fields: list[str], level: int = 1,
                 goods: int = 0) -> None:
    """Give `seat` a built Workshop `wid` (taken from the deck or display) over `fields`."""
    if wid in s["workshop_deck"]:
        s["workshop_deck"].remove(wid)
    else:
        s["display"][s["display"].index(wid)] = s["workshop_deck"].pop(0)
    s["workshops"][wid] = {"owner": seat, "province": data.SPACES[fields[0]]["province"],
                           "fields": list(fields), "level": level, "goods": goods,
                           "produced": 0}
    for f in fields:
        s["covered"][f] = wid
    s["seats"][seat]["overseers"] -= level


def empty_overseer_supply(s, seat: int) -> None:
    """Spend all of a seat's supply Overseers: one per free benefit space, the rest upgrading
    a Level-1 Workshop (or building one) so the count stays consistent."""
    st = s["seats"][seat]
    for b in data.BENEFIT_IDS:
        if st["overseers"] and s["admin"][b] is None:
            s["admin"][b] = {"owner": seat, "round": s["round"], "phase": "bonus"}
            st["overseers"] -= 1
    if st["overseers"]:
        free = [f for f in data.FIELDS_BY_PROVINCE["changzhou"]
                if f not in s["occupants"] and f not in s["covered"]][:3]
        add_workshop(s, seat, s["workshop_deck"][0], free, level=min(st["overseers"], 3))
    assert st["overseers"] == 0


def set_port(s, ships: list[str]) -> None:
    """Put these Ships at the Port (empty slots); the previous ones go back to the deck."""
    pool = [p["ship"] for p in s["port"]] + s["ship_deck"] + s["ships_sailed"]
    s["ship_deck"] = [x for x in pool if x not in ships]
    s["ships_sailed"] = []
    s["port"] = [{"ship": x, "slots": [None] * len(data.SHIPS[x]["goods"])} for x in ships]


def wid_of(good: str) -> str:
    """A Workshop tile id of that Good type."""
    return next(w for w, g in sorted(data.WORKSHOP_TILES.items()) if g == good)


def market_index(s, prov: str, crop: str) -> int:
    """The first market space of `prov` demanding `crop`."""
    return data.MARKETS[s["markets"][prov]["tile"]]["spaces"].index(crop)


FRAGMENT = {
    "S01": "Each of four rounds has five phases: A Exchange Rate, B Bonus and Turn Order, "
           "C Directives, D Regulation, and E Maintenance.",
    "S02": "The fourth round skips Maintenance and proceeds to final scoring after its "
           "Regulation.",
    "S03": "Roll the die.",
    "S04": "If its result is above the current Exchange marker, move the marker one space "
           "clockwise; if below, move it one space counterclockwise; if equal, leave it.",
    "S05": "During your turn you may exchange Sapeques for Yínzi at the displayed rate or Yínzi "
           "for Sapeques at the inverse rate.",
    "S06": "In current turn order, place your Merchant on an empty Bonus register space and take "
           "its benefit.",
    "S07": "Each space may hold one Merchant.",
    "S08": "You may also buy the Crop tile printed beside that space: pay its 1–3 Sapeque cost, "
           "take the tile and two Peasants from your supply, and place both on one unattended "
           "Field in any available Province.",
    "S09": "The top-to-bottom Merchant order sets the new turn order for the rest of the round.",
    "S10": "Refill the register by sliding remaining Crop tiles upward and drawing replacements.",
    "S11": "Players take six turns in turn order.",
    "S12": "Each uses a different half of one of their three revealed Order cards.",
    "S13": "A Command Directive uses the top half and places that card under one of five "
           "personal action spaces.",
    "S14": "The printed 1–3 lines give that many actions; extra Overseers from your supply can "
           "increase the count, up to four total.",
    "S15": "You may not use the same Command action twice in a round.",
    "S16": "The five actions are Increase Transport Capacity, Deploy Peasants, Sell at Local "
           "Markets, Build or Upgrade a Workshop, and Corrupt Administration.",
    "S17": "Resolve one action completely before the next repetition.",
    "S18": "Your Ambassador position on the Yangtze Transport Capacity track is your movement "
           "allowance.",
    "S19": "Each Peasant or Good moved across a province border, including a diagonal border, or "
           "between a Province and the Port costs one point.",
    "S20": "Movement within the same Province costs zero.",
    "S21": "Use as many movements as you like, up to your allowance; do not move the Ambassador "
           "when spending this capacity.",
    "S22": "The Yangtze connects all Provinces with capacity 1.",
    "S23": "Choose one option each time you resolve this action: place one Peasant on an "
           "unattended Fruit, Bamboo, Ramie, Sugarcane, Cotton or Tea Field; place two Peasants "
           "on an unattended Rice, Maize or Salt Mine; or pay for a tile in the display and "
           "place it with two Peasants on an unattended Field.",
    "S24": "You can use this last option only once per Command.",
    "S25": "Move a Peasant from a matching Crop Field or Salt Mine to a vacant matching Local "
           "Market space.",
    "S26": "It must satisfy the market’s demand icon and your Transport Capacity.",
    "S27": "Gain 2 Sapeques, or 3 if the tile shows High Demand for that Crop.",
    "S28": "A market space already occupied by any Peasant cannot be used.",
    "S29": "Build by paying one Stone, placing a displayed Workshop over exactly three "
           "unattended Field spaces (never a Salt Mine or another Workshop), then marking it "
           "with one of your Overseers.",
    "S30": "To upgrade your Workshop, pay 3 Sapeques for Level II or 5 for Level III and add an "
           "Overseer; each upgrade is a separate action.",
    "S31": "Refill the Workshop display at the end of your turn.",
    "S32": "Corrupt Administration places one Overseer on an empty benefit space; its benefit "
           "may be used later, but not during the phase in which that Overseer was placed.",
}
"""Every sentence of the rulebook fragment (seeds/003_dd5e903c61ad66d0.txt) that states a rule."""


def sentence(sid: str):
    """Mark a test as checking fragment sentence `sid`; its docstring then quotes the sentence."""
    def mark(test):
        test.sentence = sid
        test.__doc__ = f"{sid}: '{FRAGMENT[sid]}' -- {test.__doc__ or ''}"
        return test
    return mark


def quiet_move(s) -> dict:
    """A short, loop-free policy: end turns at once, decline tiles, else the first legal move."""
    moves = legal(s)
    for wanted in ("done", "decline"):
        if {"type": wanted} in moves:
            return {"type": wanted}
    return moves[0]


def play_until(s, stop) -> dict:
    """Play `quiet_move`s until `stop(state)` holds (or the game ends)."""
    while not stop(s) and s["phase"] != "over":
        s = act(s, quiet_move(s))
    return s
