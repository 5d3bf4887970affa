"""Exceptions for the service's problem details: one class per code family.

Every error the service returns is an RFC 9457 problem detail with a stable `code` such as
`move.illegal.bid.not_in_hand`; the part before the first dot is the family, and the family
picks the class (MoveError, TurnError, ...). Each exception keeps the code, the message (the
problem's `detail`), the HTTP status and the whole problem body.
"""

from __future__ import annotations


class RefereeError(Exception):
    """Base of every problem the service reports; `code`, `message`, `status`, `problem`."""

    family: str | None = None

    def __init__(self, problem: dict, status: int | None = None):
        self.problem = dict(problem)
        self.status = status if status is not None else self.problem.get("status")
        self.code = str(self.problem.get("code") or f"http.{self.status}")
        self.message = str(self.problem.get("detail") or self.problem.get("title") or "")
        super().__init__(f"{self.code}: {self.message}" if self.message else self.code)

    @property
    def details(self) -> dict:
        """The problem's structured `details` (e.g. the bot rejection's reason), or {}."""
        return self.problem.get("details") or {}


class MoveError(RefereeError):
    """move.*: malformed, unexpected, or forbidden by a rule (move.illegal.<rule>)."""

    family = "move"

    @property
    def rule(self) -> str | None:
        """The rule named by a move.illegal.<rule> code, else None."""
        prefix = "move.illegal."
        return self.code[len(prefix):] if self.code.startswith(prefix) else None


class TurnError(RefereeError):
    """turn.*: the seat has no decision pending."""

    family = "turn"


class MatchError(RefereeError):
    """match.*: not found, over, aborted, version stale, busy."""

    family = "match"


class AuthError(RefereeError):
    """auth.*: a seat token or account key is missing or wrong, or the caller may not do this
    (another account's thing, an organiser's action)."""

    family = "auth"


class AccountError(RefereeError):
    """account.*: no account with that id."""

    family = "account"


class GameError(RefereeError):
    """game.*: no game of that name."""

    family = "game"


class OptionsError(RefereeError):
    """options.*: an option is unknown or has a value the game does not take."""

    family = "options"


class PlayersError(RefereeError):
    """players.*: the game cannot be played with that many seats."""

    family = "players"


class SeatsError(RefereeError):
    """seats.*: a seat kind or bot is unknown."""

    family = "seats"


class SeatError(RefereeError):
    """seat.*: how a remote seat left a match (resigned, ran out of time); these appear as
    failure records in results, not as answers to requests."""

    family = "seat"


class WaitError(RefereeError):
    """wait.*: too many long polls or event streams held open (retry after Retry-After)."""

    family = "wait"


class LimitsError(RefereeError):
    """limits.*: an arena time limit is unknown or out of bounds."""

    family = "limits"


class StateError(RefereeError):
    """state.*: a stored or submitted state failed validation."""

    family = "state"


class ChanceError(RefereeError):
    """chance.*: external chance asked of a match, game or arena that does not take it
    (chance.internal, chance.unsupported)."""

    family = "chance"


class RequestError(RefereeError):
    """request.* and http.*: the request itself is wrong (JSON, schema, size, endpoint)."""

    family = "request"


class BotError(RefereeError):
    """bot.*: a bot registration was refused, or no bot has that id."""

    family = "bot"


class TournamentError(RefereeError):
    """tournament.*: tournament parameters that cannot be run, or no such tournament."""

    family = "tournament"


class RateLimitError(RefereeError):
    """rate.* and quota.*: too many requests (rate.limited), or too many unfinished matches
    (quota.active_matches); the service's Retry-After is `retry_after` (seconds, or None)."""

    family = "rate"

    @property
    def retry_after(self) -> int | None:
        """Seconds the service asked to wait, or None."""
        value = self.problem.get("retry_after")
        return value if isinstance(value, int) else None


class CheckError(RefereeError):
    """check.*, seed.*, record.*: a check, a verification or a record that cannot be checked
    (check.move_cap, seed.commitment_mismatch, record.invalid)."""

    family = "check"


class SessionError(RefereeError):
    """session.*: a check session that is not there, not yours, or one too many."""

    family = "session"


class ServerError(RefereeError):
    """server.*, or any 5xx without a problem body: a fault on the service's side."""

    family = "server"


FAMILIES: dict[str, type[RefereeError]] = {
    cls.family: cls for cls in (MoveError, TurnError, MatchError, AuthError, AccountError,
                                GameError, OptionsError, PlayersError, SeatsError, SeatError,
                                LimitsError, StateError, ChanceError, RequestError, BotError,
                                TournamentError, RateLimitError, WaitError, CheckError,
                                SessionError, ServerError)
}
FAMILIES["http"] = RequestError  # HTTP-level codes (http.not_found, ...) are request faults
FAMILIES["quota"] = RateLimitError  # over a quota: wait, like a rate limit
FAMILIES["seed"] = FAMILIES["record"] = CheckError   # what a check found of a record's seed
FAMILIES["rules"] = CheckError   # a record made under rules these do not replay


def error_for(problem: dict, status: int | None = None) -> RefereeError:
    """The exception for a problem body: chosen by the code's family, else by the status."""
    status = status if status is not None else problem.get("status")
    family = str(problem.get("code") or "").partition(".")[0]
    server_side = isinstance(status, int) and status >= 500
    cls = FAMILIES.get(family)
    if cls is None or (family == "http" and server_side):  # http.502 from a proxy, say
        cls = ServerError if server_side else RefereeError
    return cls(problem, status)
