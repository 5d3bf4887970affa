"""The bodies of bot protocol v1's POSTs (/start, /move, /end), built from a match (no I/O).

One builder per call, used by the bot driver, the arena's /end, the in-process functions
(arena/local.py) and the example generator (clients/protocol/make_examples.py), so the
examples are the requests bots really get. `match` is the match id (a string) in all three;
`game` and `rules_version` sit beside it (arena/protocol_spec.py is the schema).
"""

from __future__ import annotations

from arena.protocol import API_VERSION

LIMIT_KEYS = ("move_ms", "bank_ms", "start_ms")


def start_request(meta, seat: int, limits: dict) -> dict:
    """POST /start: the match (id, game, rules version, players, options, seat names), the
    bot's seat, and the time limits."""
    return {"apiversion": API_VERSION, "match": meta.id, "game": meta.game,
            "rules_version": meta.rules_version, "seat": seat, "players": meta.players,
            "options": meta.options, "seats": [s.get("name") for s in meta.seats],
            "limits": {k: limits[k] for k in LIMIT_KEYS}}


def move_request(meta, version: int, seat: int, decision: dict, view, legal_moves: list,
                 time_left: dict, previous_latency_ms) -> dict:
    """POST /move: the pending decision with the seat's view and legal moves, the time the
    answer may take (`time_left`: move_ms, bank_ms, allowed_ms) and the previous latency."""
    return {
        "apiversion": API_VERSION, "match": meta.id, "game": meta.game,
        "rules_version": meta.rules_version, "seat": seat, "version": version,
        "decision": decision, "view": view, "legal_moves": legal_moves, "time": time_left,
        "previous_latency_ms": float(previous_latency_ms)
        if previous_latency_ms is not None else None,
    }


def time_left(limits: dict, bank: float, allowed_ms: float) -> dict:
    """The /move request's `time`: the per-move limit, the bank left, the whole allowance."""
    return {"move_ms": limits["move_ms"], "bank_ms": round(bank, 1),
            "allowed_ms": round(allowed_ms, 1)}


def end_request(meta, seat: int, result: dict, view) -> dict:
    """POST /end: the result and the seat's final view."""
    return {"apiversion": API_VERSION, "match": meta.id, "game": meta.game,
            "rules_version": meta.rules_version, "seat": seat, "result": result, "view": view}
