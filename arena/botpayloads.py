"""The requests botcheck sends for a position (arena/botpositions.py), as the arena sends them
in a match (arena/driver.py for /start and /move, arena/service.py for /end), and the engine's
verdict on the answer."""

from __future__ import annotations

from arena.requests import end_request, move_request, start_request, time_left
from referee.core import engine


def start_payload(position, match_id: str, limits: dict) -> dict:
    """The /start body of the position's match (arena/requests.py, as in a match)."""
    return start_request(_Meta(position, match_id), position.seat, limits)


def move_payload(position, match_id: str, limits: dict) -> dict:
    """The /move body: the position's decision, view and legal moves; no bank (a check is
    not a match: the answer is due within move_ms)."""
    game, state, seat = position.game, position.state, position.seat
    return move_request(_Meta(position, match_id), position.version, seat,
                        position.decision.to_dict(), game.view(state, seat),
                        game.legal_moves(state, seat),
                        time_left(limits, 0.0, float(limits["move_ms"])), None)


def end_payload(position, match_id: str) -> dict:
    """The /end body: where the position's match ended, the seat's final view."""
    game, final = position.game, position.final
    outcome = game.outcome(final) if final is not None else None
    return end_request(_Meta(position, match_id), position.seat,
                       outcome.to_dict() if outcome else None,
                       game.view(final if final is not None else position.state, position.seat))


def legality(position, move: dict) -> str | None:
    """None if the engine accepts `move` for the position's seat; else the rules' code."""
    try:
        engine.play(position.game, position.state, position.version, position.seat, move)
    except Exception as err:   # the rules' refusal, or a move the engine cannot even read
        return getattr(err, "code", None) or type(err).__name__
    return None


class _Meta:
    """What the request builders read of a match, for a position's match."""

    def __init__(self, position, match_id: str):
        game = position.game
        self.id, self.game, self.rules_version = match_id, game.spec.name, game.spec.rules_version
        self.players, self.options = position.players, position.options
        self.seats = [{"name": "botcheck" if s == position.seat else "builtin:random"}
                      for s in range(position.players)]
