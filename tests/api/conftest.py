"""Fixtures of the API tests."""

from __future__ import annotations

import pytest

from tests.api.limits_helpers import limited_app


@pytest.fixture
def make_app():
    """Apps made by a test, their workers stopped afterwards."""
    from referee.root import stop_app

    made = []

    def make(**config):
        """An app with the limits on and tiny limits (limits_helpers.TINY), `config` over."""
        made.append(limited_app(**config))
        return made[-1]
    yield make
    for app in made:
        stop_app(app)
