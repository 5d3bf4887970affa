"""The state document and its validation: keys, ranges, and conservation of every piece.

The state is plain JSON-able data (see `setup.setup` for its shape). `validate` is linear in
its size and checks what a corrupted or hand-edited document could get wrong: every tile and
card exactly once somewhere, each player's 12 Peasants and 8 Overseers accounted for.
"""

from __future__ import annotations

from collections import Counter

from referee.core import InvalidOptions, InvalidState
from referee.games.yinzi_ming import data

KEYS = {"players", "options", "seed", "round", "phase", "stage", "order", "queue", "active",
        "turn_no", "dial", "roll", "occupants", "tiles", "covered", "admin", "trade_slots", "seats", "turn", "final",
        "markets", "market_deck", "market_discard", "register", "crop_deck", "crop_discard",
        "display", "workshop_deck", "workshops", "port", "ship_deck", "ships_sailed"}
SEAT_KEYS = {"sapeques", "yinzi", "stone", "ambassador", "peasants", "overseers", "ship_vp",
             "tax_vp", "deck", "cards", "gone", "spaces", "turns"}
STAGES = {"placement": {"place"}, "bonus": {"merchant", "crop_tile"},
          "directives": {"choose", "act"}, "regulation": {"step"}, "over": {None}}


def require(condition, message: str) -> None:
    """Raise InvalidState with `message` unless `condition` holds."""
    if not condition:
        raise InvalidState(f"invalid yinzi-ming state: {message}")


def _nat(value, what: str) -> None:
    require(isinstance(value, int) and not isinstance(value, bool) and value >= 0,
            f"{what} must be a non-negative integer, got {value!r}")


def _exactly_once(found: list, expected, what: str) -> None:
    counts = Counter(found)
    require(set(counts) == set(expected) and all(c == 1 for c in counts.values()),
            f"every {what} must be in exactly one place")


def validate(s, spec) -> None:
    """Raise InvalidState with the reason if `s` is not a consistent state."""
    require(isinstance(s, dict), "a state is an object")
    require(set(s) == KEYS, f"keys must be {sorted(KEYS)}, missing {sorted(KEYS - set(s))}, "
                            f"unknown {sorted(set(s) - KEYS)}")
    players = s["players"]
    require(players in range(data.MIN_PLAYERS, data.MAX_PLAYERS + 1), "bad player count")
    try:
        require(spec.resolve_options(s["options"]) == s["options"], "options incomplete")
    except InvalidOptions as err:
        raise InvalidState(f"invalid yinzi-ming state: {err.message}") from err
    _nat(s["seed"], "seed")
    _check_cursor(s, players)
    _check_board(s, players)
    _check_decks(s)
    require(isinstance(s["seats"], list) and len(s["seats"]) == players, "one seat per player")
    for seat, st in enumerate(s["seats"]):
        _check_seat(s, seat, st)


def _check_cursor(s, players: int) -> None:
    require(1 <= s["round"] <= data.ROUNDS, f"round {s['round']!r} out of range")
    require(s["phase"] in STAGES and s["stage"] in STAGES[s["phase"]],
            f"phase/stage {s['phase']!r}/{s['stage']!r} unknown")
    require(sorted(s["order"]) == list(range(players)), "order must list every seat once")
    require(all(q in s["order"] for q in s["queue"]), "queue holds unknown seats")
    if s["phase"] == "over":
        require(s["active"] is None and isinstance(s["final"], dict), "a finished game has scores")
    else:
        require(s["active"] in s["order"] and s["final"] is None, "active seat unknown")
    _nat(s["turn_no"], "turn_no")
    require(s["turn_no"] < data.TURNS * players or s["phase"] != "directives", "turn_no too big")
    require(s["dial"] in data.DIAL, f"dial space {s['dial']!r} unknown")
    require(s["roll"] is None or 1 <= s["roll"] <= data.DIE, "die roll out of range")
    needs_turn = s["stage"] in ("crop_tile", "act", "step")
    require((s["turn"] is not None) == needs_turn, f"stage {s['stage']} and turn disagree")
    if needs_turn:
        require(isinstance(s["turn"], dict) and s["turn"].get("seat") == s["active"],
                "the turn record belongs to the active seat")


