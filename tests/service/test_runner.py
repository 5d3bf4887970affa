"""The runner: leases keep two runners off one match; the janitor resumes orphaned matches."""

from __future__ import annotations

from referee.service import runner
from referee.service.worker import sweep
from referee.service.drivers import SeatDriver
from tests.api.helpers import wait_until


def test_a_held_lease_keeps_a_second_runner_out(app):
    """While another runner holds the lease, advance() does nothing."""
    service = app.extensions["referee"]
    created = service.create("gops", ["remote", "remote"], None, 1)
    match_id = created.meta.id
    service.store.redis.set(runner.lease_key(service, match_id), "someone", ex=30)
    service.store.meta(match_id).seats[1]["kind"] = "builtin:random"  # pretend a bot must act
    assert runner.advance(service, match_id) == 0
    assert service.store.live(match_id).version == 0


def test_an_orphaned_match_is_resumed_to_the_end(app):
    """A runner that died (lease left to expire, no job queued) is replaced via the janitor."""
    service = app.extensions["referee"]
    created = service.create("gops", ["builtin:random", "builtin:random"], {"cards": 6}, 21)
    match_id = created.meta.id
    wait_until(lambda: service.store.live(match_id).status == "over")
    expected = service.store.live(match_id).result

    # the same match again, but a 'dead' runner holds the lease when the job arrives
    again = service.create("gops", ["builtin:random", "builtin:random"], {"cards": 6}, 21,
                           labels={"case": "orphan"})
    service.store.redis.set(runner.lease_key(service, again.meta.id), "dead-runner", px=300)
    # the job saw the lease and left; nothing moves until the janitor acts
    wait_until(lambda: not service.store.redis.exists(runner.lease_key(service, again.meta.id)))
    live = wait_until(lambda: service.store.live(again.meta.id).status == "over"
                      and service.store.live(again.meta.id), timeout=20)
    assert live.result == expected  # resumed from the stored state: same seed, same result
    assert sweep(service) == 0


def test_the_automated_set_tracks_who_must_act(app):
    """Matches wait in the janitor's list exactly while a bot must act."""
    service = app.extensions["referee"]
    created = service.create("gops", ["remote", "remote"], None, 1)
    assert created.meta.id not in service.store.automated_ids()


class _Exploding(SeatDriver):
    """A seat driver with a bug: our failure, not a bot's."""

    def validate(self, ref):
        """Any name will do."""

    def describe(self, ref):
        """A name for the seat."""
        return {"name": f"explode:{ref}"}

    def choose(self, turn, ref):
        """Always fails the way a bug in our code would."""
        raise RuntimeError("a bug in the driver")

    def rejected(self, ref, failure, match_id, version):
        """Never reached: choose fails first."""


def test_a_runner_that_keeps_failing_aborts_the_match_unrated(redis_settings):
    """Our own repeated failure aborts the match (never rated, never a bot's forfeit)."""
    from arena.plugin import arena_plugin
    from referee.root import create_app, stop_app
    from referee.service.plugins import Plugin

    buggy = Plugin(name="buggy", drivers=lambda store, settings: {"explode": _Exploding()})
    app = create_app(redis_settings, plugins=[arena_plugin(), buggy])
    try:
        service = app.extensions["referee"]
        service.queue.max_resumes = 1  # give up at the first repeat (the default allows 5)
        created = service.create("gops", ["explode:x", "builtin:random"], None, 3)
        live = wait_until(lambda: (lv := service.store.live(created.meta.id)).status != "active"
                          and lv, timeout=30)
        assert live.status == "aborted"
        assert live.result["termination"] == "aborted" and "failed" in live.result["reason"]
        assert live.forfeits == {}
        assert created.meta.id not in service.store.automated_ids()
    finally:
        stop_app(app)
