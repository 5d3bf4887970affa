"""Fixtures for the clients: the real app served over HTTP, kit bots, example bot processes."""

from __future__ import annotations

import os
import sys

import pytest

from tests.clients.support import CLIENTS_PY, LineReader, serving, start_example_bot
from tests.conftest import delete_keys, unique_name
from tests.support.http import BIN, local_client, start_process

# The client package as a checkout has it (an editable install puts the same directory on
# the path); subprocesses (the terminal player, example bots) inherit it.
sys.path.insert(0, str(CLIENTS_PY))
os.environ["PYTHONPATH"] = os.pathsep.join([str(CLIENTS_PY), os.environ["PYTHONPATH"]])


@pytest.fixture
def service_url(app):
    """The real app (real Redis, worker threads in-process) on a loopback port."""
    with serving(app) as url:
        yield url


@pytest.fixture(scope="module")
def shared_service_url(real_redis_url):
    """One served app (own prefix and queue, worker threads) for a module's tests that do
    not need a fresh service each."""
    from referee.root import create_app, stop_app

    prefix, queue = unique_name("clim"), unique_name("climq")
    app = create_app({"REDIS_URL": real_redis_url, "KEY_PREFIX": prefix, "QUEUE_NAME": queue,
                      "INLINE_WORKERS": 2})
    with serving(app) as url:
        yield url
    stop_app(app)  # before the keys go, or a worker's heartbeat writes them back
    delete_keys(real_redis_url, prefix, queue)


@pytest.fixture
def api(service_url):
    """A client of the served app, acting with the session's organiser key (clients made
    without `key=` send the same key: $REFEREE_KEY, set by tests/conftest.py), on a session
    that does not re-read the environment's proxy settings on every call (local_session)."""
    return local_client(service_url, key=os.environ["REFEREE_ORGANISER_KEY"])


@pytest.fixture
def kit_bots():
    """Start bot-kit servers in this process; all are stopped afterwards."""
    from referee_client.botkit import BotServer

    started = []

    def make(move_fn, **kwargs):
        kwargs.setdefault("name", f"kit-{len(started)}")
        server = BotServer(move_fn, **kwargs).start()
        started.append(server)
        return server

    yield make
    for server in started:
        server.stop()


@pytest.fixture
def processes():
    """Start subprocesses (output captured line by line); all are stopped afterwards."""
    started = []

    def start(args, **kwargs):
        reader = LineReader(start_process(args, **kwargs))
        started.append(reader)
        return reader

    yield start
    for reader in started:
        reader.stop()


@pytest.fixture
def example_bots(processes, tmp_path):
    """Start an example bot (`python` or `js`) registered with a service: (id, secret, url)."""
    def start(language, service_url, name):
        return start_example_bot(processes, language, service_url, name, tmp_path / name)
    return start


@pytest.fixture
def cluster_url(needs_real_redis):
    """The app with no worker threads, served over HTTP, and two `referee worker` processes
    on the same Redis prefix and queue: the real deployment in miniature."""
    from referee.root import create_app

    prefix, queue = unique_name("cli"), unique_name("cliq")
    env = {"REDIS_URL": needs_real_redis, "REFEREE_PREFIX": prefix, "REFEREE_QUEUE": queue}
    app = create_app({"REDIS_URL": needs_real_redis, "KEY_PREFIX": prefix, "QUEUE_NAME": queue})
    workers = [LineReader(start_process([f"{BIN}/referee", "worker", "--name", f"{queue}-{n}"],
                                        env_extra=env)) for n in ("a", "b")]
    with serving(app) as url:
        yield url
    for worker in workers:  # before the keys go, or a worker's heartbeat writes them back
        worker.stop()
    delete_keys(needs_real_redis, prefix, queue)
