"""Dschunke's views described: a JSON Schema of a seat's view and of the spectator's view.

Every property says what it is in the game's words, whose it is and when it is hidden; the
tests hold every view the engine produces to these schemas, so they cannot drift apart.
"""

from __future__ import annotations

from referee.games.dschunke.data import (CARDS, GOODS, JUNKS, LAYER, MARKET, MERCHANT_ORDER,
                                         ROUNDS, SETUP, STACKS, STRIPS, TRACKS)

_COLOURS = sorted({c for colours in SETUP["colours"].values() for c in colours})
_GOODS_WORDS = "white (rice), brown (fish), lilac (vegetables), orange (spices)"


def _d(text: str, schema: dict) -> dict:
    return {**schema, "description": text}


def _int(text: str, minimum: int = 0, maximum: int | None = None, null=False) -> dict:
    schema: dict = {"type": ["integer", "null"] if null else "integer", "minimum": minimum}
    if maximum is not None:
        schema["maximum"] = maximum
    return _d(text, schema)


def _enum(text: str, values, null=False) -> dict:
    return _d(text, {"enum": [*values, *([None] if null else [])]})


def _list(text: str, item: dict, null=False, size: int | None = None) -> dict:
    schema: dict = {"type": ["array", "null"] if null else "array", "items": item}
    if size is not None:
        schema["minItems"] = schema["maxItems"] = size
    return _d(text, schema)


def _obj(text: str, null=False, optional=(), **props) -> dict:
    return _d(text, {"type": ["object", "null"] if null else "object", "properties": props,
                     "required": [k for k in props if k not in optional],
                     "additionalProperties": False})


def _bool(text: str) -> dict:
    return _d(text, {"type": "boolean"})


def _counts(text: str, null=False, value: str = "cards of this colour") -> dict:
    return _d(text, {"type": ["object", "null"] if null else "object",
                     "propertyNames": {"enum": list(GOODS)},
                     "additionalProperties": _int(value)})


_SEAT = _int("A seat number (0-based; the seat's colour is colours[seat]).", 0, 3)
_SEATS_PER = "one entry per seat, in seat order"
_CARD = _enum("A special card kind (see the board's special_cards for its effect).",
              sorted(CARDS))
_GOOD = _enum(f"A goods colour: {_GOODS_WORDS}.", GOODS)
_ACTION = _d("An action as printed: kind load (strips: cargo strips laid), sell (per_crate "
             "yuan per own visible crate, at least minimum) or take (per_crate goods cards per "
             "own visible crate, at least minimum; or flat cards).", {
                 "type": "object", "additionalProperties": False, "required": ["kind"],
                 "properties": {
                     "kind": _enum("load, sell or take.", ("load", "sell", "take")),
                     "strips": _int("Cargo strips a load lays.", 1),
                     "per_crate": _int("Yuan (sell) or goods cards (take) per own visible "
                                       "crate on the junk.", 1),
                     "minimum": _int("At least this many yuan or cards, whatever the crates.", 1),
                     "flat": _int("Exactly this many goods cards (the assistant's reduced "
                                  "take).", 1)}})
_MARKET_CARD = _d("A market card: per goods colour the yuan the sole highest bidder is paid in "
                  "the goods poker, or \"S\" (a special card instead).", {
                      "type": "object", "propertyNames": {"enum": list(GOODS)},
                      "additionalProperties": {"description": "This colour's value.", "oneOf": [
                          _int("Yuan paid for this colour.", 0),
                          _enum("S: the sole highest bidder takes a special card (round 10: "
                                "or 3 yuan).", ("S",))]}})
_STAKE = _counts("Goods cards laid face down in one bid, by colour (colours not laid are "
                 "absent).", value="cards laid of this colour")
