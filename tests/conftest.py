"""Shared fixtures: the games under test, apps on the embedded store and on a real Redis."""

from __future__ import annotations

import os
import sys
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# The test-only game is served through the same plug-in hook any extra game would use;
# subprocesses (gunicorn, workers, `referee serve`) inherit it.
os.environ.setdefault("REFEREE_EXTRA_GAMES", "tests.support.gops:GAME")
os.environ["PYTHONPATH"] = os.pathsep.join(
    p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)

from referee.games import GAMES  # noqa: E402
from tests.support.gops import GAME as GOPS  # noqa: E402

ALL_GAMES = [*GAMES, GOPS]
"""Every registered game, plus the test-only game that drives the generic tests."""

CONFORMANCE_SEEDS = int(os.environ.get("CONFORMANCE_SEEDS", "3"))
"""Random playouts per (game, players, options); raise it for a deeper local run."""

REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
"""The real Redis the service tests use (CI starts one if none answers)."""


def unique_name(kind: str) -> str:
    """A prefix or queue name no other test run shares."""
    return f"test-{kind}-{uuid.uuid4().hex[:10]}"


@pytest.fixture
def redis_settings():
    """Config for an app on the real Redis, with its own key prefix and queue, and worker
    threads inside the test process; its keys are removed afterwards."""
    import redis

    prefix, queue = unique_name("ref"), unique_name("q")
    config = {"REDIS_URL": REDIS_URL, "KEY_PREFIX": prefix, "QUEUE_NAME": queue,
              "INLINE_WORKERS": 2}
    yield config
    client = redis.Redis.from_url(REDIS_URL)
    for pattern in (f"{prefix}:*", f"rq:*{queue}*"):
        keys = list(client.scan_iter(pattern, count=1000))
        if keys:
            client.delete(*keys)


@pytest.fixture
def app(redis_settings):
    """The real app on the real Redis."""
    from referee.api import create_app

    return create_app(redis_settings)


@pytest.fixture
def client(app):
    """A test client of the real app."""
    return app.test_client()


@pytest.fixture
def embedded_app():
    """The app on the embedded store (the default with no REDIS_URL), own prefix and queue."""
    from referee.api import create_app

    return create_app({"REDIS_URL": None, "KEY_PREFIX": unique_name("emb"),
                       "QUEUE_NAME": unique_name("embq")})
