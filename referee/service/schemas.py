"""The wire format of the service's records as marshmallow schemas (no Flask): the API's
requests and answers, shared with the plug-ins' endpoints (MatchCreatedSchema, ProblemSchema)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from referee.service.bigint import SeedField
from referee.service.boundedlist import BoundedList
from referee.service.seatfield import SeatField, chance_mode
from referee.service.defaults import (MAX_MOVES, MAX_MOVES_BOUNDS, REMOTE_MOVE_S,
                                      REMOTE_MOVE_S_BOUNDS)

MAX_OFFSET = 2 ** 31 - 1
"""Largest list offset a query may ask for (Redis takes 64-bit ranges; 2^63 made a 500)."""

VIEW_REF = {"allOf": [{"$ref": "#/components/schemas/View"}]}
"""A `view` field documented as its game's view schema (the `View` component)."""


class _Open(Schema):
    """A schema whose free-form parts (views, results) pass through as given."""

    class Meta:
        ordered = True


# -- games ----------------------------------------------------------------------------------

class OptionSchema(_Open):
    name = fields.String(required=True)
    kind = fields.String(required=True, metadata={"description": "bool, int or choice"})
    default = fields.Raw(required=True)
    description = fields.String()
    status = fields.String(metadata={"description": "FOUND, DERIVED or PROPOSAL"})
    choices = fields.List(fields.Raw())
    minimum = fields.Integer()
    maximum = fields.Integer()


class MoveKindSchema(_Open):
    type = fields.String(required=True)
    description = fields.String()
    schema = fields.Dict(metadata={"description": "JSON Schema of the move object"})
    example = fields.Dict()


class DecisionKindSchema(_Open):
    kind = fields.String(required=True, metadata={"description": "`decision.kind`"})
    move_types = fields.List(fields.String(), required=True, metadata={
        "description": "the move types it may take (a decision lists those open now)"})
    sealed = fields.Boolean(required=True, metadata={
        "description": "whether the seats' moves are revealed together"})
    prompt = fields.Dict(required=True, metadata={
        "description": "JSON Schema of `decision.prompt`"})
    move = fields.Dict(required=True, metadata={"description": "JSON Schema of its moves"})


class GameSummarySchema(_Open):
    name = fields.String(required=True)
    title = fields.String()
    min_players = fields.Integer()
    max_players = fields.Integer()
    variant_players = fields.List(fields.Integer(), metadata={
        "description": "player counts outside min..max that an option allows"})
    rules_version = fields.String()
    older_rules = fields.Dict(keys=fields.String(), values=fields.String(), metadata={
        "description": "older rules_versions whose records (logs, exports, stored matches) "
                       "replay unchanged under these rules, each with the chance modes that "
                       "do: `internal` (matches dealt from their seed) or `all`; a record of "
                       "any other older version is refused (422 rules.version_unreadable, "
                       "409 match.rules_retired), never read with other rules"})
    summary = fields.String()


class GameSchema(GameSummarySchema):
    external_chance = fields.Boolean(metadata={
        "description": "whether the game takes its chance from outside (`\"chance\": "
                       "\"external\"` in checks and matches; else 422 chance.unsupported)"})
    options = fields.List(fields.Nested(OptionSchema))
    moves = fields.List(fields.Nested(MoveKindSchema))
    hidden = fields.List(fields.String())
    views = fields.Dict(metadata={"description": "`seat` and `spectator`: each a JSON Schema "
                                                 "of that view (`schema`, also the OpenAPI "
                                                 "components `<game>.SeatView` and "
                                                 "`<game>.SpectatorView`) and an `example`"})
    board = fields.Dict(metadata={"description": "the printed tables the engine uses; every "
                                                 "value tagged {value, status, source}"})
    decision_kinds = fields.List(fields.Nested(DecisionKindSchema), metadata={
        "description": "every decision a seat may be asked, with the JSON Schema of its "
                       "prompt and of the moves it takes (as the bot protocol's "
                       "`<game>.<kind>.Prompt` and `.Move` components)"})