_REVEAL = _obj(
    "What a poker bidding round revealed: all bids are turned up together.",
    round=_int("The bidding round within this round's poker (1 = the first).", 1),
    bids=_list(f"Each seat's laid cards, {_SEATS_PER}; null for a seat that held no goods "
               "cards and did not bid.", _obj(
                   "One seat's revealed bid.", null=True, stake=_STAKE,
                   valid=_bool("False when the cards were in two colours or in a covered "
                               "colour: that counts as no bid and the cards went back to "
                               "the hand."))),
    winners=_d("Per colour bid on: the seats with the most cards of it (several on a tie).", {
        "type": "object", "propertyNames": {"enum": list(GOODS)},
        "additionalProperties": _list("The highest bidders of this colour.", _SEAT)}),
    paid=_list(f"Yuan each seat was paid by the bank in this bidding round, {_SEATS_PER}.",
               _int("Yuan paid.")),
    s_winner=_int("The sole highest bidder on an S colour, who takes a special card (round "
                  "10: or 3 yuan); null if none.", 0, 3, null=True),
    settled=_list("The colours covered by this bidding round.", _GOOD),
    any_valid=_bool("Whether anyone laid a valid bid; if nobody did, the poker ends."))


def _seat(spectator: bool) -> dict:
    whose = "" if spectator else " (yours, or everyone's once the game is over)"
    return _obj(
        "One seat at the table: what is public of it, and its own secrets where you may see "
        "them.",
        colour=_enum("The seat's colour (its cargo strips).", _COLOURS),
        strips=_int(f"Cargo strips the seat still has in supply (of {STRIPS}).", 0, STRIPS),
        resupply=_int("Goods cards the seat may take in phase 3: its resupply cards, the "
                      "two it started with plus Resupply special cards.", 0),
        hand_size=_int("Goods cards the seat holds. While a bid is sealed, others count the "
                       "laid cards as still held, so the bid's size stays secret.", 0),
        hand=_counts(f"The seat's goods cards by colour{whose}; null when hidden from you.",
                     null=True),
        cash=_int(f"The seat's yuan{whose}; null when hidden from you (the totals announced "
                  "at the last Y event are in announced).", 0, null=True),
        open_cards=_list("Permanent special cards the seat laid face up when it took them "
                         "(Resupply, Tie-breaker).", _CARD),
        played_cards=_list("One-shot special cards the seat has played (now public).", _CARD),
        hidden_cards=_list(
            "Special cards the seat keeps face down (one-shot and end-game cards): everyone "
            "sees which stack and round each came from, only the holder sees which card.",
            _obj("One face-down special card.", optional=("card",),
                 stack=_int("The stack it was taken from.", 0, STACKS - 1),
                 round=_int("The round it was taken in (0: before the first round).", 0,
                            ROUNDS),
                 card=_d(f"Which card it is{whose}; absent when hidden from you.", _CARD))))


def _stage() -> dict:
    kinds = ("place_merchant", "place_strip", "trade_window", "trade", "s_event", "action",
             "resupply", "bid", "s_reward", "over")
    return _obj(
        "What is being decided now, and by whom.",
        optional=("seat", "seats", "held", "swaps", "event", "chosen", "looking", "acted",
                  "take", "relocate", "left", "step"),
        kind=_enum("The step of the round: set-up variant (place_merchant, place_strip), "
                   "phase 1 (trade_window: who plays Trade Goods; trade: swapping; s_event: "
                   "the S event), phase 2 (action), phase 3 (resupply), phase 4 (bid: the "
                   "sealed goods poker; s_reward: an S won in it), or over.", kinds),
        seat=_int("The seat deciding now (null once the game is over).", 0, 3, null=True),
        seats=_list("The goods poker: seats whose sealed bid is not complete yet.", _SEAT),
        held=_list(f"Set-up variant: strips each seat still has to place, {_SEATS_PER}.",
                   _int("Strips held.")),
        swaps=_int("Trade Goods: swaps made so far with the card being played (at most 2).",
                   0, 1),
        event=_int("S event: the index of this event among the round's events.", 0),
        chosen=_list("S event: the stacks earlier seats chose in this event (each seat picks "
                     "another).", _int("A stack.", 0, STACKS - 1)),
        looking=_int("The stack the deciding seat is looking through now; null before it "
                     "chooses.", 0, STACKS - 1, null=True),
        acted=_bool("Phase 2: whether the seat has taken its one action this turn."),
        take=_obj("Phase 2: a take of goods in progress, when the seat must choose colours.",
                  null=True, junk=_enum("The junk taken from.", JUNKS),
                  left=_int("Goods cards still to take.", 1)),
        relocate=_enum("2-player variant: the merchant just used, to be moved to a junk "
                       "without a merchant; null otherwise.", MERCHANT_ORDER, null=True),
        left=_int("Phase 3: goods cards the seat may still take.", 1),
        step=_enum("Round 10's S reward: choose (3 yuan or a card), stack (choose a stack), "
                   "take (keep a card).", ("choose", "stack", "take")))


