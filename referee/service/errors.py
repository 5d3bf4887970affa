"""Errors of the service layer (matches, seats, tokens), with stable codes like the core's."""

from __future__ import annotations

from referee.core.errors import RefereeError


class MatchNotFound(RefereeError):
    """No match with that id."""

    code = "match.not_found"
    status = 404

    @classmethod
    def of(cls, match_id) -> "MatchNotFound":
        """The refusal for `match_id`."""
        return cls(f"no match {match_id!r}", match_id=str(match_id))


class InvalidSeats(RefereeError):
    """A seat list the service cannot set up (unknown kind, unknown bot, wrong count)."""

    code = "seats.invalid"
    status = 422


class MissingToken(RefereeError):
    """The request needs a seat token and has none."""

    code = "auth.token_missing"
    status = 401


class InvalidToken(RefereeError):
    """The token is not the token of any seat of this match."""

    code = "auth.token_invalid"
    status = 403


class MatchBusy(RefereeError):
    """Too many concurrent writers: the move could not be committed; retry it."""

    code = "match.busy"
    status = 503


class MatchAborted(RefereeError):
    """The match was stopped by the service and takes no more moves."""

    code = "match.aborted"
    status = 409


class SeatForfeited(RefereeError):
    """The seat forfeited (resigned, timed out, failed): its token no longer moves it."""

    code = "seat.forfeited"
    status = 409


class ChanceNotExternal(RefereeError):
    """A chance move or prompt for a match that draws its chance from its seed."""

    code = "chance.internal"
    status = 409


class MatchRulesRetired(RefereeError):
    """A stored match was played under rules this service no longer plays (and whose records
    these rules do not replay): its record and log are served, its state is not read."""

    code = "match.rules_retired"
    status = 409
