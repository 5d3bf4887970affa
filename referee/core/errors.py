"""Errors with stable, namespaced codes: the vocabulary bots and tools branch on."""

from __future__ import annotations


class RefereeError(Exception):
    """Base of every error the referee reports; `code` is stable, `message` explains."""

    code = "referee.error"
    status = 400

    def __init__(self, message: str, code: str | None = None, **details):
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.details = details

    def to_dict(self) -> dict:
        """The error as plain data (code, message, details)."""
        data = {"code": self.code, "message": self.message}
        if self.details:
            data["details"] = self.details
        return data

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


class UnknownGame(RefereeError):
    """No game of that name is registered."""

    code = "game.unknown"
    status = 404


class InvalidOptions(RefereeError):
    """Match options that the game does not accept."""

    code = "options.invalid"
    status = 422


class InvalidPlayers(RefereeError):
    """A player count the game (with these options) cannot be played with."""

    code = "players.invalid"
    status = 422


class InvalidState(RefereeError):
    """A state document that fails validation when loaded."""

    code = "state.invalid"
    status = 422


class MalformedMove(RefereeError):
    """A move that is not a well-formed move of the pending decision (syntax, not rules)."""

    code = "move.malformed"
    status = 400


class UnexpectedMove(RefereeError):
    """A well-formed move of a kind the pending decision does not take."""

    code = "move.unexpected"
    status = 422


class IllegalMove(RefereeError):
    """A well-formed move the rules forbid here; games use `move.illegal.<rule>` codes."""

    code = "move.illegal"
    status = 422

    def __init__(self, code: str, message: str, **details):
        if not code.startswith("move.illegal"):
            code = f"move.illegal.{code}"
        super().__init__(message, code=code, **details)


class NotYourTurn(RefereeError):
    """The seat is not among those that must act now."""

    code = "turn.not_yours"
    status = 409


class MatchOver(RefereeError):
    """The match has ended; no more moves are taken."""

    code = "match.over"
    status = 409


class StaleVersion(RefereeError):
    """The move was made against an older version of the match."""

    code = "match.version_stale"
    status = 409


class ChanceUnsupported(RefereeError):
    """A chance mode the game cannot play (external chance before the game supports it)."""

    code = "chance.unsupported"
    status = 422
