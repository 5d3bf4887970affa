"""The game's tables, loaded once from seeds/yinzi-ming/*.json and indexed for the rules.

Every number and list the rules use comes from here, so the publisher's rulebook, if it ever
turns up, is a change to the JSON files, not to the rules code.
"""

from __future__ import annotations

from referee.core.seeds import load_table, untag

GAME = "yinzi-ming"
TABLES = ("map.json", "components.json", "orders.json", "exchange.json", "register.json",
          "markets.json", "workshops.json", "ships.json", "administration.json", "scoring.json")


def table(name: str) -> dict:
    """The untagged table `seeds/yinzi-ming/<name>`."""
    return untag(load_table(GAME, name))


_MAP = table("map.json")
_COMP = table("components.json")
_ORD = table("orders.json")
_EXC = table("exchange.json")
_REG = table("register.json")
_MKT = table("markets.json")
_WS = table("workshops.json")
_SHIPS = table("ships.json")
_ADM = table("administration.json")
_SCORE = table("scoring.json")

# --- the map ---------------------------------------------------------------------------
PROVINCES = [p["id"] for p in _MAP["provinces"]]
PORT = _MAP["port"]["id"]
PORT_LINKS = frozenset(_MAP["port"]["links"])
YANGTZE = frozenset(_MAP["yangtze_links"])
COST_WITHIN = _MAP["costs"]["within_province"]
COST_BORDER = _MAP["costs"]["per_border"]
COST_PORT = _MAP["costs"]["port"]
COST_YANGTZE = _MAP["costs"]["yangtze"]
YANGTZE_PIECES = _MAP["costs"]["yangtze_pieces_per_turn"]
SINGLE = frozenset(_MAP["crops"]["single_peasant"])
DOUBLE = frozenset(_MAP["crops"]["two_peasants"])
SALT = _MAP["crops"]["salt"]
TRACK_FIRST = _MAP["transport_track"]["first"]
TRACK_LAST = _MAP["transport_track"]["last"]
TRACK_STEP = _MAP["transport_track"]["per_action"]


def _spaces() -> dict:
    """Every board space id -> {province, kind (field/salt), printed crop}, in board order."""
    spaces = {}
    abbrev = {p["id"]: p["code"] for p in _MAP["provinces"]}
    for prov in PROVINCES:
        for i, crop in enumerate(_MAP["fields"][prov], 1):
            spaces[f"{abbrev[prov]}{i}"] = {"province": prov, "kind": "field", "crop": crop}
        for i in range(1, _MAP["salt_mines"][prov] + 1):
            spaces[f"{abbrev[prov]}M{i}"] = {"province": prov, "kind": "salt", "crop": SALT}
    return spaces


SPACES = _spaces()
SPACE_IDS = list(SPACES)
SPACE_ORDER = {sid: i for i, sid in enumerate(SPACE_IDS)}
FIELD_IDS = [s for s in SPACE_IDS if SPACES[s]["kind"] == "field"]
FIELDS_BY_PROVINCE = {p: [s for s in FIELD_IDS if SPACES[s]["province"] == p] for p in PROVINCES}


def _land_distances() -> dict:
    """Borders crossed on the shortest land path between two Provinces (None: no path)."""
    links = {p: set() for p in PROVINCES}
    for border in _MAP["borders"]:
        a, b = border["between"]
        links[a].add(b)
        links[b].add(a)
    dist = {}
    for start in PROVINCES:
        seen, frontier, step = {start: 0}, [start], 0
        while frontier:
            step += 1
            frontier = [n for p in frontier for n in sorted(links[p]) if n not in seen]
            for n in frontier:
                seen.setdefault(n, step)
        dist[start] = {p: seen.get(p) for p in PROVINCES}
    return dist


LAND = _land_distances()

# --- components and round structure ------------------------------------------------------
MIN_PLAYERS = _COMP["players"]["min"]
MAX_PLAYERS = _COMP["players"]["max"]
ROUNDS = _COMP["rounds"]
SKIP_LAST_MAINTENANCE = _COMP["last_round_skips_maintenance"]
PEASANTS = _COMP["per_player"]["peasants"]
OVERSEERS = _COMP["per_player"]["overseers"]
START = _COMP["start"]
START_PEASANTS = _COMP["start_peasants"]["count"]
START_CROPS = frozenset(_COMP["start_peasants"]["crops"])

