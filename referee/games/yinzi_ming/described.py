"""Yinzi: Ming described for clients: the JSON Schema of a view, and the printed material.

`view_schema(spectator)` is what `views.view` returns, every property described in the game's
own words; `board()` is every seeds table the engine uses, tags kept, plus one-line texts of
what each Bonus register slot and Administration space does.

Why one module: a few lines over the mark, and one concern: the game described for clients (the
view schema, one literal that follows `views.view` field by field, and the printed material);
splitting the 20 lines of `board` off would leave the rest just under the mark for no reader's
gain."""

from __future__ import annotations

from referee.core.seeds import load_table
from referee.games.yinzi_ming import data, state
from referee.games.yinzi_ming.spec import SPEC


def d(schema: dict, text: str) -> dict:
    """`schema` with its description."""
    return {**schema, "description": text}


def obj(**fields: dict) -> dict:
    """A closed object whose fields are all present."""
    return {"type": "object", "properties": fields, "required": list(fields),
            "additionalProperties": False}


def mapping(value: dict, keys, text: str, complete: bool = False) -> dict:
    """An object keyed by ids among `keys`, each value a `value`."""
    schema = {"type": "object", "additionalProperties": value, "propertyNames": {
        "enum": list(keys)}, "description": text}
    if complete:
        schema["required"] = list(keys)
    return schema


def nat(maximum=None) -> dict:
    """A non-negative integer."""
    return {"type": "integer", "minimum": 0, **({} if maximum is None else {"maximum": maximum})}


def null_or(schema: dict) -> dict:
    """`schema` or null (descriptions stay on the outer schema)."""
    return {"oneOf": [{"type": "null"}, schema]}


SEAT = {"type": "integer", "minimum": 0, "maximum": data.MAX_PLAYERS - 1}
CARD = nat(len(data.CARDS) - 1)
CROPS = sorted(set(data.SPACES[s]["crop"] for s in data.SPACE_IDS) | set(data.CROP_TILES.values()))
GOODS = sorted(data.GOOD_INPUT)


def _ENUM(values) -> dict:
    return {"enum": list(values)}


_TURN = {
    "crop_tile": obj(
        seat=d(SEAT, "The seat whose Bonus turn it is."),
        slot=d({"type": "integer", "minimum": 1, "maximum": len(data.SLOTS)},
               "The register slot of that seat's Merchant (its Crop tile is on offer)."),
        moved=d(nat(), "Transport points spent so far (option supply_ignores_transport off)."),
        permit=d(nat(), "Extra transport points (always 0 in a Bonus turn).")),
    "act": obj(
        seat=d(SEAT, "The seat whose Directive turn it is."),
        card=d(CARD, "The Order card whose half is being used."),
        half=d(_ENUM(("top", "bottom")), "top: a Command Directive; bottom: a Trade Directive."),
        action=d(null_or(_ENUM(data.ACTIONS)), "The Command action (null for a Trade)."),
        allowed=d({"type": "integer", "minimum": 1, "maximum": data.MAX_ACTIONS},
                  f"Actions this Directive gives: the card's lines or value, plus extra "
                  f"Overseers and Prefect's Seal, at most {data.MAX_ACTIONS}."),
        used=d(nat(data.MAX_ACTIONS), "Actions used so far."),
        moved=d(nat(), "Transport points spent this turn (the allowance is the Ambassador's "
                       "space plus River Permit points)."),
        permit=d(nat(), "Transport points added by River Permit this turn."),
        yangtze=d(nat(), "Pieces moved along the Yangtze this turn (option yangtze_capacity "
                         "'throughput')."),
        tile_bought=d({"type": "boolean"}, "A Crop tile was bought with Deploy this Command."),
        refill_display=d({"type": "boolean"}, "The Workshop display is refilled when the turn "
                                              "ends (a Workshop was built)."),
        refill_register=d({"type": "boolean"}, "The register is refilled when the turn ends "
                                               "(a Crop tile was bought with Deploy).")),
    "step": obj(
        seat=d(SEAT, "The seat whose Regulation step it is."),
        waived=d({"type": "boolean"}, "Tax Waiver (B1) was used: no tax this step.")),
}

_CARD_VIEW = obj(
    card=d(CARD, "The Order card (0-11; every player's deck holds the same 12)."),
    top=d({"type": "boolean"}, "Its top half (Command Directive) was used this round."),
    bottom=d({"type": "boolean"}, "Its bottom half (Trade Directive) was used this round."),
    overseers=d(nat(), "Extra Overseers on it this round (each +1 action; back in Maintenance)."),
    lines=d({"type": "integer", "minimum": 1, "maximum": 3},
            "Printed lines of the top half: actions of a Command Directive."),
    value=d({"type": "integer", "minimum": 1, "maximum": 3},
            "Printed value of the bottom half: actions of a Trade Directive."))

