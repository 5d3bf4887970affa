"""Yunnan's printed material for `Game.board()`: every table the engine reads from
seeds/yunnan/, each value keeping its FOUND / DERIVED / PROPOSAL tag and source.

Dúlì's cards are served with what each does, in words built from the card's own values (so the
words carry the cards' tag) and the card reading of the rulebook (`duli.json` card_reading).
"""

from __future__ import annotations

from functools import lru_cache

from referee.core.copying import deep_copy
from referee.core.seeds import load_table
from referee.games.yunnan.data import GAME, PROVINCES


def _t(description: str, value) -> dict:
    return {"description": description, "value": value}


def _card_effect(card: dict) -> str:
    bids = " > ".join(b.replace("_", " ") for b in card["bids"])
    placed = ", ".join(f"{n} {p}" for p, n in zip(PROVINCES, card["traders"]) if n)
    tea = "; a teahouse" if card["teahouse"] else ""
    return f"bids: {bids}; travel: traders {placed}{tea}"


def _cards(duli: dict) -> dict:
    cards = duli["cards"]
    return {**cards, "value": [{**c, "effect": _card_effect(c)} for c in cards["value"]]}


@lru_cache(maxsize=1)
def _board() -> dict:
    b, bu = load_table(GAME, "board.json"), load_table(GAME, "buildings.json")
    pl, du = load_table(GAME, "players.json"), load_table(GAME, "duli.json")
    return {
        "provinces": _t("the provinces in Tea Horse Road order from Pu'er (Yunnan first); "
                        "views count province indices in this order", b["provinces"]),
        "province_income": _t("coins per trader, and per trading post with a gap-free route, "
                              "in each province per round", b["income"]),
        "market_income": _t("coins per round in total for any traders in the Market of Pu'er",
                            b["market_income"]),
        "gap_cost": _t("coins a trader's revenue loses per gap on its route to Pu'er",
                       b["gap_cost"]),
        "gorges": _t("the gorges (side roads a player may bridge), as province pairs; views "
                     "count gorge indices in this order", b["gorges"]),
        "presents": _t("presents lying in each province at the start", b["presents"]),
        "present_vp": _t("victory points per present at the end", b["present_vp"]),
        "teahouse_vp": _t("victory points per teahouse, by province", b["teahouse_vp"]),
        "horse_vp": _t("victory points for the horse's final province", b["horse_vp"]),
        "stables": _t("where every horse starts (that province is reached)", b["stables"]),
        "progress_buildings": _t("the five Progress Buildings", bu["progress"]),
        "bid_spaces": _t("the bid values (coins) of each Progress Building's spaces; 'small' "
                         "ones take only the highest bid in the building and are outbid by "
                         "any higher bid", {"progress": bu["progress_spaces"],
                                            "small": bu["progress_small"]}),
        "temple_spaces": _t("the Dianmu Temple's bid values, all small", bu["temple_spaces"]),
        "bank_spaces": _t("Bank spaces (one is covered by Dúlì in a 2-player game)",
                          bu["bank_spaces"]),
        "bank_bands": _t("coins paid to each Bank trader: from 'min' of the total of all bids "
                         "(Progress Buildings and Temple) up", bu["bank_payout"]),
        "building_effects": _t("what winning a bid in each building gives, and the Bank and "
                               "the Market", bu["effects"]),
        "players": _t("per-player numbers: starting coins by blue-track position, traders, "
                      "structures, tracks and end-game tables",
                      {k: v for k, v in pl.items() if not k.startswith("$")}),
        "duli": _t("the 2-player automaton Dúlì: her set-up, how a card is read, and her 16 "
                   "cards with what each does",
                   {**{k: v for k, v in du.items() if not k.startswith("$") and k != "cards"},
                    "cards": _cards(du)}),
    }


def board() -> dict:
    """The printed tables with their tags (a copy: callers may change it)."""
    return deep_copy(_board())
