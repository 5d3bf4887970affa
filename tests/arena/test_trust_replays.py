"""Issue 11: an aborted rated match is replayed on its seed and the replay is rated; a match's
seat details reach whom a plug-in's `may_see_seat` admits; the seed secret is shared."""

from __future__ import annotations

import threading

import pytest

from referee.core.bots import random_move
from referee.service.drivers import Choice, SeatDriver
from referee.service.plugins import Plugin, ServiceHooks
from referee.service.seeds import SeedBook, commitment
from tests.api.helpers import wait_until


class _BrokenOnce(SeatDriver):
    """A seat driver with a bug in the first match it plays (our failure, not a bot's); in a
    replay it waits for `go`, then plays at random."""

    def __init__(self):
        self.go = threading.Event()

    def validate(self, ref):
        """Any name will do."""

    def describe(self, ref):
        """A name for the seat."""
        return {"name": f"broken:{ref}"}

    def choose(self, turn, ref):
        """Fails like a bug would, except in a replay."""
        if "replay_of" not in turn.meta.labels:
            raise RuntimeError("a bug in the driver")
        self.go.wait(30)
        return Choice(move=random_move(turn.game, turn.state, turn.seat, turn.meta.seed,
                                       turn.live.version))

    def rejected(self, ref, failure, match_id, version):
        """Never reached."""


def test_an_aborted_rated_match_is_replayed_on_its_seed_and_rated(redis_settings):
    """The service gives up on a rated match: a replay with the same seats, seed and limits
    is linked from it, the seed stays hidden until the replay is over, and the leaderboard
    counts the replay instead of silently dropping the match."""
    from arena.plugin import arena_plugin
    from referee.root import create_app, stop_app

    broken = _BrokenOnce()
    plugin = Plugin(name="broken", drivers=lambda store, settings: {"broken": broken})
    app = create_app(redis_settings, plugins=[arena_plugin(), plugin])
    try:
        service = app.extensions["referee"]
        arena = service.extensions["arena"]
        service.queue.max_resumes = 1
        client = app.test_client()
        created = arena.create_match("gops", ["broken:x", "builtin:random"], {"cards": 3}, None,
                                     {"move_ms": 5000}, rated=True)
        first = created.meta.id
        live = wait_until(lambda: (lv := service.store.live(first)).result and
                          lv.result.get("replayed_by") and lv, timeout=60)
        assert live.status == "aborted"
        replay_id = live.result["replayed_by"]
        replay = service.store.meta(replay_id)
        assert (replay.seed, replay.seats, replay.limits, replay.options) == \
            (created.meta.seed, created.meta.seats, created.meta.limits, created.meta.options)
        assert replay.labels["replay_of"] == first and replay.seed_group == created.meta.seed_group
        assert replay.labels["rated"] and replay.labels["seq"] != created.meta.labels["seq"]
        # the aborted match is over, but its seed is its replay's too
        assert client.get(f"/v1/matches/{first}/log").json["seed"] is None
        assert client.get(f"/v1/matches/{replay_id}").json["status"] == "active"
        broken.go.set()
        wait_until(lambda: client.get(f"/v1/matches/{replay_id}").json["status"] == "over",
                   timeout=30)
        log = wait_until(lambda: (lg := client.get(f"/v1/matches/{first}/log").json)["seed"]
                         is not None and lg, timeout=10)
        assert log["seed"] == str(created.meta.seed)
        record = log["seed_commitment"]
        assert commitment(record["seed"], record["salt"]) == created.meta.seed_commitment
        status = wait_until(lambda: (s := arena.leaderboards.status("gops"))
                            ["applied_through"] == 2 and s, timeout=10)
        assert status["rated_matches"] == 2
        assert [r["match"] for r in arena.leaderboards.applied_results("gops")] == [replay_id]
    finally:
        broken.go.set()
        stop_app(app)


class _Owners(ServiceHooks):
    """An access plug-in stand-in: the principal "owner-of-0" may see seat 0's details."""

    def may_see_seat(self, meta, seat, caller):
        """Seat 0's owner, by the principal the request hook set."""
        return seat == 0 and caller.principal == "owner-of-0"


def _principal_from_header():
    from flask import g, request

    g.caller = request.headers.get("X-Test-Principal")  # what an access plug-in sets


def test_the_seat_details_hook_admits_whom_a_plugin_says(redis_settings):
    """While a match runs, a failure's details reach the caller a plug-in admits for that
    seat, and the seat token holder; strangers see its code only."""
    from arena.plugin import arena_plugin
    from referee.root import create_app, stop_app

    access = Plugin(name="access", attach=lambda service, settings: _Owners(),
                    request_hooks=lambda: [_principal_from_header])
    app = create_app(redis_settings, plugins=[arena_plugin(), access])
    try:
        service = app.extensions["referee"]
        client = app.test_client()
        created = service.create("gops", ["remote", "remote"], {"cards": 3}, 5)
        failure = {"code": "bot.illegal_move", "move": {"type": "bid", "card": 9},
                   "error": {"code": "move.illegal.bid.not_in_hand", "message": "secret hand"}}
        moves = service.prompt(created.meta.id, 0)["legal_moves"]
        service.submit(created.meta.id, 0, moves[0], entry_extra={"failure": failure})
        url = f"/v1/matches/{created.meta.id}/log"

        def seen(**headers):
            return client.get(url, headers=headers).json["moves"][0]["failure"]
        assert seen() == {"code": "bot.illegal_move"}
        assert seen(**{"X-Test-Principal": "someone"}) == {"code": "bot.illegal_move"}
        assert seen(**{"X-Test-Principal": "owner-of-0"}) == failure
        assert seen(Authorization=f"Bearer {created.tokens[0]}") == failure
        assert seen(Authorization=f"Bearer {created.tokens[1]}") == {"code": "bot.illegal_move"}
    finally:
        stop_app(app)


@pytest.mark.parametrize("env", [{}, {"REFEREE_SEED_SECRET": "from-the-environment"}])
def test_the_seed_secret_is_shared_by_every_process(real_redis_url, env):
    """Two services on one store derive the same seeds (SET NX), and the environment's
    secret, when set, is the one used."""
    import redis as redis_lib

    from tests.conftest import delete_keys, unique_name

    if real_redis_url is None:
        pytest.skip("no Redis")
    prefix = unique_name("seeds")
    try:
        one = SeedBook(redis_lib.Redis.from_url(real_redis_url, decode_responses=True), prefix,
                       env)
        two = SeedBook(redis_lib.Redis.from_url(real_redis_url), prefix, env)
        assert one.derive("tournament", "t1", "seed", 0) == two.derive("tournament", "t1",
                                                                       "seed", 0)
        assert one.derive("tournament", "t1", "seed", 0) != one.derive("tournament", "t1",
                                                                       "seed", 1)
        if env:
            assert one.secret() == b"from-the-environment"
    finally:
        delete_keys(real_redis_url, prefix, "none")