class GameListSchema(_Open):
    games = fields.List(fields.Nested(GameSummarySchema))


class DecisionSchema(_Open):
    seat = SeatField(metadata={"description": "the seat to decide (\"chance\": an outcome "
                                              "to supply; its prompt lists the outcomes with "
                                              "their probabilities)"})
    kind = fields.String()
    move_types = fields.List(fields.String())
    sealed = fields.Boolean()
    prompt = fields.Dict()


# -- matches --------------------------------------------------------------------------------

class MatchCreateSchema(_Open):
    game = fields.String(required=True)
    seats = BoundedList(fields.String(validate=validate.Length(min=1)), required=True,
                        min_items=1, max_items=16,
                        metadata={"description": "one per seat: 'remote', 'builtin:random', or "
                                                 "'bot:<id>' (a registered bot; unrated)"})
    options = fields.Dict(load_default=dict)
    seed = SeedField(load_default=None, allow_none=True,
                     metadata={"description": "a string of digits (a number up to 2^53 is "
                                              "read too); refused with external chance"})
    chance = chance_mode("internal (default), or external: a table refereed live, where the "
                         "creating organiser plays the chance seat (GET/POST "
                         "/v1/matches/{id}/chance); needs an organiser's key",
                         load_default="internal")
    remote_move_s = fields.Integer(
        load_default=None, allow_none=True, validate=validate.Range(*REMOTE_MOVE_S_BOUNDS),
        metadata={"description": "seconds a remote seat may take over one decision before it "
                                 f"forfeits with seat.timeout (default {REMOTE_MOVE_S})"})
    max_moves = fields.Integer(
        load_default=None, allow_none=True, validate=validate.Range(*MAX_MOVES_BOUNDS),
        metadata={"description": "moves after which the match ends, adjudicated by the game's "
                                 f"standing (termination move_cap; default {MAX_MOVES})"})


class SeatSchema(_Open):
    seat = fields.Integer()
    kind = fields.String()
    name = fields.String()
    bot = fields.String()


class MatchCreatedSchema(_Open):
    id = fields.String(required=True)
    game = fields.String()
    rules_version = fields.String()
    version = fields.Integer()
    seed = SeedField(metadata={"description": "returned only when the caller chose it"})
    tokens = fields.Dict(keys=fields.String(), values=fields.String(),
                         metadata={"description": "seat number -> secret bearer token"})
    seats = fields.List(fields.Nested(SeatSchema))
    status = fields.String()
    seed_commitment = fields.Dict(metadata={"description": "the seed's commitment (sha256 of "
                                                           "seed and salt) and seed group"})
    chance = fields.String(metadata={"description": "internal or external"})


class ToActSchema(_Open):
    seat = SeatField()
    decision = fields.String()
    sealed = fields.Boolean()


class MatchSchema(_Open):
    id = fields.String()
    game = fields.String()
    rules_version = fields.String()
    players = fields.Integer()
    options = fields.Dict()
    status = fields.String(metadata={"description": "active, over or aborted"})
    version = fields.Integer()
    you = fields.Integer(allow_none=True, metadata={"description": "your seat, or null"})
    seats = fields.List(fields.Nested(SeatSchema))
    to_act = fields.List(fields.Nested(ToActSchema))
    chance = fields.String(metadata={"description": "internal (from the seed) or external "
                                                    "(supplied by the chance seat)"})
    result = fields.Dict(allow_none=True)
    labels = fields.Dict()
    created_at = fields.Float()
    updated_at = fields.Float()
    view = fields.Dict(allow_none=True, metadata={
        **VIEW_REF, "description": "null for others while the match shares its seed with a "
                                   "match that still runs (a tournament's rotations)"})
    seed_commitment = fields.Nested(lambda: SeedCommitmentSchema())


class MatchListSchema(_Open):
    matches = fields.List(fields.Nested(MatchSchema))
    total = fields.Integer()


class MatchListQuerySchema(_Open):
    offset = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_OFFSET))
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))


