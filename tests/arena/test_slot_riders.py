"""The call slot of a bot's next request taken in the round trip of the runner's commit
(arena/botslots.py `ride`, referee/service/scripts.py `run_with_rider`): one round trip a bot
move, the cap held when the ride finds the bot at its cap, and the slot given back when the
commit it rode on turned out stale."""

from __future__ import annotations

import json
import threading
import time

import pytest

from arena.benchruns import RoundTrips
from arena.botslots import CallSlots
from referee.service import runner
from tests.api.helpers import wait_until
from tests.conftest import inline_arena
from tests.support.bots import BotServer, counting_handler
from tests.support.threads import run_threads


@pytest.fixture
def arena(needs_real_redis):
    """An arena on the real Redis whose matches finish inline, its bots capped at 1 call."""
    with inline_arena(needs_real_redis, prefix="ride") as arena:
        arena.bots.slots.cap = 1
        yield arena


def _match(arena, seats):
    """A stored gops match between `seats`: (its meta, its live record)."""
    created = arena.create_match("gops", seats, {"cards": 4}, 5, rated=False)
    return created.meta, created.live


def _other_worker(arena) -> CallSlots:
    """The call slots as another worker process sees them (no thread state shared)."""
    slots = arena.bots.slots
    return CallSlots(slots.redis, slots.key_of, slots.cap)


def _commit(arena, meta, live, rider, version=None):
    """Commit an unchanged record of the match at `version` (default: its own) with `rider`;
    1 if it landed, 0 if the version was stale."""
    store = arena.service.store
    live.version += 1
    return store.commit_with_rider(meta.id, live.version - 1 if version is None else version,
                                   live, [{"seat": 0}], True, None, rider)


def test_a_slot_taken_with_a_commit_serves_the_next_call_without_a_round_trip(arena):
    """The ride takes the slot and reads the secret with the commit; the call then makes no
    round trip for its slot; the slot goes back with the next take."""
    bot = BotServer("good")
    try:
        record = arena.bots.register("b", bot.url, ["gops"], "me", ["gops"])
        bot.secret = record["secret"]   # it verifies our signatures
        meta, live = _match(arena, [f"bot:{record['id']}", "builtin:random"])
        assert _commit(arena, meta, live, arena.bots.ride(record, 1.0)) == 1
        assert arena.bots.slots.in_flight(record["id"]) == 1
        with RoundTrips() as trips:
            reply = arena.bots.call(record, "/start", {"x": 1}, 1.0, defer_release=True)
        assert reply.failure is None and trips.count == 0
        assert bot.refused == []   # signed with the secret the ride read
        arena.bots.flush()
        assert arena.bots.slots.in_flight(record["id"]) == 0
    finally:
        bot.stop()


def test_a_ride_at_the_cap_takes_nothing_and_the_call_waits_for_a_slot(arena):
    """Another worker holds the bot's only slot: the ride takes none (the commit lands all
    the same) and the call waits in the usual loop, never over the cap, until that slot is
    given back."""
    bot = BotServer("good")
    other = _other_worker(arena)
    try:
        record = arena.bots.register("b", bot.url, ["gops"], "me", ["gops"])
        meta, live = _match(arena, [f"bot:{record['id']}", "builtin:random"])
        held = other.acquire(record["id"], time.monotonic() + 5)
        assert _commit(arena, meta, live, arena.bots.ride(record, 1.0)) == 1
        assert arena.bots.slots.in_flight(record["id"]) == 1
        assert arena.bots.slots.acquire(record["id"], time.monotonic() + 0.05) is None
        seen = []

        def release_later():
            seen.append(arena.bots.slots.in_flight(record["id"]))
            other.release(record["id"], held)
        timer = threading.Timer(0.2, release_later)
        timer.start()
        reply = arena.bots.call(record, "/start", {"x": 1}, 5.0)
        timer.join()
        assert reply.failure is None and seen == [1]
        assert arena.bots.slots.in_flight(record["id"]) == 0
    finally:
        bot.stop()


def test_a_slot_taken_with_a_stale_commit_goes_back_at_once(arena):
    """The commit finds the match moved on: the slot it took is given back before the
    runner goes on, and the next call takes a fresh one."""
    bot = BotServer("good")
    try:
        record = arena.bots.register("b", bot.url, ["gops"], "me", ["gops"])
        meta, live = _match(arena, [f"bot:{record['id']}", "builtin:random"])
        assert _commit(arena, meta, live, arena.bots.ride(record, 1.0), version=7) == 0
        assert arena.bots.slots.in_flight(record["id"]) == 0
        with RoundTrips() as trips:
            reply = arena.bots.call(record, "/start", {"x": 1}, 1.0)
        assert reply.failure is None and trips.count == 2   # take, then release
    finally:
        bot.stop()


