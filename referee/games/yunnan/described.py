"""Yunnan described to players and bots: the JSON Schema of the views (every field in the
game's words) for `Game.view_schema`. The board tables are in `printed.py`.

Conventions the descriptions repeat where they apply: a *seat* is a player (0..n-1); a
*participant* is a seat or, in a 2-player game, Dúlì (participant 2); counts "per province"
are lists in `provinces` order (Yunnan first, up the Tea Horse Road); a single province or
gorge is named, as in moves.
"""

from __future__ import annotations

from referee.games.yunnan.data import (BIDDABLE, BUILDABLE, DULI_CARD_IDS, GORGE_IDS, GUARD,
                                       NPROV, PROVINCES, SPACES)
from referee.games.yunnan.spec import OPTIONS
from referee.games.yunnan.state import PHASES, STEP_PHASE


def _d(schema: dict, text: str) -> dict:
    return {**schema, "description": text}


def _obj(**fields) -> dict:
    return {"type": "object", "properties": fields, "required": list(fields),
            "additionalProperties": False}


def _int(text: str, minimum: int = 0, maximum: int | None = None) -> dict:
    schema = {"type": "integer", "minimum": minimum, "description": text}
    return schema if maximum is None else {**schema, "maximum": maximum}


def _list(item: dict, text: str, size: int | None = None) -> dict:
    schema = {"type": "array", "items": item, "description": text}
    return schema if size is None else {**schema, "minItems": size, "maxItems": size}


def _nullable(schema: dict) -> dict:
    kinds = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
    return {**schema, "type": [*kinds, "null"]}


_NAT = {"type": "integer", "minimum": 0}
_PROV = {"type": "string", "enum": list(PROVINCES)}
_NULL_PROV = {"type": ["string", "null"], "enum": [*PROVINCES, None]}
_GORGE = {"type": "string", "enum": list(GORGE_IDS)}
_CARD = {"type": "integer", "enum": list(DULI_CARD_IDS)}
_PART = "participant index (seats 0..n-1; Dúlì is 2 in a 2-player game)"
_PER_PROV = _list(_NAT, "one count per province", NPROV)
_STRUCTS = {k: _int(f"{k.replace('_', ' ')}s") for k in BUILDABLE}

_DULI_ENTRY = {"oneOf": [
    _obj(card=_d(_CARD, "the Dúlì card turned for this bid"),
         bid=_d({"type": "string", "enum": list(BIDDABLE)}, "the building she bid in"),
         space=_int("the bid space's value")),
    _obj(card=_d({"type": ["integer", "null"], "enum": [*DULI_CARD_IDS, None]},
                 "the card turned, or null when no card could place a trader (none turned)"),
         bid=_d({"type": "null"}, "null: she placed no trader on this turn")),
    _obj(card=_d(_CARD, "the card turned for her Build & Travel"),
         teahouse=_d({"type": ["string", "null"], "enum": [*PROVINCES, None]},
                     "where her teahouse went, or null"),
         placed=_d(_PER_PROV, "her traders placed, per province"),
         displaced=_list(_obj(owner=_int("the seat displaced"),
                              **{"from": _d(_PROV, "the province it was displaced from")}),
                         "player traders she displaced")),
], "description": "one of Dúlì's automatic turns: a bid, a turn without a bid, or her travel"}

_REPORT = _obj(
    bank=_d(_nullable(_obj(total_bid=_int("all bids added up, in coins"),
                           payout=_int("coins paid to each Bank trader"),
                           bankers=_list(_NAT, "the seats that used the Bank"))),
            "the Bank payout of this round, or null if nobody used the Bank"),
    duli=_list(_DULI_ENTRY, "Dúlì's automatic turns this round, in order (2 players)"),
    displaced=_list(_obj(by=_int("the seat whose journey displaced"), owner=_int(_PART),
                         **{"from": _d(_PROV, "the province the trader left (down the road; "
                                                 "from Yunnan to the Market)")}),
                    "displacements by players this round"),
    inspector=_d(_nullable(_obj(province=_d(_PROV, "the province visited"),
                                revenue=_int("its revenue in coins (gaps ignored)"),
                                banished=_d(_nullable({"type": "integer", "minimum": 0}),
                                            f"the {_PART} banished to the Market, or null"))),
                 "the Province Inspector's visit, or null before it"),
    presents=_d(_nullable({"type": "array", "items": _NAT}),
                "presents received this round, per participant, or null before they are "
                "handed out"),
    income=_d(_nullable({"type": "array", "items": _nullable(dict(_NAT))}),
              "each seat's income this round in coins, or null before it is counted"),
)
_BREAKDOWN = _obj(track=_int("VP on the scoring track"), coins=_int("VP for coins (1 per 3)"),
                  presents=_int("VP for presents"), passes=_int("VP for Border Passes"),
                  influence=_int("VP for influence"), teahouses=_int("VP for teahouses"),
                  horse=_int("VP for the horse's province"), total=_int("the final score"))