def _merchants() -> dict:
    named = _obj("The merchants, named by the one action each carries out, only on the junk "
                 "it stands on, once per round.", **{
                     m: _obj(f"The {m} merchant.",
                             junk=_enum("The junk it stands on (it moves one junk on "
                                        "clockwise each round).", JUNKS),
                             used=_bool("Whether it has acted this round (turned over)."),
                             action=_ACTION) for m in MERCHANT_ORDER})
    face_down = _obj("Set-up variant before the merchants are turned up: nobody knows which "
                     "is which.", face_down=_list("The junks a face-down merchant stands on.",
                                                  _enum("A junk.", JUNKS)))
    return _d("The three merchants (or, in the set-up variant, where the face-down ones "
              "stand).", {"oneOf": [named, face_down]})


def _junk(junk: str) -> dict:
    store = junk == "grey"
    goods = ("the general store's goods cards by colour (2-player variant); null without a "
             "store" if store else f"the {junk} goods cards left on it ({{\"{junk}\": n}})")
    return _obj(
        f"The {junk} junk" + (" (no goods of its own: a take here chooses any colour)"
                              if store else f", which holds the {junk} goods cards") + ".",
        layers=_list(f"Its cargo, bottom layer first: each layer lists the seats whose strips "
                     f"lie in it (sorted; a full layer has {LAYER}, the next lies crosswise).",
                     _list("One layer of strips, by owner seat.", _SEAT)),
        visible=_list(f"Each seat's visible crates on it, {_SEATS_PER}: 3 per strip in the "
                      "top layer, 3 - k per strip of the full layer below when the top holds "
                      "k, none deeper.", _int("Visible crates.", 0)),
        goods=_counts(f"{goods[0].upper()}{goods[1:]}; null during phases 3-4, when nobody may "
                      "count the goods left (FAQ Q6).", null=True),
        has_goods=_bool("Whether any goods card lies on it (seen even in phases 3-4)."))