def test_a_ride_for_another_bot_is_given_back_and_not_used(arena):
    """The slot taken ahead serves only the bot it was taken for: a call to another bot
    takes its own and gives the unused one back in the same round trip."""
    bots = [BotServer("good", name) for name in ("one", "two")]
    try:
        records = [arena.bots.register(b.name, b.url, ["gops"], "me", ["gops"], once=False)
                   for b in bots]
        meta, live = _match(arena, [f"bot:{r['id']}" for r in records])
        assert _commit(arena, meta, live, arena.bots.ride(records[0], 1.0)) == 1
        with RoundTrips() as trips:
            reply = arena.bots.call(records[1], "/start", {"x": 1}, 1.0, defer_release=True)
        assert reply.failure is None and trips.count == 1
        assert arena.bots.slots.in_flight(records[0]["id"]) == 0
        arena.bots.flush()
        assert arena.bots.slots.in_flight(records[1]["id"]) == 0
    finally:
        for bot in bots:
            bot.stop()


def test_two_matches_of_one_capped_bot_share_its_single_slot(arena):
    """Two runners, each playing a match of one bot against itself, its cap 1: rides
    that find the slot taken fall back to waiting; the bot never has two calls at once and
    both matches end without a failure."""
    counted, peak = counting_handler(
        lambda request: (200, json.dumps({"move": request["legal_moves"][0]}).encode()), 0.002)
    bot = BotServer(counted)
    try:
        record = arena.bots.register("b", bot.url, ["gops"], "me", ["gops"])
        seat = f"bot:{record['id']}"
        ids = [arena.create_match("gops", [seat, seat], {"cards": 8}, s, rated=False).meta.id
               for s in (1, 2)]

        def play(match_id):
            while runner.advance(arena.service, match_id):
                pass
        run_threads(play, [(m,) for m in ids])
    finally:
        bot.stop()
    for match_id in ids:
        live = arena.service.store.live(match_id)
        assert live.status == "over" and not live.forfeits
    assert peak[0] == 1 and arena.bots.slots.in_flight(record["id"]) == 0


APART = ("match", "time", "previous_latency_ms")   # another match; timings measured


def _seats(arena, bots) -> list[str]:
    """A `bot:<id>` seat for each bot server, registered for gops."""
    return [f"bot:{arena.bots.register(b.name, b.url, ['gops'], 'me', ['gops'], once=False)['id']}"
            for b in bots]


def _move_requests(arena, bots, seats):
    """The /move requests (less their match id and timing) the bots received in one gops
    match."""
    for bot in bots:
        bot.requests.clear()
    created = arena.create_match("gops", seats, {"cards": 6}, 9, rated=False)
    while runner.advance(arena.service, created.meta.id):
        pass
    return [[{k: v for k, v in request.items() if k not in APART}
             for path, request in bot.requests if path == "/move"] for bot in bots]


def test_a_move_request_built_while_the_commit_is_in_flight_is_the_one_built_after(
        arena, monkeypatch):
    """The bots receive the same requests whether their bodies were built while Redis
    committed the move before (the rider's `meanwhile`) or when the runner calls them."""
    from arena.driver import BotDriver

    bots = [BotServer("good", name) for name in ("one", "two")]
    built = []
    build = BotDriver._move_body
    monkeypatch.setattr(BotDriver, "_move_body",
                        lambda self, *a: built.append(1) or build(self, *a))
    try:
        seats = _seats(arena, bots)
        ahead = _move_requests(arena, bots, seats)
        driver = arena.service.drivers["bot"]
        used, take = [], BotDriver._built

        def counted(self, turn, prepared=False):
            body = take(self, turn, prepared)
            used.extend([body] if body is not None else [])
            return body
        monkeypatch.setattr(BotDriver, "_built", counted)
        _move_requests(arena, bots, seats)
        assert len(used) == sum(map(len, ahead)) - 1   # all but the match's first move
        monkeypatch.setattr(driver, "rider", lambda turn, ref: None)   # nothing prepared
        built.clear()
        after = _move_requests(arena, bots, seats)
    finally:
        for bot in bots:
            bot.stop()
    assert ahead == after and all(ahead) and len(built) == sum(map(len, after))


def test_a_body_built_for_a_commit_that_did_not_land_is_never_sent(arena):
    """A stale commit drops what was built meanwhile; a body serves only the very live
    record and seat it was built for."""
    from referee.core import engine
    from referee.service.drivers import Turn

    bot = BotServer("good")
    try:
        record = arena.bots.register("b", bot.url, ["gops"], "me", ["gops"])
        meta, live = _match(arena, [f"bot:{record['id']}", "builtin:random"])
        driver = arena.service.drivers["bot"]
        game = arena.service.games.get("gops")
        state = arena.service.state(meta, live)
        turn = Turn(meta, live, game, state, 0, engine.decision_for(game, state, 0))
        for landed, used in ((False, False), (True, True)):
            rider = driver.rider(turn, record["id"])
            rider.meanwhile()
            rider.done([1, None], landed)
            assert (driver._built(turn) is not None) is used
        rider = driver.rider(turn, record["id"])
        rider.meanwhile()
        rider.done([1, None], True)
        other = Turn(meta, arena.service.store.live(meta.id), game, state, 0, turn.decision)
        assert driver._built(other) is None and driver._built(turn) is None
        arena.bots.flush()
        assert arena.bots.slots.in_flight(record["id"]) == 0
    finally:
        bot.stop()


