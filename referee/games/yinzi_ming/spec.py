"""What Yinzi: Ming declares about itself: options (ambiguities A1-A4 and more), moves, hidden info."""

from __future__ import annotations

from referee.core import GameSpec, MoveKind, OptionSpec
from referee.games.yinzi_ming import data

RULES_VERSION = "5"
"""2: a build names its three Fields in any order; 3: loaded Ships sail; 4: the register and
starting Stone rebalanced (issue 13); 5: a sixth register slot (Kiln Licence) and tax only for
Workshops that made a Good this round (issue 13)."""

OPTIONS = (
    OptionSpec("unattended_excludes_workshops", "bool", True,
               "A1: a Field covered by a Workshop is never 'unattended' (no Peasant may be "
               "deployed or a Crop tile placed there). Off: 'unattended' only means 'no "
               "Peasant', so covered Fields take Peasants and Crop tiles again."),
    OptionSpec("supply_ignores_transport", "bool", True,
               "A2: Peasants placed from the supply (Deploy, Crop tiles) cost no transport. "
               "Off: the supply is at the Port, so each Peasant placed costs 1 point of the "
               "turn's allowance (the Ambassador's space in a Bonus turn)."),
    OptionSpec("yangtze_capacity", "choice", "cost",
               "A3: 'The Yangtze connects all Provinces with capacity 1'. 'cost': a move between "
               "any two Provinces costs at most 1 point. 'throughput': the Yangtze carries one "
               "piece per turn at 1 point; other moves pay 1 per border crossed by land. On the "
               "shipped map every pair of Provinces shares a border, so both agree there.",
               choices=("cost", "throughput")),
    OptionSpec("command_after_trade", "bool", True,
               "A4: a card whose bottom half (Trade Directive) was used first can still be used "
               "for its top half (Command Directive). Off: a card's bottom half can be used only "
               "after its top half."),
    OptionSpec("exclusive_trade_slots", "bool", False,
               "Each Trade action (Produce, Ship, Quarry) has (players - 1) slots per round; each "
               "use fills one; the slots clear in Maintenance."),
    OptionSpec("ships_sail", "choice", "loaded",
               "When a Ship at the Port sails in Maintenance. 'loaded' (the completion since "
               "rules 3): every Ship carrying at least one Good sails and is replaced, so the "
               "Port offers new demands each round. 'full' (rules 1-2): only a Ship whose every "
               "slot is filled sails.", choices=("loaded", "full")),
    OptionSpec("exchange_in_bonus_turn", "bool", False,
               "The fragment's 'during your turn you may exchange' also covers your Bonus turn "
               "(phase B), e.g. to pay for a Crop tile. Off (the completion, 5.5): only in your "
               "Directive turns and your Regulation step."),
)

_SPACE = {"type": "string", "enum": data.SPACE_IDS}
_FIELD = {"type": "string", "enum": data.FIELD_IDS}
_PROVINCE = {"type": "string", "enum": data.PROVINCES}
_INDEX = {"type": "integer", "minimum": 0, "maximum": data.MARKET_SPACES - 1}
_SLOT = {"type": "integer", "minimum": 1, "maximum": len(data.SLOTS)}
_CARD = {"type": "integer", "minimum": 0, "maximum": len(data.CARDS) - 1}
_WORKSHOP = {"type": "string", "enum": sorted(data.WORKSHOP_TILES)}
_DIRECTION = {"type": "string", "enum": ["buy", "sell"]}


def _kind(type_, description, fields=None, example=None):
    fields = fields or {}
    example = {"type": type_, **(example or {})}
    return MoveKind(type_, description, fields, tuple(fields), example)


