"""The runner's batches (referee/service/batch.py): moves of seats played in this process
(builtin bots, forfeited seats) committed several to one round trip, yet every move is in the
log with its own version, has its own change signal and commit hooks, as when committed
alone; a runner that dies mid-batch leaves only whole commits, and the resumed match is the
one an uninterrupted run plays; an HTTP bot is only ever asked about a committed match."""

from __future__ import annotations

import json
import math
import os
import signal

import pytest
import redis

from referee.root import build_service
from referee.service import batch, runner
from referee.service.config import Settings
from referee.service.drivers import BuiltinDriver
from referee.service.plugins import Plugin, ServiceHooks
from tests.conftest import inline_arena
from tests.support import slowseats
from tests.support.bots import BotServer, deterministic_choice
from tests.support.http import PYTHON, start_process, stop_process

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

MOST = 5
BUILTINS = ["builtin:random", "builtin:random"]


class Heard(ServiceHooks):
    """The commit hooks' calls: (match, old version, new version) each."""

    def __init__(self):
        self.commits = []

    def after_commit(self, meta, old, live) -> None:
        self.commits.append((meta.id, None if old is None else old.version, live.version))


@pytest.fixture
def arena(needs_real_redis, monkeypatch):
    """An arena on the real Redis, matches finished inline, batches of MOST moves (never
    flushed for time here: on a loaded machine that would change the counts)."""
    monkeypatch.setattr(batch, "BATCH_MOVES", MOST)
    monkeypatch.setattr(batch, "BATCH_SECONDS", 10.0**9)
    heard = Heard()
    with inline_arena(needs_real_redis, Plugin(name="heard", attach=lambda _s, _t: heard),
                      prefix="batch") as arena:
        arena.heard, arena.url = heard, needs_real_redis
        yield arena


def _commits(monkeypatch, store) -> list:
    """The store's commit script calls from now on: the log entries each one carried."""
    calls, script = [], store._commit

    def counting(keys=(), args=()):
        calls.append(len(args) - 6)   # the log entries follow 6 fixed arguments (store.py)
        return script(keys=keys, args=args)
    monkeypatch.setattr(store, "_commit", counting)
    return calls


def _run(arena, match_id) -> None:
    while runner.advance(arena.service, match_id):
        pass


def _moves(arena, match_id) -> list:
    """The log without its timestamps."""
    return [json.dumps({k: v for k, v in e.items() if k != "at"}, sort_keys=True)
            for e in arena.service.store.log(match_id)]


def test_a_batch_commits_its_moves_in_one_round_trip_each_move_logged_signalled_heard(
        arena, monkeypatch):
    """MOST moves a commit; the log, the versions, the change signals and the hooks are
    those of a run committing move by move (batches of 1, the old runner)."""
    store = arena.service.store
    created = arena.create_match("gops", BUILTINS, {"cards": 8}, 11, rated=False)
    match_id = created.meta.id
    listener = redis.Redis.from_url(arena.url, decode_responses=True).pubsub(
        ignore_subscribe_messages=True)
    listener.subscribe(store.key(match_id, "events"))
    listener.get_message(timeout=1)   # the subscription is in place
    calls = _commits(monkeypatch, store)
    _run(arena, match_id)
    live = store.live(match_id)
    assert live.status == "over" and live.version > 3 * MOST
    assert calls == [MOST] * (live.version // MOST) + ([live.version % MOST] if
                                                      live.version % MOST else [])
    signals = []
    while (message := listener.get_message(timeout=0.5)) is not None:
        signals.append(int(message["data"]))
    assert signals == list(range(1, live.version + 1))
    assert [e["version"] for e in store.log(match_id)] == list(range(live.version))
    heard = [(old, new) for m, old, new in arena.heard.commits if m == match_id]
    assert heard == [(None, 0)] + [(v, v + 1) for v in range(live.version)]

    monkeypatch.setattr(batch, "BATCH_MOVES", 1)
    alone = arena.create_match("gops", BUILTINS, {"cards": 8}, 11, rated=False).meta.id
    del calls[:]
    _run(arena, alone)
    assert calls == [1] * live.version
    assert _moves(arena, alone) == _moves(arena, match_id)
    assert store.live(alone).result == live.result


class Killed(BaseException):
    """The process dies here: no handler runs (a BaseException, which the runner's failure
    handling does not catch, as it cannot catch SIGKILL)."""


