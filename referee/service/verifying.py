"""Verifying a match record (`GET …/log` or its JSONL export) without the service's help:
the moves replayed against the rules, the outcome recomputed, the seed checked against its
commitment. No Flask, no Redis."""

from __future__ import annotations

import json

from marshmallow import EXCLUDE, Schema, ValidationError, fields, pre_load

from referee.core.chance import EXTERNAL
from referee.core.errors import RefereeError
from referee.core.results import adjudicate, apply_forfeits
from referee.core.types import Outcome, Termination
from referee.core.versions import check_readable
from referee.service import checks
from referee.service.bigint import SeedField
from referee.service.checkschemas import SeatedMoveSchema
from referee.service.boundedlist import BoundedList
from referee.service.defaults import MAX_MOVES, MAX_MOVES_BOUNDS
from referee.service.seatfield import chance_mode
from referee.service.seeds import verify


def jsonl_record(text: str) -> dict:
    """The JSONL export (a `match` line, `move` lines, a `result` line) as the log's object."""
    record, moves = None, []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except ValueError:
            raise ValidationError(f"line {number} is not JSON", "jsonl") from None
        kind = item.get("type") if isinstance(item, dict) else None
        if kind == "match" and record is None:
            record = {k: v for k, v in item.items() if k != "type"}
        elif kind == "move" and record is not None:
            moves.append(item)
        elif kind == "result" and record is not None:
            record["result"] = {k: v for k, v in item.items() if k != "type"}
        else:
            raise ValidationError(f"line {number}: expected a 'match' line first, then "
                                  f"'move' lines and at most one 'result' line", "jsonl")
    if record is None:
        raise ValidationError("no 'match' line", "jsonl")
    return {**record, "moves": moves, "result": record.get("result")}


class RecordSchema(Schema):
    """A match record as `GET /v1/matches/{id}/log` gives it (other fields ignored), or
    `{"jsonl": "<the JSONL export>"}`."""

    class Meta:
        unknown = EXCLUDE
        ordered = True

    game = fields.String(required=True)
    rules_version = fields.String(load_default=None, allow_none=True)
    players = fields.Integer(required=True)
    options = fields.Dict(load_default=dict)
    chance = chance_mode("internal or external", load_default="internal")
    seed = SeedField(load_default=None, allow_none=True)
    seed_commitment = fields.Dict(load_default=None, allow_none=True)
    limits = fields.Dict(load_default=None, allow_none=True)
    moves = BoundedList(fields.Nested(SeatedMoveSchema), required=True,
                        max_items=MAX_MOVES_BOUNDS[1],
                        metadata={"description": "at most a match's largest move cap; an "
                                                 "item that is not an object is refused "
                                                 "before any is read"})
    result = fields.Dict(load_default=None, allow_none=True)
    jsonl = fields.String(metadata={"description": "the JSONL export as text, instead of "
                                                   "the other fields"})

    @pre_load
    def _from_jsonl(self, data, **kwargs):
        if isinstance(data, dict) and isinstance(data.get("jsonl"), str):
            return jsonl_record(data["jsonl"])
        return data


def verify_record(registry, record: dict) -> dict:
    """Legal or not (and the first bad index), whether the outcome and the seed commitment
    match, and the outcome the rules give."""
    game = registry.get(record["game"])
    check_readable(game.spec, record["rules_version"], record["chance"])
    commitment = _commitment_matches(record)
    if record["chance"] != EXTERNAL and record["seed"] is None:
        raise checks.CheckRefused("the record's seed is withheld (the match, or a match sharing its "
                           "seed, is not over): verify it once the seed is revealed",
                           code="record.invalid")
    cap = int((record.get("limits") or {}).get("max_moves") or MAX_MOVES)
    body = {**record, "seed": None if record["chance"] == EXTERNAL else record["seed"],
            "state": None, "seed_commitment": None}
    state, applied, error = checks.starting_position(game, body), 0, None
    for index, item in enumerate(record["moves"]):
        try:
            state = checks.step(game, state, applied, item, cap)
            applied += 1
        except RefereeError as err:
            error = checks.brief(err, index, item.get("seat"))
            if commitment is False:
                error["hint"] = "the seed does not match the record's commitment: the " \
                                "replay deals another game"
            break
    outcome = _outcome(game, state, applied, cap, record) if error is None else None
    return {"legal": error is None, "applied": applied, "moves": len(record["moves"]),
            "error": error, "outcome": outcome.to_dict() if outcome else None,
            "outcome_matches": _same(outcome, record["result"]) if error is None else False,
            "commitment_matches": commitment,
            "rules_version_matches": record["rules_version"] in (None, game.spec.rules_version),
            "rules_version_read": record["rules_version"] or game.spec.rules_version}


def _commitment_matches(record: dict):
    """True/False once seed and salt are revealed; None when there is nothing to check."""
    given = record.get("seed_commitment") or {}
    if record["seed"] is None or not given.get("commitment") or not given.get("salt"):
        return None
    return verify(str(given["commitment"]), record["seed"], str(given["salt"]))


def _outcome(game, state, applied: int, cap: int, record: dict) -> Outcome | None:
    """The outcome the rules give after the moves, as the record's termination frames it."""
    result = record["result"] or {}
    outcome = game.outcome(state)
    if outcome is None and applied >= cap and game.pending(state):
        return adjudicate(game, state, record["players"], cap)
    forfeited = (result.get("details") or {}).get("forfeited")
    if outcome is not None and result.get("termination") == Termination.FORFEIT.value \
            and isinstance(forfeited, list):
        return apply_forfeits(outcome, forfeited)
    return outcome


def _same(outcome: Outcome | None, result: dict | None):
    """Whether the record's result has the replayed scores, ranks and termination; None when
    the record has no result to compare (running) or was aborted by the service."""
    if not result or result.get("termination") == Termination.ABORTED.value:
        return None
    if outcome is None:
        return False
    return (list(result.get("scores") or []) == list(outcome.scores)
            and list(result.get("ranks") or []) == list(outcome.ranks)
            and result.get("termination") == outcome.termination.value)