def _check_board(s, players: int) -> None:
    seats = range(players)
    for sid, held in s["occupants"].items():
        require(sid in data.SPACES and held["owner"] in seats and set(held) == {"owner", "count"},
                f"occupant of {sid!r} bad")
        require(isinstance(held["count"], int) and held["count"] >= 1, f"{sid} count bad")
    require(all(f in data.FIELD_IDS and t in data.CROP_TILES for f, t in s["tiles"].items()),
            "Crop tiles lie on Fields")
    pairs = {(f, w) for w, shop in s["workshops"].items() for f in shop["fields"]}
    require(set(s["covered"].items()) == pairs and len(s["covered"]) == len(pairs),
            "covered Fields and Workshops disagree")
    require(all(f in data.FIELD_IDS for f, _ in pairs), "Workshops lie on Fields")
    for wid, shop in s["workshops"].items():
        require(wid in data.WORKSHOP_TILES and shop["owner"] in seats, f"Workshop {wid} bad")
        require(1 <= shop["level"] <= data.MAX_LEVEL, f"Workshop {wid} level out of range")
        _nat(shop["goods"], f"{wid} goods")
        _nat(shop["produced"], f"{wid} produced")
        require(len(shop["fields"]) == data.BUILD_FIELDS, f"Workshop {wid} fields")
    require(set(s["markets"]) == set(data.PROVINCES), "one market per Province")
    for prov, market in s["markets"].items():
        require(market["tile"] in data.MARKETS and len(market["spaces"]) ==
                len(data.MARKETS[market["tile"]]["spaces"]), f"{prov} market bad")
        require(all(o is None or o in seats for o in market["spaces"]), f"{prov} market owner")
    require(set(s["admin"]) == set(data.BENEFIT_IDS), "admin must list every benefit space")
    for b, taken in s["admin"].items():
        require(taken is None or (taken["owner"] in seats and 1 <= taken["round"] <= data.ROUNDS),
                f"benefit {b} bad")
    require(sorted(s["trade_slots"]) == sorted(data.TRADE_ACTIONS), "trade slots bad")
    require(len(s["register"]) == len(data.SLOTS) and all(
        r["merchant"] is None or r["merchant"] in seats for r in s["register"]), "register bad")
    for ship in s["port"]:
        require(ship["ship"] in data.SHIPS and len(ship["slots"]) ==
                len(data.SHIPS[ship["ship"]]["goods"]), "port ship bad")


def _check_decks(s) -> None:
    on_board = [m["tile"] for m in s["markets"].values()]
    _exactly_once(on_board + s["market_deck"] + s["market_discard"], data.MARKETS,
                  "Local Market tile")
    placed = list(s["tiles"].values())
    shown = [r["tile"] for r in s["register"] if r["tile"] is not None]
    _exactly_once(placed + shown + s["crop_deck"] + s["crop_discard"], data.CROP_TILES,
                  "Crop tile")
    display = [t for t in s["display"] if t is not None]
    require(len(s["display"]) == data.DISPLAY, "Workshop display size")
    _exactly_once(display + s["workshop_deck"] + list(s["workshops"]), data.WORKSHOP_TILES,
                  "Workshop tile")
    _exactly_once([p["ship"] for p in s["port"]] + s["ship_deck"] + s["ships_sailed"],
                  data.SHIPS, "Ship tile")


def _check_seat(s, seat: int, st) -> None:
    require(isinstance(st, dict) and set(st) == SEAT_KEYS, f"seat {seat} keys")
    for key in ("sapeques", "yinzi", "stone", "peasants", "overseers", "ship_vp", "turns"):
        _nat(st[key], f"seat {seat} {key}")
    require(isinstance(st["tax_vp"], int) and st["tax_vp"] <= 0, f"seat {seat} tax_vp")
    require(data.TRACK_FIRST <= st["ambassador"] <= data.TRACK_LAST, f"seat {seat} Ambassador")
    cards = [c["card"] for c in st["cards"]]
    _exactly_once(st["deck"] + cards + st["gone"], range(len(data.CARDS)),
                  f"Order card of seat {seat}")
    require(set(st["spaces"]) == set(data.ACTIONS) and all(
        c is None or c in cards for c in st["spaces"].values()), f"seat {seat} action spaces")
    on_fields = sum(h["count"] for h in s["occupants"].values() if h["owner"] == seat)
    on_markets = sum(m["spaces"].count(seat) for m in s["markets"].values())
    require(st["peasants"] + on_fields + on_markets == data.PEASANTS,
            f"seat {seat} Peasants do not add up to {data.PEASANTS}")
    on_cards = sum(c["overseers"] for c in st["cards"])
    on_shops = sum(data.BUILD_OVERSEERS + (w["level"] - 1) * data.UPGRADE_OVERSEERS
                   for w in s["workshops"].values() if w["owner"] == seat)
    on_admin = sum(data.CORRUPT_OVERSEERS for t in s["admin"].values()
                   if t is not None and t["owner"] == seat)
    require(st["overseers"] + on_cards + on_shops + on_admin == data.OVERSEERS,
            f"seat {seat} Overseers do not add up to {data.OVERSEERS}")
