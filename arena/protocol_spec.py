"""Bot protocol v1 as an OpenAPI 3 document: the endpoints a bot serves and we call."""

from __future__ import annotations

from arena.protocol import NONCE_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER
from referee.service.described import view_schema

_SIGNED = [
    {"name": TIMESTAMP_HEADER, "in": "header", "required": True, "schema": {"type": "string"},
     "description": "Unix seconds when the request was signed; refuse it if far from now."},
    {"name": NONCE_HEADER, "in": "header", "required": True, "schema": {"type": "string"},
     "description": "Unique per request; refuse a nonce you have seen (replay)."},
    {"name": SIGNATURE_HEADER, "in": "header", "required": True, "schema": {"type": "string"},
     "description": "'v1=' + hex HMAC-SHA256(your secret, timestamp + '.' + nonce + '.' + "
                    "raw body). Refuse the request if it does not match."},
]

_OBJ = {"type": "object"}

_SCHEMAS = {
    "Info": {"type": "object", "required": ["apiversion"], "properties": {
        "apiversion": {"type": "string", "enum": ["1"]}, "name": {"type": "string"},
        "author": {"type": "string"}, "version": {"type": "string"},
        "games": {"type": "array", "items": {"type": "string"}}}},
    "Start": {"type": "object", "properties": {
        "apiversion": {"type": "string"}, "seat": {"type": "integer"},
        "match": {"type": "object", "properties": {
            "id": {"type": "string"}, "game": {"type": "string"},
            "rules_version": {"type": "string"}, "players": {"type": "integer"},
            "options": _OBJ, "seats": {"type": "array", "items": {"type": "string"}}}},
        "limits": {"type": "object", "properties": {
            "move_ms": {"type": "integer"}, "bank_ms": {"type": "integer"},
            "start_ms": {"type": "integer"}}}}},
    "MoveRequest": {"type": "object", "properties": {
        "apiversion": {"type": "string"}, "match": {"type": "string"},
        "game": {"type": "string"}, "rules_version": {"type": "string"},
        "seat": {"type": "integer"}, "version": {"type": "integer"},
        "decision": {"type": "object", "description": "seat, kind, move_types, sealed, prompt"},
        "view": {"allOf": [{"$ref": "#/components/schemas/View"}],
                 "description": "what your seat may see (GET /v1/games/{game})"},
        "legal_moves": {"type": "array", "items": _OBJ,
                        "description": "every legal move: answer one of them"},
        "time": {"type": "object", "properties": {
            "move_ms": {"type": "integer", "description": "per-move limit"},
            "bank_ms": {"type": "number", "description": "your match time bank left"},
            "allowed_ms": {"type": "number", "description": "move_ms + bank_ms: past this "
                                                            "you time out"}}},
        "previous_latency_ms": {"type": "number", "nullable": True,
                                "description": "your previous answer's latency as we "
                                               "measured it (round trip included)"}}},
    "MoveAnswer": {"type": "object", "required": ["move"], "properties": {
        "move": {"type": "object", "description": "a move with a 'type' (one of legal_moves)"},
        "debug": {"type": "string", "description": "optional: what the bot thought (at most "
                  "1 KiB of UTF-8 kept, longer is cut and marked); kept apart from the move, "
                  "shown only to the bot's owner (and after the match to everyone if the "
                  "owner set debug_public), never to the other bots"}}},
    "End": {"type": "object", "properties": {
        "apiversion": {"type": "string"}, "match": {"type": "string"},
        "game": {"type": "string"}, "seat": {"type": "integer"},
        "result": {"type": "object", "description": "scores, ranks, termination, failures"},
        "view": {"allOf": [{"$ref": "#/components/schemas/View"}]}}},
}


def view_components(games) -> dict:
    """`<game>.SeatView` per game and `View`, any of them (a bot sees only its seat's view)."""
    schemas = {f"{g.spec.name}.SeatView": view_schema(g, False) for g in games}
    refs = [{"$ref": f"#/components/schemas/{name}"} for name in schemas]
    return {**schemas, "View": {"oneOf": refs} if refs else {"type": "object"}}


def _post(summary: str, request: str, answer: str | None, text: str) -> dict:
    ok = {"description": "accepted"}
    if answer:
        ok["content"] = {"application/json": {"schema": {"$ref": f"#/components/schemas/{answer}"}}}
    return {"post": {"summary": summary, "description": text, "parameters": _SIGNED,
                     "requestBody": {"required": True, "content": {"application/json": {
                         "schema": {"$ref": f"#/components/schemas/{request}"}}}},
                     "responses": {"200": ok}}}


def protocol_openapi(games=()) -> dict:
    """The document; `view` fields refer to the view schemas of `games` (a registry)."""
    return {
        "openapi": "3.0.3",
        "info": {"title": "Referee bot protocol", "version": "1",
                 "description": (
                     "What a bot serves. We call GET / when the bot registers, POST /start "
                     "before its first move of a match, POST /move for every decision, POST "
                     "/end when the match is over. A timeout, an unreachable bot, an HTTP "
                     "error, an answer that is not {\"move\": …}, or an illegal move is a "
                     "failure with a code (bot.timeout, bot.unreachable, bot.http_error, "
                     "bot.bad_response, bot.illegal_move); by default the bot forfeits (it "
                     "ranks last, and the referee plays its remaining moves at random).")},
        "paths": {
            "/": {"get": {"summary": "Who you are", "responses": {"200": {
                "description": "your info", "content": {"application/json": {
                    "schema": {"$ref": "#/components/schemas/Info"}}}}}}},
            "/start": _post("A match begins", "Start", None,
                            "Answer 2xx within start_ms."),
            "/move": _post("Choose a move", "MoveRequest", "MoveAnswer",
                           "Answer within time.allowed_ms; time over move_ms comes off your "
                           "bank."),
            "/end": _post("A match ended", "End", None, "Answer 2xx; failures here are "
                                                        "logged, never held against you."),
        },
        "components": {"schemas": {**_SCHEMAS, **view_components(games)}},
    }