@pytest.mark.parametrize("killed_at", [MOST + 2, 2 * MOST])
def test_a_runner_killed_mid_batch_loses_no_commit_and_resumes_to_the_same_match(
        arena, monkeypatch, killed_at):
    """The runner dies while moves wait in its batch (and, at 2 * MOST, just before the
    commit of a full one): the store holds the whole batches before, nothing of the one it
    was making; a new runner resumes the match to the result and log of an uninterrupted
    run of the seed."""
    store, choose = arena.service.store, BuiltinDriver.choose
    chosen = []

    def dying(self, turn, ref):
        chosen.append(turn.live.version)
        if len(chosen) == killed_at + 1:
            raise Killed()
        return choose(self, turn, ref)
    if killed_at % MOST == 0:   # dies in the commit of the full batch, before sending it
        calls, script = [], store._commit

        def dying_commit(keys=(), args=()):
            calls.append(1)
            if len(calls) == killed_at // MOST:
                raise Killed()
            return script(keys=keys, args=args)
        monkeypatch.setattr(store, "_commit", dying_commit)
    else:
        monkeypatch.setattr(BuiltinDriver, "choose", dying)
    match_id = arena.create_match("gops", BUILTINS, {"cards": 8}, 5, rated=False).meta.id
    with pytest.raises(Killed):
        runner.advance(arena.service, match_id)
    stopped = store.live(match_id)
    whole = (killed_at // MOST - (1 if killed_at % MOST == 0 else 0)) * MOST
    assert stopped.version == whole and stopped.status == "active"
    assert len(store.log(match_id)) == whole
    store.redis.delete(store.key(match_id, "runner"))   # a dead runner's lease expires
    monkeypatch.undo()
    monkeypatch.setattr(batch, "BATCH_SECONDS", 10.0**9)
    _run(arena, match_id)
    reference = arena.create_match("gops", BUILTINS, {"cards": 8}, 5, rated=False).meta.id
    _run(arena, reference)
    live = store.live(match_id)
    assert live.status == "over" and live.result == store.live(reference).result
    assert _moves(arena, match_id) == _moves(arena, reference)


def test_a_forfeited_seat_is_played_in_batches(arena, monkeypatch):
    """A remote seat that resigned is the referee's (random, from the seed): its moves and
    the bot's go in batches."""
    store = arena.service.store
    created = arena.create_match("gops", ["remote", "builtin:random"], {"cards": 8}, 2,
                                 rated=False)
    arena.service.resign(created.meta.id, 0)
    calls = _commits(monkeypatch, store)
    _run(arena, created.meta.id)
    live = store.live(created.meta.id)
    assert live.status == "over" and live.version > 2 * MOST
    assert len(calls) == math.ceil((live.version - 1) / MOST)   # after the resignation
    assert any(e["seat"] == 0 and e["by"] == "referee" for e in store.log(created.meta.id))


@pytest.mark.parametrize("bot_seat", [0, 2])
def test_an_http_bot_is_asked_only_about_a_committed_match(arena, bot_seat):
    """Builtin seats beside an HTTP bot (bids at once, gops; the bot first or last): every
    move the bot is asked for is at the stored version, so nothing the runner made waits
    while the bot thinks."""
    store = arena.service.store
    seen = []

    def answer(request):
        seen.append((request["version"], store.live(request["match"]).version))
        return 200, json.dumps({"move": deterministic_choice(request)}).encode()
    bot = BotServer(answer, "asked")
    try:
        bot_id = arena.bots.register(bot.name, bot.url, ["gops"], "me", ["gops"],
                                     once=False)["id"]
        seats = [*BUILTINS]
        seats.insert(bot_seat, f"bot:{bot_id}")
        created = arena.create_match("gops", seats, {"cards": 6}, 4, rated=False)
        _run(arena, created.meta.id)
    finally:
        bot.stop()
    assert store.live(created.meta.id).status == "over"
    assert len(seen) >= 6 and all(asked == stored for asked, stored in seen)


def test_a_runner_process_killed_mid_batch_resumes_to_the_same_match(arena):
    """SIGKILL a process whose runner has moves waiting in its batch (slow seats played in
    its process, batches of 4): the store holds the first batch alone; a runner elsewhere
    resumes the match to the log and result of an uninterrupted run of the seed."""
    store = arena.service.store
    service = build_service(Settings(redis_url=arena.url, key_prefix=store.prefix),
                            [slowseats.plugin(pause=False)], queued=False)
    seats = ["slow:150", "slow:150"]
    match_id = service.create("gops", seats, {"cards": 8}, seed=9).meta.id
    child = start_process([PYTHON, "-m", "tests.support.slowseats", arena.url, store.prefix,
                           match_id, "4"], cwd=ROOT)
    try:
        lines = []
        while not lines or lines[-1] != "chose 6":   # moves 4 and 5 wait, 6 is being made
            line = child.stdout.readline()
            assert line, "".join(lines)
            lines.append(line.strip())
        holder = store.redis.get(store.key(match_id, "runner"))
        os.kill(child.pid, signal.SIGKILL)
        child.wait(10)
    finally:
        stop_process(child)
    assert holder.split(":")[1] == str(child.pid)
    stopped = store.live(match_id)
    assert stopped.version == 4 and len(store.log(match_id)) == 4
    store.redis.delete(store.key(match_id, "runner"))   # a dead runner's lease expires
    while runner.advance(service, match_id):
        pass
    reference = service.create("gops", seats, {"cards": 8}, seed=9).meta.id
    while runner.advance(service, reference):
        pass
    live = store.live(match_id)
    assert live.status == "over" and live.result == store.live(reference).result
    assert _moves(arena, match_id) == _moves(arena, reference)
