"""The wire form of seats and chance modes: a seat is a number, or "chance" for the chance seat."""

from __future__ import annotations

from marshmallow import ValidationError, fields, validate

from referee.core.chance import MODES, SEAT_JSON, seat_from_json, seat_to_json

SEAT_DOC = {"oneOf": [{"type": "integer", "minimum": 0}, {"type": "string", "enum": [SEAT_JSON]}]}


class SeatField(fields.Field):
    """A seat number from 0, or "chance": the pseudo-seat that supplies chance outcomes."""

    def __init__(self, **kwargs):
        metadata = {**SEAT_DOC, **kwargs.pop("metadata", {})}
        super().__init__(metadata=metadata, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if value == SEAT_JSON:
            return seat_from_json(value)
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            return value
        raise ValidationError(f'a seat is a number from 0, or "{SEAT_JSON}"')

    def _serialize(self, value, attr, obj, **kwargs):
        return seat_to_json(value)


def chance_mode(description: str, **kwargs) -> fields.String:
    """A `chance` field: "internal" (draws from the seed) or "external" (supplied as moves)."""
    return fields.String(validate=validate.OneOf(MODES), metadata={"description": description},
                         **kwargs)