def view_schema(spectator: bool = False) -> dict:
    """The JSON Schema of a seat's view, or (spectator) of the spectator's view."""
    mine = "null" if spectator else "your seat number"
    return _obj(
        "Dschunke as " + ("a spectator" if spectator else "one seat") + " sees it: the board, "
        "every public fact, and " + ("no seat's secrets (all is shown once the game is "
                                     "over)." if spectator else "your own hand, cash and "
                                     "cards."),
        optional=("final",),
        round=_int(f"The round, 1 to {ROUNDS}.", 1, ROUNDS),
        phase=_int("The phase of the round: 0 set-up variant, 1 market card, Trade Goods and "
                   "events, 2 actions, 3 goods resupply, 4 goods poker.", 0, 4),
        over=_bool("Whether the tenth round is over (then everything is shown)."),
        players=_int("Seats at the table.", 2, 4),
        colours=_list(f"Each seat's colour, {_SEATS_PER}.", _enum("A colour.", _COLOURS)),
        you=_d(f"Whose view this is: {mine}.",
               {"type": "null"} if spectator else _int("", 0, 3)),
        start_player=_int("The seat holding the junk marker: it begins every phase this "
                          "round.", 0, 3),
        market=_obj(
            "The market cards.",
            card=_d("This round's market card (null before the first is turned over).",
                    {**_MARKET_CARD, "type": ["object", "null"]}),
            settled=_list("Colours of this round's card covered by a marker stone (paid or "
                          "settled in the poker).", _GOOD),
            deck_size=_int("Market cards still face down (their order is secret).", 0,
                           len(MARKET)),
            played=_list("Market cards turned over so far, this round's last.", _MARKET_CARD)),
        junks=_obj("The five junks, clockwise from grey.", **{j: _junk(j) for j in JUNKS}),
        merchants=_merchants(),
        assistants=_d(
            "The assistants in play (lower: always; upper: 4 players; none act in the "
            "2-player variant), each below its track space for this round.", {
                "type": "object", "propertyNames": {"enum": sorted(TRACKS)},
                "additionalProperties": _obj(
                    "One assistant.",
                    space=_int("Its track space, 0-based (= round - 1).", 0, ROUNDS - 1),
                    used=_bool("Whether it has acted this round."),
                    action=_d("The action printed on its space, carried out on a junk "
                              "without a merchant. " + _ACTION["description"],
                              {k: v for k, v in _ACTION.items() if k != "description"}))}),
        seats=_list(f"The seats, {_SEATS_PER}.", _seat(spectator)),
        stacks=_list(
            f"The {STACKS} face-down special-card stacks.", _obj(
                "One stack.",
                size=_int("Cards in it.", 0),
                seen=_d("A spectator never looked through a stack: always null.",
                        {"type": "null"}) if spectator else _obj(
                    "What you saw when you last looked through it (its cards then, and the "
                    "round); null if you never did.", null=True,
                    cards=_list("The cards it held then.", _CARD),
                    round=_int("The round you looked.", 0, ROUNDS, null=True)),
                cards=_list("Its cards now: shown only to the seat looking through it, and to "
                            "all once the game is over; null otherwise.", _CARD, null=True)),
            size=STACKS),
        announced=_obj("The cash totals every seat announced at the last Y event; null "
                       "before the first.", null=True,
                       round=_int("The round of that Y event.", 1, ROUNDS),
                       cash=_list(f"Yuan announced, {_SEATS_PER}.", _int("Yuan."))),
        stage=_stage(),
        poker=_obj(
            "This round's goods poker while it lasts (null outside phase 4): each seat lays "
            "cards of one colour face down; all reveal together.", null=True,
            round=_int("The bidding round (1 = the first; 0 before any).", 0),
            open=_list("Colours of the market card not covered yet.", _GOOD),
            progress=_list(f"Colours each seat has answered in its sealed bid (white, brown, "
                           f"lilac, orange in turn), {_SEATS_PER}; null for a seat that does "
                           "not bid.", _int("Colours answered.", 0, len(GOODS), null=True)),
            my_stake=_d("A spectator lays no bid: always null.", {"type": "null"})
            if spectator else _counts("The cards you have laid so far in your sealed bid "
                                      "(null while you lay none).", null=True,
                                      value="cards laid of this colour"),
            reveal=_d("The last bidding round revealed in this poker (null before the "
                      "first). " + _REVEAL["description"],
                      {**{k: v for k, v in _REVEAL.items() if k != "description"},
                       "type": ["object", "null"]})),
        last_poker=_obj(
            "The last reveal of the round just ended (its final bidding round): kept on the "
            "table from the round's end until the next poker starts; null otherwise.",
            null=True, round=_int("The round whose poker it was.", 1, ROUNDS),
            reveal=_REVEAL),
        final=_list(f"Once the game is over: each seat's final score, {_SEATS_PER}.", _obj(
            "One seat's final score.",
            cash=_int("Yuan on hand."),
            card_bonus=_int("Yuan from end-game bonus cards (strictly the most visible "
                            "crates on the card's junk)."),
            ship_bonus=_int("4 yuan per junk showing an own crate, 25 if all five do."),
            total=_int("cash + card_bonus + ship_bonus: the highest wins."),
            goods_cards=_int("Goods cards left: the tie-breaker."))))
