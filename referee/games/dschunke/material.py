"""Dschunke's printed material for `Game.board()`: every table the engine uses, tags kept.

Each entry is `{"description": ..., "value": ...}`, the value as it stands in
`seeds/dschunke/` (every number with its FOUND / DERIVED / PROPOSAL tag and source), so
clients draw the board and explain cards from the API instead of keeping copies.
"""

from __future__ import annotations

from referee.core.seeds import load_table

_GAME = "dschunke"


def _tables() -> tuple[dict, dict, dict, dict, dict]:
    return tuple(load_table(_GAME, name) for name in (
        "board.json", "market.json", "special_cards.json", "setup.json", "scoring.json"))


def _entry(description: str, value) -> dict:
    return {"description": description, "value": value}


def board() -> dict:
    """The board, the cards and the set-up as data, each value with its provenance tag."""
    board_, market, specials, setup_, scoring = _tables()
    return {
        "junks": _entry("The five junks in clockwise ring order; a coloured junk holds the "
                        "goods cards of its colour, merchants move one junk on each round.",
                        board_["junks"]),
        "goods": _entry("The four goods colours, in the order a sealed bid asks them.",
                        board_["goods"]),
        "goods_names": _entry("What each goods colour is.", board_["goods_names"]),
        "any_goods_junk": _entry("The junk without goods of its own: a take there chooses "
                                 "any colours.", board_["any_goods_junk"]),
        "cargo": _entry("Cargo strips: strips per layer, crates per strip, strips per "
                        "player.", board_["cargo"]),
        "actions": _entry("The actions merchants, assistant spaces and Extra Action cards "
                          "carry out, by id.", board_["actions"]),
        "action_texts": _entry("Each action in one line.", board_["action_texts"]),
        "merchants": _entry("The three merchants, by the action each carries out: the action "
                            "id, the junk it starts on, the colour of its figure.",
                            board_["merchants"]),
        "track": _entry("The assistant tracks: who plays each (player counts) and the action "
                        "id of each space, one space per round (space 1 = round 1).",
                        board_["tracks"]),
        "events": _entry("The events of each round, rounds 1-10: S (each player takes a "
                         "special card from a stack no one else chose) and Y (each player "
                         "announces their cash).", board_["events"]),
        "rounds": _entry("Rounds in a game.", board_["rounds"]),
        "market_cards": _entry("The 10 market cards: per goods colour the yuan for the sole "
                               "highest bidder in the goods poker, or S (a special card; "
                               "round 10: 3 yuan or a card).", market["cards"]),
        "special_cards": _entry("The special cards by kind: copies, effect, when played, and "
                                "their parameters.", specials["cards"]),
        "special_card_effects": _entry("Each special card's effect in one line.",
                                       specials["effects"]),
        "special_stacks": _entry("How many cards each of the four face-down stacks starts "
                                 "with.", specials["stacks"]),
        "open_timings": _entry("Special cards with these timings are laid face up when "
                               "taken; the others stay hidden until played or scored.",
                               specials["open_timings"]),
        "setup": _entry("The set-up: seat colours, goods dealt, money, resupply cards, "
                        "starting strips, the set-up variant and the fan 2-player variant.",
                        {k: v for k, v in setup_.items() if not k.startswith("$")}),
        "scoring": _entry("End-of-game scoring and fixed payouts (yuan).",
                          {k: v for k, v in scoring.items() if not k.startswith("$")}),
    }