MOVES = (
    _kind("place_start", "Setup: put your 2 starting Peasants on an unattended Rice, Maize or "
          "Salt Mine space.", {"space": _SPACE}, {"space": "YZ1"}),
    _kind("merchant", "Phase B: put your Merchant on an empty Bonus register slot (1 = top) and "
          "take its benefit.", {"slot": _SLOT}, {"slot": 2}),
    _kind("buy_tile", "Phase B: buy the Crop tile beside your Merchant's slot and place it with "
          "2 Peasants on an unattended Field.", {"field": _FIELD}, {"field": "CZ3"}),
    _kind("decline", "Phase B: do not buy the Crop tile beside your Merchant's slot."),
    _kind("command", "Phase C: use a revealed card's top half as a Command Directive, tucking "
          "it under an empty action space.",
          {"card": _CARD, "action": {"type": "string", "enum": data.ACTIONS}},
          {"card": 4, "action": "sell"}),
    _kind("trade", "Phase C: use a revealed card's bottom half as a Trade Directive.",
          {"card": _CARD}, {"card": 0}),
    _kind("advance", "Increase Transport Capacity: move your Ambassador one space."),
    _kind("deploy", "Deploy Peasants: 1 Peasant on an unattended light-crop Field, or 2 on an "
          "unattended Rice, Maize or Salt Mine space.", {"space": _SPACE}, {"space": "SZ2"}),
    _kind("deploy_tile", "Deploy Peasants: buy the Crop tile in register slot `slot` and place "
          "it with 2 Peasants on an unattended Field (once per Command).",
          {"slot": _SLOT, "field": _FIELD}, {"slot": 5, "field": "TZ4"}),
    _kind("sell", "Sell at Local Markets: move one of your Peasants from `space` to the vacant "
          "market space `index` of `market`'s Local Market.",
          {"space": _SPACE, "market": _PROVINCE, "index": _INDEX},
          {"space": "YZ1", "market": "yangzhou", "index": 0}),
    _kind("build", "Build: pay 1 Stone (none for a first Workshop with the Kiln Licence), "
          "place the displayed Workshop `tile` over 3 unattended Fields of one Province (in any "
          "order), mark it with an Overseer.",
          {"tile": _WORKSHOP, "fields": {"type": "array", "items": _FIELD,
                                         "minItems": data.BUILD_FIELDS,
                                         "maxItems": data.BUILD_FIELDS, "uniqueItems": True}},
          {"tile": "W03", "fields": ["SZ1", "SZ2", "SZ3"]}),
    _kind("upgrade", "Upgrade your Workshop one level (3 Sapeques to II, 5 to III) and add an "
          "Overseer.", {"workshop": _WORKSHOP}, {"workshop": "W03"}),
    _kind("corrupt", "Corrupt Administration: put an Overseer on an empty benefit space.",
          {"benefit": {"type": "string", "enum": data.BENEFIT_IDS}}, {"benefit": "B3"}),
    _kind("produce", "Trade: your Workshop takes a Peasant of its input crop from a Local Market "
          "space (returned to its owner) and makes 1 Good.",
          {"workshop": _WORKSHOP, "market": _PROVINCE, "index": _INDEX},
          {"workshop": "W03", "market": "suzhou", "index": 1}),
    _kind("ship", "Trade: move 1 Good from your Workshop to the Port, onto the vacant matching "
          "slot of ship `ship` (1 Yinzi + 2 VP).",
          {"workshop": _WORKSHOP, "ship": {"type": "string", "enum": sorted(data.SHIPS)}},
          {"workshop": "W03", "ship": "S2"}),
    _kind("quarry", "Trade: pay 2 Sapeques, gain 1 Stone."),
    _kind("exchange", "Exchange at the displayed rate R: 'buy' pays R Sapeques for 1 Yinzi, "
          "'sell' gives R Sapeques for 1 Yinzi.", {"direction": _DIRECTION},
          {"direction": "buy"}),
    _kind("mint", "Use Mint Contact (B4): one exchange at R-1 (buy, at least 1) or R+1 (sell).",
          {"direction": _DIRECTION}, {"direction": "sell"}),
    _kind("benefit", "Use a one-shot Administration benefit you hold (B1 Tax Waiver in "
          "Regulation; B2 River Permit, B5 Prefect's Seal in a Directive; B3 Quarry Grant in "
          "either).", {"benefit": {"type": "string", "enum": data.USABLE_BENEFITS}},
          {"benefit": "B3"}),
    _kind("overseer", "Put an extra Overseer from your supply on this turn's card: +1 action "
          "(at most 4 in all)."),
    _kind("done", "End your Directive turn or your Regulation step (tax is then paid)."),
)

SPEC = GameSpec(
    name="yinzi-ming", title="Yinzi: Ming", min_players=data.MIN_PLAYERS,
    max_players=data.MAX_PLAYERS, rules_version=RULES_VERSION, options=OPTIONS, moves=MOVES,
    hidden=("the order of every deck (each player's Order cards, Crop tiles, Workshops, "
            "Local Market tiles, Ships)",
            "every player's unrevealed Order cards (identical decks: only their order is unknown)",
            "future die rolls"),
    summary="Merchant clans of the late Ming on the lower Yangtze: four rounds of exchange, "
            "bonuses, Directives (Commands and Trade), Regulation and Maintenance. The rulebook "
            "fragment holds to the letter; the rest follows the project's documented completion.",
)
