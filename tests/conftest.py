"""Shared fixtures: the games under test, apps on the embedded store and on a real Redis."""

from __future__ import annotations

import contextlib
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
# Test bots listen on loopback: the tests opt in through the allow-list setting (a real
# deployment allows no internal address); subprocesses inherit it. Safety tests clear it.
os.environ.setdefault("REFEREE_BOT_ALLOW", "127.0.0.0/8,::1")
# The product's rate limits and active-match ceiling are on by default; the suite's tests
# play many matches from one address, so its apps (and subprocesses) run without them, and
# tests/api/test_limits.py turns them on with tiny limits of its own.
os.environ.setdefault("REFEREE_RATE_LIMITS", "off")
# Every write needs an account key (issue 11). Every app the tests start (in-process or as a
# subprocess, embedded or on Redis) installs this session's organiser key
# (REFEREE_ORGANISER_KEY), and the bundled clients send it (REFEREE_KEY); the Flask test
# clients send it through the `client` fixture. Tests of refusals send no key, or a player's.
TEST_ORGANISER_KEY = "rk_tests-" + uuid.uuid4().hex + uuid.uuid4().hex
os.environ.setdefault("REFEREE_ORGANISER_KEY", TEST_ORGANISER_KEY)
os.environ.setdefault("REFEREE_KEY", os.environ["REFEREE_ORGANISER_KEY"])
# Byte code is cached for the suite's processes even where PYTHONDONTWRITEBYTECODE is set (as
# on our CI machine): the suite starts hundreds of Python processes (xdist workers, servers,
# bots, gunicorn workers, the README's one-liners), and without the cache each compiled every
# module it imports again (~0.2 s of CPU a service process; each xdist worker rewrote every
# test module's asserts). The files go to __pycache__ folders, which git ignores.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False
os.environ["PYTHONPATH"] = os.pathsep.join(
    p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)

from referee.games import GAMES  # noqa: E402
from tests.support.gops import GAME as GOPS  # noqa: E402
from tests.support.scheduling import is_playout  # noqa: E402

ALL_GAMES = [*GAMES, GOPS]
"""Every registered game, plus the test-only game that drives the generic tests."""

CONFORMANCE_SEEDS = int(os.environ.get("CONFORMANCE_SEEDS", "3"))
"""Random playouts per (game, players, options); raise it for a deeper local run."""

REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
"""The real Redis the service tests use (.ci/run starts one if none answers)."""


HEAVY_FIRST = (
    "tests/clients/test_dschunke_bot.py", "tests/clients/test_yinzi_ming_bot.py",
    "tests/api/test_contract.py", "tests/web/test_match_pages.py",
    "tests/web/test_arena_pages.py", "tests/clients/test_yunnan_bot.py",
    "tests/packaging/test_wheel.py", "tests/docs/test_readme.py",
    "tests/arena/test_bots_and_failures.py", "tests/clients/test_every_game.py",
)
"""Modules that take a worker longest (20-120 s each), started first so that the many short
ones fill the end of the run on every worker rather than one long module running alone."""

_LONG_PLAYOUTS = ("yinzi-ming-4p", "yinzi-ming-3p", "yunnan-5p", "yunnan-4p", "biased")
"""Conformance playouts that take longest (more seats, longer matches), started first."""


WORKERS_PER_CORE = 2
"""`-n auto` starts this many workers a core: much of a worker's time is spent waiting (servers
and bot processes starting, HTTP round trips, workers polling Redis), so one a core leaves the
cores idle about half the run. PYTEST_XDIST_AUTO_NUM_WORKERS still overrides it."""


def pytest_xdist_auto_num_workers(config):
    """How many workers `-n auto` starts: WORKERS_PER_CORE a core."""
    forced = os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS")
    if forced:
        return int(forced)
    return WORKERS_PER_CORE * (os.cpu_count() or 1)


def pytest_sessionstart(session):
    """Say at once what runs and on which Redis: the longest modules start first, so under
    -q the first dots come only after a minute or more (issue 38: "bringing up nodes..." and
    then nothing for 3 minutes read as a hang)."""
    config = session.config
    if hasattr(config, "workerinput"):   # an xdist worker: its output is not shown
        return
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None:
        return
    workers = config.getoption("numprocesses", None)
    where = f"{workers} workers" if workers else "one process"
    reporter.write_line(
        f"referee tests: {where}, real Redis {REDIS_URL} (TEST_REDIS_URL; a redis-server of "
        f"their own if none answers); the longest modules start first, so the first results "
        f"take a minute or two, and the whole run about 8 minutes on 2 cores", flush=True)


def pytest_xdist_make_scheduler(config, log):
    """Under `-n`, each module's tests go to one worker as a unit and each conformance playout
    is a unit of its own (tests/support/scheduling.py); other `--dist` modes are xdist's."""
    if config.getvalue("dist") != "load":
        return None
    from tests.support.scheduling import ModuleOrPlayoutScheduling

    return ModuleOrPlayoutScheduling(config, log)


def pytest_collection_modifyitems(config, items):
    """The longest work first (modules keep their own order of tests), so the many short
    modules fill the end of the run on every worker rather than one long module alone."""
    items.sort(key=_start_order)


def _start_order(item) -> int:
    module = item.nodeid.split("::")[0]
    if module in HEAVY_FIRST:
        return HEAVY_FIRST.index(module)
    if is_playout(item.nodeid):
        long = any(mark in item.nodeid for mark in _LONG_PLAYOUTS)
        return len(HEAVY_FIRST) + (0 if long else 1)
    return len(HEAVY_FIRST) + 2