# --- Order cards and Directives ----------------------------------------------------------
CARDS = [(c["top"], c["bottom"]) for c in _ORD["deck"]]
REVEALED = _ORD["revealed_per_round"]
TURNS = _ORD["turns_per_round"]
MAX_ACTIONS = _ORD["max_actions"]
ACTIONS = [a["id"] for a in _ORD["command_actions"]]
TRADE_ACTIONS = [a["id"] for a in _ORD["trade_actions"]]
QUARRY_COST = _ORD["quarry"]["sapeques"]
QUARRY_STONE = _ORD["quarry"]["stone"]

# --- exchange ----------------------------------------------------------------------------
DIE = _EXC["die_sides"]
DIAL = _EXC["dial_spaces"]
DIAL_START = _EXC["start_space"]
RATE = {int(k): v for k, v in _EXC["rate"].items()}

# --- register and Crop tiles -------------------------------------------------------------
SLOTS = _REG["slots"]
SLOT_EFFECT = {s["slot"]: s["effect"] for s in SLOTS}
SLOT_COST = {s["slot"]: s["crop_tile_cost"] for s in SLOTS}
TILE_PEASANTS = _REG["crop_tile_peasants"]
CROP_TILES = {f"C{i:02d}": crop for i, crop in enumerate(_REG["crop_tiles"], 1)}


def slot_with(kind: str) -> int | None:
    """The register slot whose benefit is of `kind`, if any."""
    return next((s["slot"] for s in SLOTS if s["effect"]["kind"] == kind), None)


BROKER_SLOT = slot_with("sale_bonus")
EXEMPT_SLOT = slot_with("tax_exempt")
KILN_SLOT = slot_with("build_stone")

# --- markets -----------------------------------------------------------------------------
MARKETS = {t["id"]: t for t in _MKT["tiles"]}
MARKET_SPACES = max(len(t["spaces"]) for t in _MKT["tiles"])
PAY = _MKT["sale_payout"]
PAY_HIGH = _MKT["high_demand_payout"]

# --- workshops ---------------------------------------------------------------------------
GOOD_INPUT = _WS["goods"]
WORKSHOP_TILES = {f"W{i:02d}": good for i, good in enumerate(_WS["tiles"], 1)}
DISPLAY = _WS["display_size"]
BUILD_STONE = _WS["build"]["stone"]
BUILD_FIELDS = _WS["build"]["fields"]
BUILD_OVERSEERS = _WS["build"]["overseers"]
BUILD_SAME_PROVINCE = _WS["build"]["same_province"]
UPGRADE_COST = {int(k): v for k, v in _WS["upgrade_cost"].items()}
UPGRADE_OVERSEERS = _WS["upgrade_overseers"]
MAX_LEVEL = _WS["max_level"]
PRODUCTION_PER_LEVEL = _WS["production_per_level"]

# --- ships -------------------------------------------------------------------------------
SHIPS = {s["id"]: s for s in _SHIPS["ships"]}
AT_PORT = _SHIPS["at_port"]
SHIP_YINZI = _SHIPS["slot_reward"]["yinzi"]
SHIP_VP = _SHIPS["slot_reward"]["vp"]

# --- administration ----------------------------------------------------------------------
BENEFITS = {b["id"]: b for b in _ADM["spaces"]}
BENEFIT_IDS = list(BENEFITS)
CORRUPT_OVERSEERS = _ADM["overseers_per_placement"]
USED_BY_BENEFIT_MOVE = ("tax_waiver", "transport", "stone", "extra_action")
"""Benefit kinds a `benefit` move uses; `mint` has its own move and `final_vp` is never used."""
USABLE_BENEFITS = [b for b in BENEFIT_IDS if BENEFITS[b]["effect"]["kind"] in USED_BY_BENEFIT_MOVE]


def benefit_with(kind: str) -> str | None:
    """The Administration space whose benefit is of `kind`, if any."""
    return next((b for b, v in BENEFITS.items() if v["effect"]["kind"] == kind), None)


# --- scoring -----------------------------------------------------------------------------
TAX_PER_WORKSHOP = _SCORE["tax_per_workshop"]
TAXED_WORKSHOPS = _SCORE["taxed_workshops"]
"""'produced': only Workshops that made a Good this round pay (rules 5); 'all': every one."""
if TAXED_WORKSHOPS not in ("produced", "all"):
    raise ValueError(f"scoring.json taxed_workshops: {TAXED_WORKSHOPS!r} is not produced/all")
UNPAID_TAX_VP = _SCORE["unpaid_tax_vp"]
VP_PER_YINZI = _SCORE["vp_per_yinzi"]
VP_PER_CONVERTED = _SCORE["vp_per_converted_yinzi"]
WORKSHOP_VP = {int(k): v for k, v in _SCORE["workshop_vp"].items()}
AMBASSADOR_OFFSET = _SCORE["ambassador_vp_offset"]
