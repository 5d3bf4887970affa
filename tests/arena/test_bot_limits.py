"""A per-bot cap on calls in flight across processes (issue 12), and a bot that fails matches
in a row is disabled until its owner re-enables it."""

from __future__ import annotations

import time

import pytest

from arena import botslots
from arena.botslots import CallSlots
from arena.bots import BotRegistry
from arena.botstanding import DISABLE_AFTER_ENV, Standing
from arena.netguard import AddressPolicy
from referee.service.connection import connect
from tests.api.helpers import wait_until
from tests.arena.helpers import arena_match, finished, register
from tests.conftest import account_client, delete_keys, organiser_client, running_app, unique_name
from tests.support.bots import BotServer, counting_handler
from tests.support.threads import run_threads


@pytest.fixture
def redis_prefix(real_redis_url):
    prefix = unique_name("lim")
    yield connect(real_redis_url), prefix
    delete_keys(real_redis_url, prefix, "none")


def test_slots_never_admit_over_the_cap_and_expire_after_a_dead_worker(redis_prefix,
                                                                       monkeypatch):
    """Two slots: a third caller waits until its deadline and gets none; a slot never
    released (its worker died) frees itself once its call's deadline and margin pass."""
    redis, prefix = redis_prefix
    monkeypatch.setattr(botslots, "EXPIRY_MARGIN_S", 0.2)
    slots = CallSlots(redis, lambda b: f"{prefix}:{b}:calls", cap=2)
    first = slots.acquire("b1", time.monotonic() + 0.3)
    second = slots.acquire("b1", time.monotonic() + 0.3)
    assert first and second and slots.in_flight("b1") == 2
    assert slots.acquire("b1", time.monotonic() + 0.1) is None
    assert slots.acquire("b2", time.monotonic() + 0.1) is not None  # per bot
    slots.release("b1", first)
    assert slots.acquire("b1", time.monotonic() + 0.1) is not None
    # `second` and the one just taken are never released: they go when they expire
    assert wait_until(lambda: slots.acquire("b1", time.monotonic() + 0.05), timeout=3)


def test_calls_from_two_processes_share_the_cap(redis_prefix):
    """Two registries (two workers' connections) calling one slow bot from 6 threads: the
    bot never sees more than 2 calls at once, and every call is answered."""
    redis, prefix = redis_prefix
    slow, peak = counting_handler(lambda request: (200, b'{"move": {"type": "keep"}}'), 0.15)
    bot = BotServer(slow, "slow")
    policy = AddressPolicy.from_setting("127.0.0.0/8")
    workers = [BotRegistry(redis.__class__(**_kwargs(redis)), prefix, policy, max_calls=2)
               for _ in range(2)]
    try:
        record = workers[0].register("slow", bot.url, ["gops"], "me", ["gops"])
        replies = []

        def play(registry):
            replies.append(registry.call(record, "/move", {"x": 1}, 5.0))
        run_threads(play, [(workers[i % 2],) for i in range(6)])
    finally:
        bot.stop()
    assert [r.failure for r in replies] == [None] * 6 and peak[0] == 2


def _kwargs(redis) -> dict:
    """Connection settings of a client, for a second, separate client."""
    kwargs = dict(redis.connection_pool.connection_kwargs)
    return {k: kwargs[k] for k in ("host", "port", "db", "decode_responses") if k in kwargs}


def test_the_streak_counts_only_matches_forfeited_through_bot_failures(redis_prefix):
    """Forfeit, a finished match, forfeit: a streak of one; then two more disable it."""
    redis, prefix = redis_prefix
    standing = Standing(redis, lambda b, part: f"{prefix}:{b}:{part}", disable_after=3)
    for forfeit in ({"code": "bot.timeout"}, None, {"code": "bot.unreachable"}):
        standing.match_ended("b", forfeit)
    assert standing.figures("b") == {"status": "active", "disabled": None,
                                     "failed_matches_in_a_row": 1}
    standing.match_ended("b", {"code": "bot.bad_response"})
    standing.match_ended("b", {"code": "bot.http_error"})
    figures = standing.figures("b")
    assert figures["status"] == "disabled" and "3 matches in a row" in \
        figures["disabled"]["reason"] and figures["disabled"]["code"] == "bot.http_error"


@pytest.fixture
def strict_two(monkeypatch, redis_settings):
    """The app on the real Redis with bots disabled after 2 failed matches."""
    monkeypatch.setenv(DISABLE_AFTER_ENV, "2")
    with running_app(redis_settings) as app:
        yield app


def test_a_bot_failing_matches_in_a_row_is_disabled_until_its_owner_enables_it(strict_two):
    """Two forfeits through crashes: health says disabled with the reason; new matches
    with it are refused 409 bot.disabled; its owner's key (or an organiser's) re-enables it,
    no key, the bot's secret or another player's key does not (issue 11)."""
    client, _ = account_client(strict_two, "owner")
    stranger, _ = account_client(strict_two, "stranger")
    bad, good = BotServer("crash", "crasher"), BotServer("good", "fine")
    try:
        ids = [register(client, bad), register(client, good)]
        for seed in (1, 2):
            match = finished(client, arena_match(client, [f"bot:{ids[0]}", f"bot:{ids[1]}"],
                                                 seed=seed)["id"])
            assert match["result"]["failures"]["0"]["code"] == "bot.http_error"
        health = wait_until(lambda: (h := client.get(f"/v1/bots/{ids[0]}").json["health"])
                            ["status"] == "disabled" and h)
        assert health["failed_matches_in_a_row"] == 2 and "2 matches in a row" in \
            health["disabled"]["reason"]
        assert client.get(f"/v1/bots/{ids[1]}").json["health"]["status"] == "active"
        r = client.post("/v1/arena/matches", json={"game": "gops", "seats": [
            f"bot:{ids[0]}", f"bot:{ids[1]}"], "options": {"cards": 4}})
        assert (r.status_code, r.json["code"]) == (409, "bot.disabled")
        enable = f"/v1/bots/{ids[0]}/enable"
        anonymous = strict_two.test_client()
        assert anonymous.post(enable).json["code"] == "auth.key_missing"
        by_secret = anonymous.post(enable, headers={"Authorization": f"Bearer {bad.secret}"})
        assert (by_secret.status_code, by_secret.json["code"]) == (401, "auth.key_missing")
        wrong = stranger.post(enable)
        assert (wrong.status_code, wrong.json["code"]) == (403, "auth.forbidden")
        r = client.post(enable)
        assert r.status_code == 200 and r.json["health"]["status"] == "active"
        assert "secret" not in r.json
        arena_match(client, [f"bot:{ids[0]}", f"bot:{ids[1]}"], seed=3)
        organiser = organiser_client(strict_two)
        r = organiser.post(f"/v1/bots/{ids[1]}/disable", json={"reason": "cheating"})
        assert r.json["health"]["status"] == "disabled"
        assert stranger.post(f"/v1/bots/{ids[0]}/disable").json["code"] == "auth.organiser_only"
        assert organiser.post(f"/v1/bots/{ids[1]}/enable").json["health"]["status"] == "active"
    finally:
        bad.stop()
        good.stop()