def _redis_answers(url: str) -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=1).ping())
    except redis.RedisError:
        return False


@pytest.fixture(scope="session")
def real_redis_url():
    """A real Redis: TEST_REDIS_URL if it answers, else a redis-server started for the
    session if one is installed, else None (service tests then use the embedded store)."""
    if _redis_answers(REDIS_URL):
        yield REDIS_URL
        return
    import shutil

    from referee.bench.redisbench import start_own

    if shutil.which("redis-server") is None:
        yield None
        return
    own = start_own("no Redis answers at TEST_REDIS_URL")   # the benchmarks' own start and stop
    try:
        yield own.url
    finally:
        own.stop()


@pytest.fixture
def needs_real_redis(real_redis_url):
    """Skip (with the reason) a test that needs separate processes sharing a real Redis."""
    if real_redis_url is None:
        pytest.skip("no Redis answers and no redis-server is installed")
    return real_redis_url


def unique_name(kind: str) -> str:
    """A prefix or queue name no other test run shares."""
    return f"test-{kind}-{uuid.uuid4().hex[:10]}"


@contextlib.contextmanager
def own_settings(redis_url):
    """Config for an app on `redis_url`, with its own key prefix and queue, and worker
    threads inside the test process; its keys are removed afterwards. Without any real
    Redis (None), the same app on the embedded store."""
    prefix, queue = unique_name("ref"), unique_name("q")
    yield {"REDIS_URL": redis_url, "KEY_PREFIX": prefix, "QUEUE_NAME": queue,
           "INLINE_WORKERS": 2}
    delete_keys(redis_url, prefix, queue)


@pytest.fixture
def redis_settings(real_redis_url):
    """`own_settings` on the real Redis (or the embedded store), for one test."""
    with own_settings(real_redis_url) as config:
        yield config


def delete_keys(redis_url, prefix: str, queue: str) -> None:
    """Remove a test's match keys and its RQ queue's keys from a real Redis."""
    import redis

    if redis_url is None:  # the embedded store goes with the process
        return
    from referee.service.worker import drop_queue

    client = redis.Redis.from_url(redis_url)
    drop_queue(client, queue)   # its jobs too: their keys do not name the queue
    for pattern in (f"{prefix}:*", f"rq:*{queue}*"):
        keys = list(client.scan_iter(pattern, count=1000))
        if keys:
            client.delete(*keys)
    workers = [w for w in client.smembers("rq:workers") if queue.encode() in w]
    if workers:   # workers named after the queue, gone with their keys above
        client.srem("rq:workers", *workers)


@contextlib.contextmanager
def running_app(config: dict, plugins=None):
    """The app `create_app(config, plugins)` builds, stopped (its worker threads ended)
    afterwards: for a test whose app needs more than `built_app` gives (a second app on the
    same prefix, a config from a fixture)."""
    from referee.root import create_app, stop_app

    app = create_app(config, plugins)
    try:
        yield app
    finally:
        stop_app(app)


@contextlib.contextmanager
def built_app(redis_url, plugins=None, **config):
    """An app on `redis_url` (None: the embedded store) with its own key prefix and queue
    and two worker threads in this process (`own_settings`), `config` over that; stopped,
    and its keys removed, afterwards. The one way the suite builds a plain app."""
    with own_settings(redis_url) as settings, \
            running_app({**settings, **config}, plugins) as app:
        yield app


@contextlib.contextmanager
def inline_arena(redis_url, *plugins, prefix: str = "arena"):
    """An arena service on `redis_url` whose matches finish inline (no queue, no worker), its
    bots allowed on loopback, `plugins` after the arena's; its keys removed afterwards."""
    from arena.plugin import arena_plugin
    from referee.root import build_service
    from referee.service.config import Settings

    key_prefix = unique_name(prefix)
    service = build_service(Settings(redis_url=redis_url, key_prefix=key_prefix),
                            [arena_plugin(inline=True, loopback=True), *plugins], queued=False)
    try:
        yield service.extensions["arena"]
    finally:
        delete_keys(redis_url, key_prefix, "none")


@pytest.fixture
def app(redis_settings):
    """The real app on the real Redis; its worker threads are stopped afterwards."""
    with running_app(redis_settings) as app:
        yield app


@pytest.fixture(scope="module")
def shared_app(real_redis_url):
    """One app for a module's tests (as `app`, with worker threads, own prefix and queue,
    its keys removed afterwards), for modules whose tests each make their own matches and
    change nothing app-wide: an app costs ~40 ms of CPU to build and stop. A module opts in
    by defining `app` as this fixture; it then runs on one worker (tests/support/scheduling)."""
    with built_app(real_redis_url) as app:
        yield app


def organiser_client(app):
    """A test client of `app` that sends the session's organiser key with every request
    (a request's own Authorization header, a seat token, replaces it)."""
    client = app.test_client()
    client.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {os.environ['REFEREE_ORGANISER_KEY']}"
    return client


def account_client(app, name: str, role: str = "player"):
    """A test client of `app` acting for a new account of `role`; (client, account id)."""
    accounts = app.extensions["referee"].extensions["access"].accounts
    account, key = accounts.create(name, role)
    client = app.test_client()
    client.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {key}"
    return client, account["id"]


@pytest.fixture
def client(app):
    """A test client of the real app, acting as the organiser."""
    return organiser_client(app)


@pytest.fixture
def embedded_app():
    """The app on the embedded store (the default with no REDIS_URL), own prefix and queue."""
    with running_app({"REDIS_URL": None, "KEY_PREFIX": unique_name("emb"),
                      "QUEUE_NAME": unique_name("embq")}) as app:
        yield app
