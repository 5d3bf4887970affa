"""Yunnan's GameSpec: options, the move vocabulary (as JSON Schema) and what is hidden."""

from __future__ import annotations

from referee.core import GameSpec, MoveKind, OptionSpec
from referee.games.yunnan.data import (BIDDABLE, BUILDABLE, GORGE_IDS, GUARD, MARKET,
                                       PROVINCES, SUPPLY)

RULES_VERSION = "2"

_PROVINCE = {"type": "string", "enum": list(PROVINCES)}
_SOURCE = {"type": "string", "enum": [SUPPLY, *PROVINCES],
           "description": "where the trader comes from: your personal supply or a province"}
_PLACE = {"type": "string", "enum": [*PROVINCES, *GORGE_IDS],
          "description": "a province, or a gorge (lower-higher) for a bridge"}

OPTIONS = (
    OptionSpec("market_exit_costs_pass", "bool", False,
               "leaving the Market of Pu'er for Yunnan costs a Border Pass (default: no, Pu'er is "
               "a city inside Yunnan, so no province border is crossed)", status="DERIVED"),
    OptionSpec("double_bidding", "bool", False,
               "expert rule: a second bid in the same Progress Building, for the progress twice; "
               "with it the game ends only when no presents are left", status="FOUND"),
    OptionSpec("guards", "bool", False,
               "expert rule: the Building Yard may give your Guards marker (once per game, placed "
               "at once, protects your traders there from displacement that round); with it the "
               "game ends only when no presents are left", status="FOUND"),
    OptionSpec("duli_overflow", "choice", "farthest",
               "2 players: where Dúlì's card traders for provinces no horse has reached go: "
               "'farthest' (added to the farthest reached province, so she uses all 7) or "
               "'supply' (kept in her supply)", choices=("farthest", "supply")),
    OptionSpec("duli_no_bid", "choice", "skip",
               "2 players: a bidding turn on which no Dúlì card could place a trader (she has "
               "one in every Progress Building or no free permissible space there): 'skip' "
               "(default: no card is turned, she stays in the bidding) or 'spend_card' (a card "
               "is turned and spent, as in rules_version 1)", choices=("skip", "spend_card"),
               status="DERIVED"),
)

MOVES = (
    MoveKind("bid", "place a trader on an empty space of a Progress Building or the Temple",
             {"building": {"type": "string", "enum": list(BIDDABLE)},
              "space": {"type": "integer", "description": "the space's bid value"},
              "from": _SOURCE},
             ("building", "space", "from"),
             {"type": "bid", "building": "horse_trader", "space": 9, "from": "supply"}),
    MoveKind("bank", "place a trader in the Bank: your bidding traders and supply go to the "
             "Market and you pass", {"from": _SOURCE}, ("from",),
             {"type": "bank", "from": "supply"}),
    MoveKind("market", "place a trader in the Market of Pu'er", {"from": _SOURCE}, ("from",),
             {"type": "market", "from": "supply"}),
    MoveKind("pass", "pass: the rest of your personal supply goes to the Market"),
    MoveKind("resolve", "resolve your bid(s) in this building next",
             {"building": {"type": "string", "enum": list(BIDDABLE)}}, ("building",),
             {"type": "resolve", "building": "horse_trader"}),
    MoveKind("block", "place the Gorge Blocker across a gorge (Dianmu Temple)",
             {"gorge": {"type": "string", "enum": list(GORGE_IDS)}}, ("gorge",),
             {"type": "block", "gorge": GORGE_IDS[0]}),
    MoveKind("yard", "take a structure from the Building Yard; with 'place' build it at once, "
             "without it keep it in your personal supply (a guard must be placed)",
             {"structure": {"type": "string", "enum": [*BUILDABLE, GUARD]}, "place": _PLACE},
             ("structure",), {"type": "yard", "structure": "teahouse", "place": "yunnan"}),
    MoveKind("build", "build a structure from your personal supply",
             {"structure": {"type": "string", "enum": list(BUILDABLE)}, "place": _PLACE},
             ("structure", "place"), {"type": "build", "structure": "trading_post",
                                      "place": "yunnan"}),
    MoveKind("step", "move a trader across one border (starting its journey, or continuing "
             "the journey under way)",
             {"from": {"type": "string", "enum": [MARKET, *PROVINCES]}, "to": _PROVINCE},
             ("from", "to"), {"type": "step", "from": "market", "to": "yunnan"}),
    MoveKind("stop", "end the journey under way in the province the trader is in"),
    MoveKind("displace", "displace one trader of this owner (participant index; Dúlì is 2 in a "
             "2-player game) from the province your trader's journey ended in",
             {"owner": {"type": "integer", "minimum": 0}}, ("owner",),
             {"type": "displace", "owner": 1}),
    MoveKind("no_displace", "displace nobody at the end of this journey"),
    MoveKind("done", "end your Build & Travel turn (isolated traders go to the Market)"),
    MoveKind("convert", "convert this many coins of this round's income into victory points",
             {"points": {"type": "integer", "minimum": 0}}, ("points",),
             {"type": "convert", "points": 10}),
)

SPEC = GameSpec(
    name="yunnan", title="Yunnan (Second Edition)", min_players=2, max_players=5,
    rules_version=RULES_VERSION, options=OPTIONS, moves=MOVES,
    hidden=("the order of Dúlì's draw pile (2 players)",),
    summary="Tea traders on the Tea Horse Road: bid for progress in Pu'er, travel, displace, "
            "earn income and victory points. 2 players play with the Dúlì automaton.",
)
