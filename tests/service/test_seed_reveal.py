"""A seed is revealed once its match and every match sharing it ended, counting the match
being read from its status on (its group hears of the end a moment after the status)."""

from __future__ import annotations

import pytest
import redis as redis_lib

from referee.service.seeds import SeedBook
from tests.api.helpers import create, wait_until
from tests.conftest import unique_name


@pytest.fixture
def book(real_redis_url):
    """A SeedBook on the real Redis under a prefix of its own."""
    if real_redis_url is None:
        pytest.skip("no Redis")
    prefix = unique_name("seedreveal")
    client = redis_lib.Redis.from_url(real_redis_url, decode_responses=True)
    yield SeedBook(client, prefix, {})
    for key in client.scan_iter(f"{prefix}:*"):
        client.delete(key)


def test_a_group_is_over_counting_an_ended_member_not_yet_told(book):
    """Two members: one told, the other ended but not told, is over only with that member."""
    book.open_group("g", 2)
    book.ended("g", "m1")
    assert not book.group_over("g")
    assert book.group_over("g", member="m2")
    assert not book.group_over("g", member="m1")   # m1 was counted: m2 still runs
    book.ended("g", "m2")
    assert book.group_over("g") and book.group_over("g", member="m1")


def test_a_solo_match_is_over_with_its_status(book):
    """A group of one, never told, is over for its only member."""
    assert not book.group_over("match:x")
    assert book.group_over("match:x", member="x")


def test_a_log_read_as_the_match_ends_shows_its_seed(client, app):
    """The moment between the ending's commit and the group's record is simulated by
    removing the record: the log of the over match still reveals seed and salt (before,
    `seed` was null there and /v1/verify refused the log 422 record.invalid)."""
    body = create(client, seats=["builtin:random"] * 2, seed="12345", options={"cards": 3})
    wait_until(lambda: client.get(f"/v1/matches/{body['id']}").json["status"] == "over")
    store = app.extensions["referee"].store
    group = f"{store.prefix}:seedgroup:match:{body['id']}:done"
    wait_until(lambda: store.redis.scard(group) == 1)
    store.redis.delete(group)
    log = client.get(f"/v1/matches/{body['id']}/log").json
    assert log["seed"] == "12345" and log["seed_commitment"]["salt"]
    assert client.post("/v1/verify", json=log).json["legal"] is True
