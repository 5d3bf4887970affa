"""Yunnan's tables, read once from seeds/yunnan/*.json (each value tagged there) into constants.

Provinces, gorges and buildings are indices internally; moves and views use their names.
"""

from __future__ import annotations

from referee.core.seeds import load_table, untag

GAME = "yunnan"

_BOARD = untag(load_table(GAME, "board.json"))
_PLAYERS = untag(load_table(GAME, "players.json"))
_BUILDINGS = untag(load_table(GAME, "buildings.json"))
_DULI = untag(load_table(GAME, "duli.json"))

PROVINCES: tuple[str, ...] = tuple(_BOARD["provinces"])
"""Province names in Tea Horse Road order, Yunnan (nearest Pu'er) first."""
NPROV = len(PROVINCES)
PROV_INDEX = {name: i for i, name in enumerate(PROVINCES)}
TOP = NPROV - 1
"""Index of the farthest province (the horse's last step)."""
MARKET = "market"
SUPPLY = "supply"

INCOME = tuple(_BOARD["income"][p] for p in PROVINCES)
MARKET_INCOME: int = _BOARD["market_income"]
GAP_COST: int = _BOARD["gap_cost"]
PRESENTS = tuple(_BOARD["presents"][p] for p in PROVINCES)
PRESENT_VP: int = _BOARD["present_vp"]
TEAHOUSE_VP = tuple(_BOARD["teahouse_vp"][p] for p in PROVINCES)
HORSE_VP = tuple(_BOARD["horse_vp"][p] for p in PROVINCES)
STABLES = PROV_INDEX[_BOARD["stables"]]

GORGES: tuple[tuple[int, int], ...] = tuple(
    tuple(sorted((PROV_INDEX[a], PROV_INDEX[b]))) for a, b in _BOARD["gorges"])
"""Each gorge as a (lower, higher) pair of province indices."""
GORGE_IDS = tuple(f"{PROVINCES[a]}-{PROVINCES[b]}" for a, b in GORGES)
GORGE_INDEX = {gid: g for g, gid in enumerate(GORGE_IDS)}
ROAD = tuple(tuple(j for j in (i - 1, i + 1) if 0 <= j < NPROV) for i in range(NPROV))
"""Tea Horse Road neighbours of each province."""
GORGES_AT = tuple(tuple((g, b if a == i else a) for g, (a, b) in enumerate(GORGES) if i in (a, b))
                  for i in range(NPROV))
"""For each province, the (gorge, other province) pairs of the gorges at its border."""

START_COINS = tuple(_PLAYERS["start_coins"])
START_TRADERS: int = _PLAYERS["start_traders"]
MAX_TRADERS: int = _PLAYERS["max_traders"]
STRUCTURES: dict = dict(_PLAYERS["structures"])
BUILDABLE = tuple(STRUCTURES)
"""Structures built on the board: trading_post, bridge, teahouse."""
GUARD = "guard"
GUARDS: int = _PLAYERS["guards"]
PASSES_MIN: int = _PLAYERS["passes"]["min"]
PASSES_MAX: int = _PLAYERS["passes"]["max"]
INFLUENCE_MIN: int = _PLAYERS["influence"]["min"]
INFLUENCE_MAX: int = _PLAYERS["influence"]["max"]
PROGRESS_VP = tuple(_PLAYERS["progress_vp"])
COINS_PER_VP: int = _PLAYERS["coins_per_vp"]
END_VP: int = _PLAYERS["end_vp"]
IMMUNE_INFLUENCE: int = _PLAYERS["inspector_immune_influence"]

PROGRESS = tuple(_BUILDINGS["progress"])
"""The five Progress Buildings."""
TEMPLE = "temple"
BIDDABLE = (*PROGRESS, TEMPLE)
"""Buildings with numbered bid spaces."""
TRADING_SCHOOL, CUSTOMS_OFFICE, HORSE_TRADER, TRADERS_GUILD, BUILDING_YARD = PROGRESS
SPACES = {**{b: tuple(_BUILDINGS["progress_spaces"]) for b in PROGRESS},
          TEMPLE: tuple(_BUILDINGS["temple_spaces"])}
"""Bid values of each building's spaces, cheapest first."""
SMALL = {**{b: frozenset(_BUILDINGS["progress_small"]) for b in PROGRESS},
         TEMPLE: frozenset(_BUILDINGS["temple_spaces"])}
"""The small spaces: bid only as the highest bid; outbid by any higher bid."""
BANK_SPACES: int = _BUILDINGS["bank_spaces"]
BANK_PAYOUT = tuple((band["min"], band["coins"]) for band in _BUILDINGS["bank_payout"])

DULI_TRADERS: int = _DULI["traders"]
DULI_POSTS = tuple(PROV_INDEX[p] for p in _DULI["trading_posts"])
DULI_FIRST_BID = (_DULI["initial_bid"]["building"], _DULI["initial_bid"]["space"])
DULI_BANK_COVERED: int = _DULI["bank_spaces_covered"]
DULI_MAX_TEAHOUSES: int = _DULI["max_teahouses"]
DULI_CARDS = {card["id"]: card for card in _DULI["cards"]}
DULI_CARD_IDS = tuple(sorted(DULI_CARDS))


def bank_payout(total: int) -> int:
    """Coins each Bank trader receives for a round whose bids add up to `total`."""
    coins = BANK_PAYOUT[0][1]
    for low, pay in BANK_PAYOUT:
        if total >= low:
            coins = pay
    return coins


def progress_vp(level: int) -> int:
    """End-game VP of a progress track position counted from its lowest level (0-based)."""
    return PROGRESS_VP[level]
