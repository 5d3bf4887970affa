"""Fixtures the arena's test modules share."""

from __future__ import annotations

import pytest

from tests.support.bots import BotServer


@pytest.fixture
def bots():
    """Bot servers started by a test (`bots(...)` takes BotServer's arguments), stopped
    afterwards; a server that is already down is left alone."""
    started = []

    def make(*args, **kwargs):
        bot = BotServer(*args, **kwargs)
        started.append(bot)
        return bot

    yield make
    for bot in started:
        try:
            bot.stop()
        except OSError:
            pass