_SEAT_VIEW = obj(
    sapeques=d(nat(), "Sapeques (copper coins) held; 2 VP per full final rate R at the end."),
    yinzi=d(nat(), "Yinzi (silver) held; 2 VP each at the end; pays the tax (1 per Workshop "
                   "that made a Good this round)."),
    stone=d(nat(), "Stone held (1 builds a Workshop; a first one needs none with the "
                   "Kiln Licence)."),
    ambassador=d({"type": "integer", "minimum": data.TRACK_FIRST, "maximum": data.TRACK_LAST},
                 "The Ambassador's space on the Yangtze Transport track: transport points per "
                 "Directive turn, and (space - 1) VP at the end."),
    peasants=d(nat(data.PEASANTS), f"Peasants in the supply (of {data.PEASANTS})."),
    overseers=d(nat(data.OVERSEERS), f"Overseers in the supply (of {data.OVERSEERS})."),
    ship_vp=d(nat(), "VP earned by filling Ship slots."),
    tax_vp=d({"type": "integer", "maximum": 0}, "VP lost to unpaid tax (0 or negative)."),
    cards=d({"type": "array", "items": _CARD_VIEW, "maxItems": data.REVEALED},
            "The revealed Order cards of this round."),
    gone=d({"type": "array", "items": CARD}, "Order cards used in earlier rounds."),
    spaces=mapping(d(null_or(CARD), "The card tucked under it, or null while free."),
                   data.ACTIONS, "The five Command action spaces and the card under each "
                                 "(each action once a round).", complete=True),
    turns=d(nat(data.TURNS), f"Directive turns taken this round (of {data.TURNS})."),
    deck_size=d(nat(len(data.CARDS)), "Order cards still in the deck (their order is hidden)."),
    deck_cards=d({"type": "array", "items": CARD},
                 "The cards still in the deck, sorted (the order is hidden)."))

_MARKET = obj(
    tile=d(_ENUM(data.MARKETS), "The Local Market tile."),
    spaces=d({"type": "array", "items": d(null_or(SEAT), "The seat whose Peasant was sold "
                                                          "there, or null while vacant.")},
             "The market spaces, in tile order."),
    demands=d({"type": "array", "items": _ENUM(CROPS)},
              "The crop each market space demands, in the same order."),
    high_demand=d(_ENUM(CROPS), "The crop that sells for the High Demand payout here."))

_REGISTER = obj(
    tile=d(null_or(_ENUM(data.CROP_TILES)), "The Crop tile beside the slot, or null."),
    merchant=d(null_or(SEAT), "The seat whose Merchant is on the slot this round, or null."),
    slot=d({"type": "integer", "minimum": 1, "maximum": len(data.SLOTS)},
           "The slot number, 1 = top (the Merchants' order top to bottom is the turn order)."),
    cost=d(nat(3), "Sapeques the slot's Crop tile costs."),
    crop=d(null_or(_ENUM(CROPS)), "The crop of that Crop tile, or null."),
    name=d({"type": "string"}, "The slot's benefit, by name."),
    effect=d(obj(kind=d(_ENUM(sorted({s["effect"]["kind"] for s in data.SLOTS})),
                        "What the benefit does (see board().register for each kind's text)."),
                 amount=d(nat(), "How much (Sapeques, spaces, Stone, Sapeques a sale, "
                                 "Workshops exempted, or Stone less a build).")),
             "The benefit the Merchant placed there takes."))

_WORKSHOP = obj(
    owner=d(SEAT, "The seat who built it."),
    province=d(_ENUM(data.PROVINCES), "The Province its Fields lie in."),
    fields=d({"type": "array", "items": _ENUM(data.FIELD_IDS), "minItems": data.BUILD_FIELDS,
              "maxItems": data.BUILD_FIELDS}, "The three Fields it covers, in board order."),
    level=d({"type": "integer", "minimum": 1, "maximum": data.MAX_LEVEL},
            "Its level: Goods it may make per round; VP at the end."),
    goods=d(nat(), "Goods made and waiting on it to be shipped."),
    produced=d(nat(), "Goods it made this round (one or more: it pays the tax in this "
                      "round's Regulation)."))

