"""The wire format of move checks: the stateless check, a record's verification and check
sessions (marshmallow, no Flask)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from referee.service.bigint import SeedField
from referee.service.boundedlist import BoundedList
from referee.service.defaults import MAX_MOVES, MAX_MOVES_BOUNDS
from referee.service.seatfield import SeatField, chance_mode
from referee.service.schemas import VIEW_REF, DecisionSchema

LOG_EXTRAS = ("type", "version", "at", "by", "latency_ms", "owner", "sealed", "hidden",
              "failure")
"""Fields of a log entry (`GET …/log`, a JSONL `move` line) a check reads and ignores, so a
record's entries are checked as they come; any other unknown field is refused."""


MAX_CHECK_MOVES = 20_000
"""Most moves one check replays; more is refused (422 request.invalid) before any is read."""


class _Ordered(Schema):
    class Meta:
        ordered = True


class SeatedMoveSchema(_Ordered):
    seat = SeatField(load_default=None, allow_none=True,
                     metadata={"description": "omit when exactly one seat must act; \"chance\" "
                                              "for a chance outcome (external chance)"})
    move = fields.Dict(required=True, metadata={"description": "a move object with a 'type'"})
    type = fields.String(validate=validate.Equal("move"),
                         metadata={"description": "ignored (a JSONL line's `move`)"})
    version = fields.Integer(metadata={"description": "ignored (a log entry's)"})
    at = fields.Float(metadata={"description": "ignored (a log entry's)"})
    by = fields.String(metadata={"description": "ignored (a log entry's)"})
    latency_ms = fields.Float(metadata={"description": "ignored (a log entry's)"})
    owner = fields.Raw(allow_none=True, metadata={"description": "ignored (a log entry's)"})
    sealed = fields.Boolean(metadata={"description": "ignored (a log entry's)"})
    hidden = fields.Boolean(metadata={"description": "ignored (a log entry's)"})
    failure = fields.Dict(metadata={"description": "ignored (a log entry's)"})


class CommitmentGivenSchema(_Ordered):
    commitment = fields.String(required=True, validate=validate.Regexp("^[0-9a-f]{64}$"))
    salt = fields.String(required=True, validate=validate.Regexp("^[0-9a-f]{32}$"))


def max_moves_field():
    """The check's move cap."""
    return fields.Integer(load_default=MAX_MOVES, validate=validate.Range(*MAX_MOVES_BOUNDS),
                          metadata={"description": "moves after which the position is over, "
                                                   "adjudicated by the standing, as a match's "
                                                   "move cap (a move after it: "
                                                   f"check.move_cap); default {MAX_MOVES}"})


class StartSchema(_Ordered):
    """Where a check starts: set-up (players, options, seed or external chance) or a state."""

    players = fields.Integer(required=True, validate=validate.Range(min=1, max=16),
                             metadata={"description": "seats at the table (also with a state)"})
    options = fields.Dict(load_default=dict, metadata={"description": "ignored with a state"})
    seed = SeedField(load_default=None, allow_none=True,
                     metadata={"description": "the match seed (a string of digits; a number "
                                              "up to 2^53 is read too): needed with internal "
                                              "chance and no state; with chance external "
                                              "422 chance.seed_unused"})
    seed_commitment = fields.Nested(CommitmentGivenSchema, load_default=None, allow_none=True,
                                    metadata={"description": "the match's commitment and salt: "
                                                             "a seed that does not match is "
                                                             "422 seed.commitment_mismatch"})
    chance = chance_mode("internal (default): random events come from the seed; external: "
                         "they are moves of seat \"chance\" (no seed)",
                         load_default="internal")
    state = fields.Dict(load_default=None, allow_none=True, metadata={
        "description": "start from this position instead of the set-up: a complete state "
                       "(the to_dict form, GET /v1/games/{game}/state-schema; checked, refused "
                       "with the JSON path of the first bad field; its `seed` may be a string "
                       "of digits, so a 63-bit seed survives JSON.parse); with chance "
                       "external, chance is supplied from there on"})
    position = fields.String(load_default=None, allow_none=True, validate=validate.Length(
        min=1, max=20_000), metadata={
        "description": "start from this position instead of the set-up: the game's one-line "
                       "position text (as answers give it in `position`; see GET "
                       "/v1/games/{game}/state-schema), a complete state, hidden parts "
                       "included; refused (state.invalid) with the character or the state "
                       "field at fault; not with `state`"})
    max_moves = max_moves_field()


class CheckRequestSchema(StartSchema):
    moves = BoundedList(fields.Nested(SeatedMoveSchema), load_default=list,
                        max_items=MAX_CHECK_MOVES,
                        metadata={"description": "{seat, move} each; a log entry as `GET "
                                                 "…/log` or the JSONL export gives it is "
                                                 "taken as it is (its other fields ignored); "
                                                 f"at most {MAX_CHECK_MOVES}, counted before "
                                                 "any is read"})
    candidate = fields.Nested(SeatedMoveSchema, load_default=None, allow_none=True)
    view_seat = fields.Integer(load_default=None, allow_none=True,
                               validate=validate.Range(min=-1),
                               metadata={"description": "also return this seat's view "
                                                        "(-1: the spectator's)"})


class ProblemBriefSchema(_Ordered):
    index = fields.Integer(allow_none=True)
    seat = SeatField(allow_none=True)
    code = fields.String(allow_none=True)
    message = fields.String()
    details = fields.Dict()


class PendingSchema(DecisionSchema):
    legal_moves = fields.List(fields.Dict())


class PositionSchema(_Ordered):
    over = fields.Boolean()
    capped = fields.Boolean(metadata={"description": "over because the move cap is reached"})
    position = fields.String(allow_none=True, metadata={
        "description": "the position reached, as the game's one-line text: the complete "
                       "state, hidden parts included (the check's own data, no match's); "
                       "send it as `position` to go on from here. Null while a move (or the "
                       "set-up) waits on a chance outcome"})
    pending = fields.List(fields.Nested(PendingSchema))
    outcome = fields.Dict(allow_none=True)
    view = fields.Dict(allow_none=True, metadata=VIEW_REF)


class CheckResponseSchema(PositionSchema):
    legal = fields.Boolean(metadata={"description": "every move (and the candidate) is legal"})
    applied = fields.Integer(metadata={"description": "moves applied before stopping"})
    error = fields.Nested(ProblemBriefSchema, allow_none=True)
    candidate = fields.Nested(ProblemBriefSchema, allow_none=True)


class PositionFieldSchema(_Ordered):
    index = fields.Integer(metadata={"description": "its place in the position, from 1"})
    name = fields.String(metadata={"description": "the state field"})
    description = fields.String()


class NotationSchema(_Ordered):
    prefix = fields.String(metadata={"description": "every position of this game starts so"})
    grammar = fields.String(metadata={"description": "how values are written"})
    fields_ = fields.List(fields.Nested(PositionFieldSchema), data_key="fields", attribute="fields",
                          metadata={"description": "the state's top-level fields in the order "
                                                   "the position writes them"})
    example = fields.String(metadata={"description": "a position reached in a real playout"})


class StateSchemaDocSchema(_Ordered):
    game = fields.String()
    rules_version = fields.String()
    contains = fields.String(metadata={"description": "what a state holds (hidden parts too)"})
    schema = fields.Dict(allow_none=True, metadata={
        "description": "JSON Schema of a complete state, every field described"})
    position = fields.Nested(NotationSchema, allow_none=True,
                             metadata={"description": "the one-line position notation; null: "
                                                      "the game has none"})
