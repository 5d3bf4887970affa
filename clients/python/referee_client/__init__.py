"""A client for the referee service: the REST API, a bot kit, and a terminal player.

    from referee_client import Client
    api = Client("http://127.0.0.1:8000")
    match = api.create_match("dschunke", ["remote", "builtin:random", "builtin:random"])
    seat = api.seat(match["id"], match["tokens"]["0"])
    final = seat.play(lambda prompt: prompt["legal_moves"][0])

It speaks only the wire format (JSON over HTTP), so it works against any deployment.
"""

from referee_client.client import Client
from referee_client.errors import (AccountError, AuthError, BotError, GameError, LimitsError,
                                   MatchError, MoveError, OptionsError, PlayersError,
                                   RateLimitError, RefereeError, RequestError, SeatError,
                                   SeatsError, ServerError, StateError, TournamentError,
                                   TurnError, WaitError, error_for)
from referee_client.seat import Seat

__version__ = "0.1.0"

__all__ = ["AccountError", "AuthError", "BotError", "Client", "GameError", "LimitsError",
           "MatchError", "MoveError", "OptionsError", "PlayersError", "RateLimitError",
           "RefereeError", "RequestError", "Seat", "SeatError", "SeatsError", "ServerError",
           "StateError",
           "TournamentError", "TurnError", "WaitError", "error_for"]