def _properties(spectator: bool) -> dict:
    seats, parts = "one entry per seat", "one entry per participant (Dúlì last)"
    return {
        "n": _int("the number of players (seats)", 2, 5),
        "duli": _d(_nullable(dict(_NAT)), "Dúlì's participant index (2) in a 2-player game, "
                   "else null"),
        "options": _d(_obj(**{o.name: _d({"type": "boolean"} if o.kind == "bool" else
                                         {"type": "string", "enum": list(o.choices)},
                                         o.description) for o in OPTIONS}),
                      "the match options, every one resolved"),
        "round": _int("the round under way, from 1", 1),
        "phase": _d({"type": "string", "enum": list(PHASES)}, "the phase of the round"),
        "step": _d({"type": ["string", "null"], "enum": [*STEP_PHASE, None]},
                   "the pending decision's kind; null once the game is over"),
        "actor": _d(_nullable(dict(_NAT)), "the seat that must decide now; null when over"),
        "cursor": _int("position of the participant acting in the current turn order"),
        "blue": _list(_NAT, "the blue turn-order track (bidding, resolution): participant "
                      "indices, first to act first"),
        "grey": _list(_NAT, "the grey track (Build & Travel, conversion): participant "
                      "indices, first to act first; empty until the first Build & Travel"),
        "passed": _list({"type": "boolean"}, f"{parts}: has passed in this phase"),
        "coins": _list(_NAT, f"{seats}: coins held"),
        "vp": _list(_NAT, f"{seats}: victory points on the scoring track"),
        "income": _list(_nullable(dict(_NAT)), f"{seats}: this round's income in coins "
                        "while it waits to be converted; null otherwise"),
        "passes": _list(_NAT, f"{seats}: Border Passes (2-6), each pays one border crossing "
                        "per Build & Travel turn"),
        "horse": _list(_PROV, f"{seats}: the province the horse has reached; traders "
                       "and structures may go up to it"),
        "influence": _list(_NAT, f"{parts}: influence 0-4; a trader displaces only lower "
                           "influence; 4 is safe from the Inspector"),
        "supply": _list(_NAT, f"{parts}: traders in the personal supply"),
        "reserve": _list(_NAT, f"{parts}: traders still in the general supply (the "
                         "Trading School brings them into play)"),
        "market": _list(_NAT, f"{parts}: traders in the Market of Pu'er"),
        "traders": _list(_PER_PROV, f"{parts}: traders per province"),
        "posts": _list(_list({"type": "integer", "minimum": 0, "maximum": 1},
                             "1 where a trading post stands, per province", NPROV),
                       f"{parts}: trading posts (Dúlì's stay in Yunnan and Sichuan)"),
        "bridges": _list(_list(_GORGE, "gorge names"), f"{parts}: the gorges bridged"),
        "teahouses": _list(_nullable(dict(_NAT)), f"per province: the {_PART} owning its "
                           "teahouse, or null", NPROV),
        "stock": _list(_obj(**_STRUCTS), f"{seats}: structures in the personal supply, "
                       "ready to build"),
        "yard": _list(_obj(**_STRUCTS, **{GUARD: _int("the Guards marker (option guards)")}),
                      f"{seats}: structures still to take from the Building Yard"),
        "guards": _list(_NULL_PROV, f"{seats}: the province where the Guards marker "
                        "protects this round, or null"),
        "guard_spent": _list({"type": "boolean"}, f"{seats}: the Guards marker was used"),
        "bids": _d(_obj(**{b: _list(_nullable(dict(_NAT)), f"the {_PART} on each of its "
                                    f"spaces {list(SPACES[b])} (coins), or null if free",
                                    len(SPACES[b])) for b in BIDDABLE}),
                   "the bids placed this round, per building"),
        "bank": _list(_NAT, "the seats with a trader in the Bank this round"),
        "blocker": _d({"type": ["string", "null"], "enum": [*GORGE_IDS, None]},
                      "the gorge blocked by the Gorge Blocker this round, or null"),
        "presents": _list(_NAT, "per province: presents still lying there", NPROV),
        "gifts": _list(_NAT, f"{parts}: presents received so far (3 VP each at the end)"),
        "yard_left": _int("structures the actor still takes from the Building Yard now"),
        "journey": _d(_nullable(_obj(at=_d(_PROV, "the province the trader is in"),
                                     visited=_list(_PROV, "the provinces it entered on this "
                                                   "journey (and left from), in order"))),
                      "the actor's journey under way, or null"),
        "arrived": _list(_NAT, "per province: the actor's traders that ended a journey "
                         "there this turn (they travel no more)", NPROV),
        "passes_used": _int("Border Passes the actor has used this Build & Travel turn"),
        "displace_at": _d(_NULL_PROV, "the province where the actor may displace now, "
                          "or null"),
        "report": _d(_REPORT, "what happened automatically this round so far"),
        "previous": _d(_nullable(_REPORT),
                       "the previous round's report, or null in round 1"),
        "final": _d(_nullable({"type": "array", "items": _BREAKDOWN}),
                    "once the game is over: each seat's final score, part by part"),
        "you": (_d({"type": "null"}, "null: this is the spectator's view") if spectator else
                _int("the seat this view is for")),
        "provinces": _list(_PROV, "the province names, Yunnan first, up the Tea Horse Road; "
                           "every count per province is a list in this order", NPROV),
        "gorges": _list(_GORGE, "the gorge names (lower-higher province)", len(GORGE_IDS)),
        "duli_cards": _d(_nullable(_obj(
            draw_pile=_int("cards left face down (their order is hidden from everyone)"),
            discard=_list(_CARD, "cards of earlier rounds, sorted"),
            shown=_list(_CARD, "cards turned this round, in order"),
            shuffles=_int("how many times her deck has been shuffled"))),
            "Dúlì's cards (2 players), or null"),
    }


def view_schema(spectator: bool) -> dict:
    """The JSON Schema of a seat's view (or, with `spectator`, of the spectator's view)."""
    whose = "the spectator's" if spectator else "a seat's"
    return {"type": "object", "description": f"Yunnan as {whose} view shows it: everything "
            "but the match seed and the order of Dúlì's draw pile",
            "properties": _properties(spectator), "required": list(_properties(spectator)),
            "additionalProperties": False}
