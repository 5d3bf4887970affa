"""Dschunke's spec: options, move vocabulary (JSON Schema per move) and what is hidden."""

from __future__ import annotations

from referee.core import GameSpec, MoveKind, OptionSpec
from referee.games.dschunke.data import CARDS, GOODS, JUNKS, MERCHANT_ORDER, STACKS, TRACKS

RULES_VERSION = "3"
OLDER_RULES = {"2": "internal"}
"""Version 3 changed only how the `market_card` chance outcome is written (the card's id, not
its index in the market table); matches dealt from their seed hold no outcome in their log and
deal the very same cards, so version 2 records of internal chance replay unchanged; its
external-chance logs, whose market_card outcomes are indices, do not."""

_JUNK = {"type": "string", "enum": list(JUNKS)}
_GOODS = {"type": "string", "enum": list(GOODS)}
_EXTRA = sorted(k for k, c in CARDS.items() if c["effect"] == "extra_action")

OPTIONS = (
    OptionSpec("two_player_variant", "bool", False,
               "Play the unofficial fan 2-player variant (Poeppelkiste): fixed 2-player set-up, "
               "an 8-card general store on the grey junk, no assistant actions, a used merchant "
               "is moved to a free junk. Required for 2 players, not allowed with 3-4.",
               status="FOUND"),
    OptionSpec("setup_variant", "bool", False,
               "The rulebook's set-up variant: the start player puts the three face-down "
               "merchants on junks of their choice, players place strips of their right-hand "
               "neighbour's colour one at a time (at most 3 per junk), then the merchants are "
               "revealed.",
               status="FOUND"),
    OptionSpec("load_single_last_strip", "bool", True,
               "A player with only one strip left may still take a Load-2 action and loads that "
               "one strip (FAQ Q3 says Load places 2; the rules are silent on a last single "
               "strip)."),
    OptionSpec("s_tie_settles", "bool", True,
               "A tie on an S colour in the goods poker pays nothing and the colour counts as "
               "settled (covered), like a money tie; false: the colour stays open for the next "
               "poker round."),
)

MOVES = (
    MoveKind("place_merchant", "Set-up variant: the start player puts the next face-down "
             "merchant on a junk without one.", {"junk": _JUNK}, ("junk",),
             {"type": "place_merchant", "junk": "orange"}),
    MoveKind("place_strip", "Set-up variant: place one held strip (your right-hand neighbour's "
             "colour) on a junk.", {"junk": _JUNK}, ("junk",),
             {"type": "place_strip", "junk": "white"}),
    MoveKind("trade_goods", "Phase 1, right after the market card: play a Trade Goods card "
             "(then swap 1 or 2 goods cards)."),
    MoveKind("pass", "Decline (Trade Goods window), or pass a phase-2 turn when no action is "
             "possible at all."),
    MoveKind("swap", "Trade Goods: return one hand card of `give` to its junk and take one card "
             "of `take` from `junk` (its own junk, or the grey store in the 2-player variant).",
             {"give": _GOODS, "take": _GOODS, "junk": _JUNK}, ("give", "take", "junk"),
             {"type": "swap", "give": "white", "take": "orange", "junk": "orange"}),
    MoveKind("done", "End what you are doing: your trade, your phase-2 turn (after your "
             "action), or your resupply."),
    MoveKind("choose_stack", "S event or S won in the poker: choose a special-card stack to "
             "look through.", {"stack": {"type": "integer", "minimum": 0,
                                         "maximum": STACKS - 1}}, ("stack",),
             {"type": "choose_stack", "stack": 0}),
    MoveKind("take_card", "Keep one card of the stack you are looking through.",
             {"card": {"type": "string", "enum": sorted(CARDS)}}, ("card",),
             {"type": "take_card", "card": "resupply"}),
    MoveKind("s_reward", "Round 10: the S winner takes 3 yuan or a special card (chosen "
             "before looking).", {"choice": {"type": "string", "enum": ["yuan", "card"]}},
             ("choice",), {"type": "s_reward", "choice": "yuan"}),
    MoveKind("merchant", "Phase 2: use an unused merchant's action on the junk it stands on. "
             "The merchants are named by their action: load (2 strips), take (goods), sell "
             "(cargo).", {"merchant": {"type": "string", "enum": list(MERCHANT_ORDER)}},
             ("merchant",), {"type": "merchant", "merchant": "sell"}),
    MoveKind("assistant", "Phase 2: use an unused assistant's current action on a junk "
             "without a merchant.", {"assistant": {"type": "string", "enum": sorted(TRACKS)},
                                     "junk": _JUNK}, ("assistant", "junk"),
             {"type": "assistant", "assistant": "lower", "junk": "white"}),
    MoveKind("take_goods", "Choose one goods card of a take you are entitled to (from its "
             "junk, or the grey store in the 2-player variant).",
             {"goods": _GOODS, "junk": _JUNK}, ("goods", "junk"),
             {"type": "take_goods", "goods": "brown", "junk": "brown"}),
    MoveKind("move_strip", "Play Move Cargo Strip on your phase-2 turn: move a top-layer strip "
             "of seat `owner_seat` (the seat number whose colour the strip has) from one junk "
             "onto another.",
             {"from": _JUNK, "owner_seat": {"type": "integer", "minimum": 0}, "to": _JUNK},
             ("from", "owner_seat", "to"),
             {"type": "move_strip", "from": "brown", "owner_seat": 1, "to": "white"}),
    MoveKind("extra_action", "Play an Extra Action card on your phase-2 turn (its action on "
             "its junk, whatever merchant stands there).",
             {"card": {"type": "string", "enum": _EXTRA}}, ("card",),
             {"type": "extra_action", "card": "extra_sell_grey"}),
    MoveKind("relocate_merchant", "2-player variant: move the merchant you just used to a junk "
             "without a merchant.", {"junk": _JUNK}, ("junk",),
             {"type": "relocate_merchant", "junk": "white"}),
    MoveKind("resupply", "Phase 3: take one goods card for one of your resupply cards.",
             {"goods": _GOODS, "junk": _JUNK}, ("goods", "junk"),
             {"type": "resupply", "goods": "lilac", "junk": "lilac"}),
    MoveKind("bid", "Phase 4 (sealed): lay `count` cards of `goods` face down. Every bidding "
             "seat answers once per colour, in the order white, brown, lilac, orange (0 for "
             "none); cards in two colours or in a settled colour count as no bid and come back.",
             {"goods": _GOODS, "count": {"type": "integer", "minimum": 0}}, ("goods", "count"),
             {"type": "bid", "goods": "white", "count": 0}),
)

HIDDEN = (
    "other seats' goods-card hands (their sizes are public)",
    "other seats' cash, except the totals announced at the last Y event",
    "the contents of the special-card stacks, except what a seat saw when it last looked "
    "through a stack (as of then)",
    "which hidden special cards (one-shot and end-game cards) other seats hold",
    "the order of the market deck",
    "sealed goods-poker bids until all are in and revealed",
    "the goods left on the junks during phases 3-4 (FAQ Q6): only whether a pile is empty",
    "which face-down merchant is which during the set-up variant",
)

SPEC = GameSpec(
    name="dschunke", title="Dschunke", min_players=3, max_players=4, variant_players=(2,),
    rules_version=RULES_VERSION, older_rules=OLDER_RULES, options=OPTIONS, moves=MOVES,
    hidden=HIDDEN,
    summary="Michael Schacht's Dschunke (Queen Games 2002): load cargo strips on five junks, "
            "sell and take goods by visible crates, and win the sealed goods poker over ten "
            "rounds. 3-4 players; 2 with the fan variant option.",
)
