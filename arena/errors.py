"""Arena errors with stable codes (problem details like the rest of the API)."""

from __future__ import annotations

from referee.core.errors import RefereeError


class BotNotFound(RefereeError):
    """No bot with that id."""

    code = "bot.not_found"
    status = 404


class BotRejected(RefereeError):
    """Registration refused: bad URL, or the bot failed its health check."""

    code = "bot.rejected"
    status = 422


class TournamentNotFound(RefereeError):
    """No tournament with that id."""

    code = "tournament.not_found"
    status = 404


class InvalidTournament(RefereeError):
    """Tournament parameters that cannot be run."""

    code = "tournament.invalid"
    status = 422


class TournamentTooLarge(InvalidTournament):
    """A round robin or ladder over the service's ceiling on matches per tournament."""

    code = "tournament.too_large"


class BotUrlTaken(RefereeError):
    """A bot with that URL is registered already (a URL is registered once)."""

    code = "bot.url_taken"
    status = 409


class BotGameNotDeclared(RefereeError):
    """A bot seated in a game it was not registered for."""

    code = "bot.game_not_declared"
    status = 422
