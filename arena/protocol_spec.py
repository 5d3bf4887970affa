"""Bot protocol v1 as an OpenAPI 3.1 document: the endpoints a bot serves and we call, every
field typed and required as we send it (clients/protocol/README.md is its prose)."""

from __future__ import annotations

from arena.protocol import API_VERSION, NONCE_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER
from arena.protocol_kinds import all_games, ref

_SIGNED = [
    {"name": TIMESTAMP_HEADER, "in": "header", "required": True,
     "schema": {"type": "string", "pattern": "^[0-9]+$"},
     "description": "Unix seconds when the request was signed; refuse it (401) if more than "
                    "300 s from your clock."},
    {"name": NONCE_HEADER, "in": "header", "required": True,
     "schema": {"type": "string", "pattern": "^[0-9a-f]{24}$"},
     "description": "24 hex digits, unique per request; refuse (401) a nonce seen in the "
                    "last 600 s (a replay). Record it only once the signature is good."},
    {"name": SIGNATURE_HEADER, "in": "header", "required": True,
     "schema": {"type": "string", "pattern": "^v1=[0-9a-f]{64}$"},
     "description": "'v1=' + lowercase hex HMAC-SHA256, key the secret's UTF-8 bytes, of "
                    "timestamp + '.' + nonce + '.' + the raw body bytes. Refuse (401) a "
                    "request whose signature does not match."},
]

_INT = {"type": "integer"}
_MS = {"type": "integer", "minimum": 1}
_STR = {"type": "string"}
_OPEN = {"type": "object", "additionalProperties": True}
"""An object of any fields: a bare `{type: object}` generated `Record<string, never>` in
TypeScript (openapi-typescript), an object no field may be in."""


def _closed(description: str, properties: dict, optional=()) -> dict:
    """An object of these properties, all required but `optional`, no others."""
    return {"type": "object", "description": description, "additionalProperties": False,
            "properties": properties, "required": [k for k in properties if k not in optional]}


_RESULT = {
    "type": "object", "required": ["scores", "ranks", "termination"],
    "description": "The match's result, as GET /v1/matches/{id} shows it",
    "properties": {
        "scores": {"type": "array", "items": _INT, "description": "per seat, whole points"},
        "ranks": {"type": "array", "items": {"type": "integer", "minimum": 1},
                  "description": "per seat, 1 the best; a forfeiting seat ranks last"},
        "termination": {"type": "string", "description": "rules, forfeit, capped, …"},
        "details": {**_OPEN, "description": "the game's own breakdown"},
        "failures": {**_OPEN, "description": "per seat (a string key), the failure "
                                                      "record: code, and our own figures"}}}

_BASE_MOVE = {
    "apiversion": {"type": "string", "const": API_VERSION},
    "match": {**_STR, "description": "the match id"},
    "game": {**_STR, "description": "the game (the request's schema: `<game>.MoveRequest`)"},
    "rules_version": _STR,
    "seat": {"type": "integer", "minimum": 0, "description": "your seat"},
    "version": {"type": "integer", "minimum": 0, "description": "the match's version (moves "
                                                                "so far)"},
    "decision": {"type": "object"},
    "view": {"type": "object", "description": "what your seat may see (`<game>.SeatView`)"},
    "legal_moves": {"type": "array", "minItems": 1, "description": "every legal move: answer "
                                                                   "one of them"},
    "time": _closed("The time your answer may take", {
        "move_ms": {**_MS, "description": "the per-move limit"},
        "bank_ms": {"type": "number", "minimum": 0, "description": "your match time bank left"},
        "allowed_ms": {"type": "number", "minimum": 0,
                       "description": "move_ms + bank_ms: past this you time out"}}),
    "previous_latency_ms": {"type": ["number", "null"],
                            "description": "your previous answer's latency as we measured it "
                                           "(round trip included); null before your first"},
}