class PromptQuerySchema(_Open):
    wait = fields.Float(load_default=0.0, validate=validate.Range(min=0),
                        metadata={"description": "long-poll up to this many seconds"})


class PromptSchema(_Open):
    match = fields.String()
    game = fields.String()
    seat = SeatField()
    version = fields.Integer()
    status = fields.String()
    must_act = fields.Boolean()
    decision = fields.Nested(DecisionSchema, allow_none=True)
    legal_moves = fields.List(fields.Dict())
    view = fields.Dict(allow_none=True, metadata=VIEW_REF)
    result = fields.Dict(allow_none=True)


class ChancePromptSchema(PromptSchema):
    outcomes = fields.List(fields.Dict(), metadata={
        "description": "the legal chance moves with their probabilities: [{\"move\": "
                       "{\"type\": \"chance\", \"outcome\": ...}, \"probability\": p}]"})


class MoveSubmitSchema(_Open):
    move = fields.Raw(required=True, metadata={   # open: a bare object is Record<string, never>
        "type": "object", "required": ["type"], "properties": {"type": {"type": "string"}},
        "additionalProperties": True, "description": "a move object with a 'type'"})
    expected_version = fields.Integer(load_default=None, allow_none=True,
                                      metadata={"description": "reject unless the match is "
                                                               "at this version"})


class MoveAcceptedSchema(_Open):
    version = fields.Integer()
    status = fields.String()
    to_act = fields.List(fields.Nested(ToActSchema))
    result = fields.Dict(allow_none=True)
    view = fields.Dict(allow_none=True, metadata=VIEW_REF)


class LogQuerySchema(_Open):
    format = fields.String(load_default="json", validate=validate.OneOf(["json", "jsonl"]))


class LogEntrySchema(_Open):
    seat = SeatField()
    owner = fields.Raw(allow_none=True, metadata={
        "description": "a chance move's owner: null (everyone sees it), the seat that alone "
                       "sees it while the match runs, or \"nobody\""})
    move = fields.Raw(allow_none=True)
    version = fields.Integer()
    sealed = fields.Boolean()
    hidden = fields.Boolean()
    by = fields.String()
    at = fields.Float()
    latency_ms = fields.Float()
    failure = fields.Dict()


class LogSchema(_Open):
    match = fields.String()
    game = fields.String()
    rules_version = fields.String()
    players = fields.Integer()
    options = fields.Dict()
    chance = fields.String(metadata={"description": "internal or external"})
    seed = SeedField(allow_none=True, metadata={"description": "null until this match "
                                                                    "and every match sharing its "
                                                                    "seed are over"})
    seed_commitment = fields.Nested(lambda: SeedCommitmentSchema())
    seats = fields.List(fields.Nested(SeatSchema))
    labels = fields.Dict()
    limits = fields.Dict()
    created_at = fields.Float()
    status = fields.String()
    version = fields.Integer()
    moves = fields.List(fields.Nested(LogEntrySchema))
    result = fields.Dict(allow_none=True)


class SeedCommitmentSchema(_Open):
    commitment = fields.String(allow_none=True, metadata={
        "description": "lowercase hex SHA-256 of the ASCII bytes <seed digits>:<salt>, "
                       "published at creation (docs/security.md, Fair seeds)"})
    formula = fields.String()
    group = fields.String(allow_none=True, metadata={"description": "matches sharing the seed"})
    revealed = fields.Boolean()
    seed = SeedField(allow_none=True, metadata={"description": "null until revealed"})
    salt = fields.String(allow_none=True, metadata={"description": "null until revealed"})


class ProblemSchema(_Open):
    type = fields.String()
    title = fields.String()
    status = fields.Integer()
    detail = fields.String()
    code = fields.String(metadata={"description": "stable, namespaced error code"})
    instance = fields.String()
    details = fields.Dict()
    errors = fields.Dict()
    retry_after = fields.Integer(metadata={"description": "with 429 (rate.limited, "
                                                          "quota.active_matches): the seconds "
                                                          "to wait, as in Retry-After"})