_SPACE = obj(
    crop=d(_ENUM(CROPS), "The crop the space grows now (a Crop tile replaces the printed one)."),
    owner=d(null_or(SEAT), "The seat whose Peasants stand there, or null."),
    count=d(nat(data.PEASANTS), "Peasants standing there."),
    tile=d(_ENUM(data.CROP_TILES), "The Crop tile placed there (only when there is one)."),
    workshop=d(_ENUM(data.WORKSHOP_TILES), "The Workshop covering it (only when there is one)."))
_SPACE["required"] = ["crop", "owner", "count"]

_FINAL = obj(
    scores=d({"type": "array", "items": {"type": "integer"}}, "Final VP per seat."),
    ranks=d({"type": "array", "items": {"type": "integer", "minimum": 1}},
            "Rank per seat (1 = winner; ties broken by Sapeques, then turn order)."),
    breakdown=d({"type": "array", "items": d({"type": "object", "additionalProperties": {
        "type": "integer"}}, "One seat's VP by source (ships, yinzi, sapeques, workshops, "
                             "ambassador, commendation, unpaid_tax) and its total.")},
        "Each seat's score by source."),
    final_rate=d(nat(), "The exchange rate R Sapeques are converted at."))


def _view(spectator: bool) -> dict:
    you = d({"type": "null"}, "null: this is the spectator view.") if spectator else d(
        SEAT, "The seat this view is for (nothing is hidden from one seat that others see).")
    return obj(
        players=d({"type": "integer", "minimum": data.MIN_PLAYERS,
                   "maximum": data.MAX_PLAYERS}, "Number of players."),
        options=d({"type": "object", "additionalProperties": {
            "oneOf": [{"type": "boolean"}, {"type": "string"}]}},
            "The match options (see the game's options), all with their values."),
        round=d({"type": "integer", "minimum": 1, "maximum": data.ROUNDS},
                f"The round, 1-{data.ROUNDS}."),
        phase=d(_ENUM(state.PHASES), "The phase: placement (set-up), bonus (B), directives "
                                     "(C), regulation (D), over."),
        stage=d(_ENUM(sorted(s for v in state.STAGES.values() for s in v if s) + [None]),
                "The step within the phase: place, merchant, crop_tile, choose, act, step; "
                "null once over."),
        order=d({"type": "array", "items": SEAT}, "The turn order (first to last)."),
        queue=d({"type": "array", "items": SEAT},
                "Seats still to take their set-up placement, Bonus turn or Regulation step."),
        active=d(null_or(SEAT), "The seat to move, or null once over."),
        turn_no=d(nat(), "Directive turns taken this round by all seats together."),
        dial=d(_ENUM(data.DIAL), "The Exchange marker's dial space."),
        roll=d(null_or({"type": "integer", "minimum": 1, "maximum": data.DIE}),
               "This round's exchange die roll (null before round 1)."),
        admin=mapping(d(null_or(obj(
            owner=d(SEAT, "The seat whose Overseer is there."),
            round=d({"type": "integer", "minimum": 1, "maximum": data.ROUNDS},
                    "The round it was placed in."),
            phase=d(_ENUM(state.PHASES), "The phase it was placed in (usable only later)."))),
            "The Overseer on the space, or null while empty."),
            data.BENEFIT_IDS, "The Administration benefit spaces (B1-B6; board().administration "
                              "says what each does).", complete=True),
        trade_slots=mapping(d({"type": "array", "items": SEAT}, "Seats that used it this round."),
                            data.TRADE_ACTIONS, "Trade actions used this round (option "
                                                "exclusive_trade_slots: players - 1 each).",
                            complete=True),
        turn=d({"oneOf": [{"type": "null"}, *_TURN.values()]},
               "The turn in progress: a Bonus turn's Crop tile step, a Directive, or a "
               "Regulation step; null between them."),
        final=d(null_or(_FINAL), "The final scores once the game is over, else null."),
        markets=mapping(d(_MARKET, "One Province's Local Market."), data.PROVINCES,
                        "The Local Market of each Province.", complete=True),
        market_discard=d({"type": "array", "items": _ENUM(data.MARKETS)},
                         "Local Market tiles discarded (reshuffled when the deck runs out)."),
        register=d({"type": "array", "items": _REGISTER, "minItems": len(data.SLOTS),
                    "maxItems": len(data.SLOTS)}, "The Bonus register, top slot first."),
        crop_discard=d({"type": "array", "items": _ENUM(data.CROP_TILES)},
                       "Crop tiles replaced by later ones."),
        display=d({"type": "array", "items": null_or(_ENUM(data.WORKSHOP_TILES)),
                   "minItems": data.DISPLAY, "maxItems": data.DISPLAY},
                  "The Workshop display (null: an empty place until the turn ends)."),
        workshops=mapping(d(_WORKSHOP, "One built Workshop."), data.WORKSHOP_TILES,
                          "Built Workshops by tile (components.workshops: the Good it makes)."),
        port=d({"type": "array", "items": obj(
            ship=d(_ENUM(data.SHIPS), "The Ship tile (components.ships: the Goods it wants)."),
            slots=d({"type": "array", "items": d(null_or(SEAT), "The seat who filled it, or "
                                                                 "null while vacant.")},
                    "Its slots, in the order of the Goods it wants."))},
            "The Ships at the Port."),
        ships_sailed=d({"type": "array", "items": _ENUM(data.SHIPS)},
                       "Ships that sailed (reshuffled when the deck runs out)."),
        you=you,
        board=mapping(d(_SPACE, "One Field or Salt Mine."), data.SPACE_IDS,
                      "Every board space (Fields, then Salt Mines, Province by Province).",
                      complete=True),
        map=d(obj(
            provinces=mapping(d({"type": "array", "items": _ENUM(data.SPACE_IDS)},
                                "Its spaces in board order."), data.PROVINCES,
                              "Each Province's spaces.", complete=True),
            salt_mines=d({"type": "array", "items": _ENUM(data.SPACE_IDS)},
                         "The Salt Mine spaces.")), "The static map."),
        components=d(obj(
            workshops=mapping(d(_ENUM(GOODS), "The Good it makes."), data.WORKSHOP_TILES,
                              "Workshop tile -> Good.", complete=True),
            inputs=mapping(d(_ENUM(CROPS), "The crop it takes."), GOODS,
                           "Good -> the crop its Workshop takes from a Local Market.",
                           complete=True),
            ships=mapping(d(obj(flag=d({"type": "string"}, "Its flag."),
                                goods=d({"type": "array", "items": _ENUM(GOODS)},
                                        "The Goods its slots want, in slot order.")),
                            "One Ship tile."), data.SHIPS, "Ship tile -> flag and Goods.",
                          complete=True)),
            "The printed components the view names by id."),
        exchange=d(obj(space=d(_ENUM(data.DIAL), "The Exchange marker's dial space."),
                       rate=d(nat(), "R: Sapeques per Yinzi, buying or selling."),
                       last_roll=d(null_or({"type": "integer", "minimum": 1,
                                            "maximum": data.DIE}), "This round's die roll.")),
                   "The exchange rate."),
        decks=d(obj(**{k: d({"type": "array", "items": _ENUM(ids)},
                            f"The {what} still in the deck, sorted (the order is hidden).")
                       for k, ids, what in (("crop_deck", data.CROP_TILES, "Crop tiles"),
                                            ("workshop_deck", data.WORKSHOP_TILES, "Workshops"),
                                            ("market_deck", data.MARKETS, "Local Market tiles"),
                                            ("ship_deck", data.SHIPS, "Ships"))}),
                "The shared decks' contents (never their order)."),
        seats=d({"type": "array", "items": d(_SEAT_VIEW, "One seat's holdings (all public).")},
                "Every seat, by seat number."),
    )