_SCHEMAS = {
    "Info": {"type": "object", "required": ["apiversion"], "properties": {
        "apiversion": {"type": "string", "const": API_VERSION}, "name": _STR, "author": _STR,
        "version": _STR, "games": {"type": "array", "items": _STR,
                                   "description": "the games you play (registering for "
                                                  "others is refused)"}}},
    "StartRequest": _closed("POST /start, before your seat's first /move of a match", {
        "apiversion": {"type": "string", "const": API_VERSION},
        "match": {**_STR, "description": "the match id (as in /move and /end)"},
        "game": _STR, "rules_version": _STR,
        "seat": {"type": "integer", "minimum": 0, "description": "your seat"},
        "players": {"type": "integer", "minimum": 1},
        "options": {**_OPEN, "description": "the match's options as given (defaults "
                                                     "not filled in)"},
        "seats": {"type": "array", "items": {"type": ["string", "null"]},
                  "description": "each seat's public name"},
        "limits": _closed("The match's time limits", {
            "move_ms": _MS, "bank_ms": {"type": "integer", "minimum": 0}, "start_ms": _MS})}),
    "MoveAnswer": {"type": "object", "required": ["move"], "properties": {"move": {
        **_OPEN, "required": ["type"], "properties": {"type": _STR},
        "description": "one of legal_moves (its decision kind's `<game>.<kind>.Move`)"},
        "debug": {**_STR, "description": "optional: what the bot thought (at most 1 KiB of "
                  "UTF-8 kept, longer is cut and marked); kept apart from the move, shown only "
                  "to the bot's owner (and after the match to everyone if the owner set "
                  "debug_public), never to the other bots"}}},
    "EndRequest": _closed("POST /end, once the match (and every match sharing its seed) is "
                          "over", {
        "apiversion": {"type": "string", "const": API_VERSION}, "match": _STR, "game": _STR,
        "rules_version": _STR, "seat": {"type": "integer", "minimum": 0},
        "result": {"$ref": "#/components/schemas/Result"},
        "view": {**ref("View"), "description": "your final view"}}),
    "Result": _RESULT,
}

_REFUSED = {"description": "you refused the call (unsigned, stale, badly signed or replayed, "
                           "or you have no secret yet): recorded as bot.signature_refused; on "
                           "/start and /move you forfeit as for any failure"}
_OTHER = {"description": "any other status: bot.http_error (a failure: by default you "
                         "forfeit the match)"}


def _post(summary: str, request: str, answer: str | None, text: str) -> dict:
    ok = {"description": "accepted"}
    if answer:
        ok["content"] = {"application/json": {"schema": ref(answer)}}
    return {"post": {"summary": summary, "description": text, "parameters": _SIGNED,
                     "requestBody": {"required": True, "content": {"application/json": {
                         "schema": ref(request)}}},
                     "responses": {"200": ok, "401": _REFUSED, "default": _OTHER}}}


_DESCRIPTION = (
    "What a bot serves. We call GET / when the bot registers (unsigned: the bot has no secret "
    "yet), POST /start before its first move of a match, POST /move for every decision, POST "
    "/end when the match is over. Every POST is signed (the X-Referee-* headers; see "
    "clients/protocol/README.md, served at /bot-protocol/readme). A timeout, an "
    "unreachable bot, an HTTP error, an answer that is not {\"move\": …}, or an illegal move "
    "is a failure with a code (bot.timeout, bot.unreachable, bot.http_error, "
    "bot.bad_response, bot.illegal_move; a 401 is bot.signature_refused); by default the bot "
    "forfeits (it ranks last, and the referee plays its remaining moves at random). "
    "Keep-alive: we speak HTTP/1.1 and keep the connection open; answer HTTP/1.1 with a "
    "Content-Length. Per game, `<game>.MoveRequest` carries `<game>.Decision`, one of its "
    "decision kinds by `kind`; answer a `<game>.<kind>.Decision` with a `<game>.<kind>.Move`.")


def protocol_openapi(games=()) -> dict:
    """The document; per game of `games` (a registry) its views and decision kinds."""
    return {
        "openapi": "3.1.0",
        "info": {"title": "Referee bot protocol", "version": API_VERSION,
                 "description": _DESCRIPTION},
        "paths": {
            "/": {"get": {"summary": "Who you are", "description": "Unsigned; answer 2xx "
                          "with your info within 5 s (registration fails otherwise).",
                          "responses": {"200": {
                              "description": "your info", "content": {"application/json": {
                                  "schema": ref("Info")}}}}}},
            "/start": _post("A match begins", "StartRequest", None,
                            "Answer 2xx within limits.start_ms (any body)."),
            "/move": _post("Choose a move", "MoveRequest", "MoveAnswer",
                           "Answer within time.allowed_ms; time over move_ms comes off your "
                           "bank."),
            "/end": _post("A match ended", "EndRequest", None,
                          "Answer 2xx; failures here are logged, never held against you."),
        },
        "components": {"schemas": {**_SCHEMAS, **all_games(games, _BASE_MOVE)}},
    }
