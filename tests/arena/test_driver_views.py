"""The views the arena sends its bots (BotDriver._served_view): the seats asked about one
state share one memo for the parts every viewer sees alike (Game.served_view), and each seat
still gets exactly its own view."""

from __future__ import annotations

from arena.driver import BotDriver
from referee.core import engine
from referee.games import GAMES
from referee.service.drivers import Turn


class Recording:
    """A game whose served_view records the memo it was given."""

    def __init__(self, game):
        self.game, self.memos = game, []

    def served_view(self, state, seat, memo=None):
        self.memos.append(memo)
        return self.game.served_view(state, seat, memo)


def _turn(game, state, seat) -> Turn:
    return Turn(meta=None, live=None, game=game, state=state, seat=seat, decision=None)


def test_the_seats_of_one_state_share_a_memo_and_see_their_own_views():
    game = GAMES.get("dschunke")
    _, state = engine.start(game, 3, None, 5)
    recording, driver = Recording(game), BotDriver(bots=None)
    views = [driver._served_view(_turn(recording, state, seat)) for seat in (0, 1, 2)]
    assert views == [game.view(state, seat) for seat in (0, 1, 2)]
    assert views[0] != views[1]                    # hidden hands: the seats' views differ
    assert recording.memos[0] is recording.memos[1] is recording.memos[2]
    assert recording.memos[0]                      # the shared parts were built into it


def test_a_new_state_gets_a_new_memo():
    game = GAMES.get("dschunke")
    _, state = engine.start(game, 3, None, 5)
    seat = game.pending(state)[0].seat
    after, _ = engine.play(game, state, 0, seat, game.legal_moves(state, seat)[0])
    recording, driver = Recording(game), BotDriver(bots=None)
    driver._served_view(_turn(recording, state, 0))
    assert driver._served_view(_turn(recording, after, 0)) == game.view(after, 0)
    assert recording.memos[0] is not recording.memos[1]
    assert driver._served_view(_turn(recording, state, 1)) == game.view(state, 1)