SEAT_VIEW, SPECTATOR_VIEW = _view(False), _view(True)


def view_schema(spectator: bool = False) -> dict:
    """The JSON Schema of a seat's view, or of the spectator's."""
    return SPECTATOR_VIEW if spectator else SEAT_VIEW


def _slot_texts(tables: dict) -> list[dict]:
    """Each register slot with the one-line text of its benefit (from effect_kinds)."""
    kinds = tables["register.json"]["effect_kinds"]["value"]
    return [{**slot, "text": kinds[slot["effect"]["kind"]].format(**slot["effect"])}
            for slot in tables["register.json"]["slots"]["value"]]


def board() -> dict:
    """Every seeds table the engine uses (tags kept), and what each slot and space does."""
    tables = {name: load_table(data.GAME, name) for name in data.TABLES}
    out = {name.removesuffix(".json"): {"description": table.get("$doc", ""),
                                       "value": {k: v for k, v in table.items() if k != "$doc"}}
           for name, table in tables.items()}
    out["bonus_slots"] = {
        "description": "The Bonus register slots top to bottom: name, benefit, Crop tile cost "
                       "and a one-line text of what the benefit does (register.json).",
        "value": {"value": _slot_texts(tables), "status": tables["register.json"]["slots"][
            "status"], "source": "register.json slots + effect_kinds (DERIVED texts)"}}
    out["administration_spaces"] = {
        "description": "The Administration benefit spaces with what each does "
                       "(administration.json).",
        "value": tables["administration.json"]["spaces"]}
    out["rules_version"] = {"description": "The rules these tables belong to.",
                            "value": SPEC.rules_version}
    return out