def _prepared(arena, record, started: bool):
    """A turn of seat 0 of a new match, its rider run as the commit would run it (the body
    built meanwhile, the slot taken, the commit landed): (driver, turn)."""
    from referee.core import engine
    from referee.service.drivers import Turn

    meta, live = _match(arena, [f"bot:{record['id']}", "builtin:random"])
    driver, game = arena.service.drivers["bot"], arena.service.games.get("gops")
    state = arena.service.state(meta, live)
    turn = Turn(meta, live, game, state, 0, engine.decision_for(game, state, 0))
    if started:
        driver._started.add((meta.id, 0))
    rider = driver.rider(turn, record["id"])
    rider.meanwhile()
    rider.done(rider.script(keys=rider.keys, args=rider.args), True)
    return driver, turn


def test_a_started_seats_request_goes_out_as_soon_as_the_commit_landed(arena):
    """For a seat started already, the bot has the request before `choose` runs; `choose`
    reads its answer, on the slot the commit took; a seat not started yet gets /start
    first, so nothing is sent ahead for it."""
    bot = BotServer("good")
    try:
        record = arena.bots.register("b", bot.url, ["gops"], "me", ["gops"])
        bot.secret = record["secret"]
        driver, turn = _prepared(arena, record, started=True)
        assert wait_until(lambda: bot.requests)   # it went out before choose
        assert [p for p, _ in bot.requests] == ["/move"] and bot.refused == []
        with RoundTrips() as trips:
            choice = driver.choose(turn, record["id"])
        assert choice.move in turn.game.legal_moves(turn.state, 0) and trips.count == 0
        assert len(bot.requests) == 1
        driver, turn = _prepared(arena, record, started=False)
        assert len(bot.requests) == 1   # /start comes first, from choose
        driver.choose(turn, record["id"])
        assert [p for p, _ in bot.requests][1:] == ["/start", "/move"]
        arena.bots.flush()
        assert arena.bots.slots.in_flight(record["id"]) == 0
    finally:
        bot.stop()


def test_a_request_sent_ahead_and_never_read_is_given_up(arena):
    """The runner stops (its lease lost) before reading the answer: the call is given up
    (its connection closed: the answer would be read as the next one's) and its slot goes
    back; the next call to the bot works."""
    bot = BotServer("good")
    try:
        record = arena.bots.register("b", bot.url, ["gops"], "me", ["gops"])
        driver, turn = _prepared(arena, record, started=True)
        assert arena.bots.slots.in_flight(record["id"]) == 1
        driver.flush()
        assert arena.bots.slots.in_flight(record["id"]) == 0
        reply = arena.bots.call(record, "/start", {"x": 1}, 2.0)
        assert reply.failure is None and reply.body == {}
    finally:
        bot.stop()


def test_a_request_signed_ahead_goes_only_with_the_secret_read_when_it_is_sent(arena):
    """The request prepared while the commit is in flight is signed with the secret the
    last call read; it is sent as is only if the secret read with the slot is the same: a
    re-key in between (which must reach every worker at once) signs it again."""
    bot = BotServer("good")
    try:
        record = arena.bots.register("b", bot.url, ["gops"], "me", ["gops"])
        bot.secret = record["secret"]
        prepared = arena.bots.prepare(record, "/start", b"{}")
        dispatched = arena.bots.dispatch(record, "/start", b"{}", 2.0, prepared)
        assert dispatched.sent.data is prepared.data
        assert arena.bots.collect(dispatched).failure is None
        prepared = arena.bots.prepare(record, "/start", b"{}")
        bot.secret = arena.bots.rekey(record["id"])
        dispatched = arena.bots.dispatch(record, "/start", b"{}", 2.0, prepared)
        assert dispatched.sent.data is not prepared.data
        assert arena.bots.collect(dispatched).failure is None and bot.refused == []
    finally:
        bot.stop()


def test_the_turn_prepared_for_a_ride_is_the_one_the_runner_plays(arena, monkeypatch):
    """The decision worked out for the rider of a commit is the one the runner's loop uses
    next: one `decision_for` a bot move, not two (before: 33 for the 17 moves)."""
    from referee.core import engine

    bots = [BotServer("good", name) for name in ("one", "two")]
    worked, decide = [], engine.decision_for
    monkeypatch.setattr(engine, "decision_for",
                        lambda game, state, seat: worked.append(seat) or decide(game, state, seat))
    try:
        seats = _seats(arena, bots)
        requests = _move_requests(arena, bots, seats)
    finally:
        for bot in bots:
            bot.stop()
    moves = sum(map(len, requests))
    assert moves > 4 and len(worked) == moves
