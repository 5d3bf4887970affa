"""`referee bench arena` compares like with like (issue 17): one policy in every figure, the
same moves checked, HTTP bots in processes of their own, nobody forfeiting; figures printed."""

from __future__ import annotations

import re

from arena import bench
from arena.benchbot import BotProcess, bench_move
from arena.benchruns import floor_ms


def test_the_bench_plays_one_match_everywhere_and_prints_the_ratios(needs_real_redis, capsys):
    """README's `referee bench arena`, small: the rules loop, in-process bots (embedded
    store, real Redis) and HTTP bots play equal logs; floor, ratios and round trips shown."""
    bench.main(["--game", "gops", "--matches", "2", "--rounds", "1", "--no-workers",
                "--redis-url", needs_real_redis])
    out = capsys.readouterr().out
    assert "equal (" in out and "0 played by the referee, 0 forfeits" in out, out
    assert re.search(r"floor: .*: \d+\.\d+ ms", out), out
    assert re.search(r"= \d+\.\d+x the rules alone \(target <= 2x\)", out), out
    assert re.search(r"referee overhead -?\d+ us \(target <= 150 us\); \d\.\d\d Redis round", out)
    assert re.search(r"= \d+\.\d+x the floor, the median of the rounds' ratios \(target <= "
                     r"3\.5x; round by round \d+\.\d\d; the medians above give \d+\.\d\dx\); "
                     r"\d\.\d\d Redis round", out), out
    assert "(taken in turns with the HTTP matches)" in out
    assert re.search(r"CPU of this thread: rules \d+ us/move; embedded \d+ \(overhead -?\d+ us"
                     r" = -?\d+\.\d\dx\); real Redis \d+ \(overhead -?\d+ us\); HTTP \d+", out)
    assert out.count("load average") == 2


def test_the_http_ratio_pairs_each_round_with_its_own_floor():
    """A round whose floor was slow (the machine busy) is judged against that floor, not
    against another round's: the headline is the median of the rounds' ratios."""
    from types import SimpleNamespace

    rounds = [{"http": SimpleNamespace(us_per_move=us), "floor_ms": floor}
              for us, floor in ((900, 0.30), (1800, 0.60), (1000, 0.25))]
    ratios = bench.http_ratios(rounds)
    assert [round(x, 2) for x in ratios["each"]] == [3.0, 3.0, 4.0]
    assert ratios["paired"] == 3.0
    assert round(ratios["of_medians"], 2) == 3.33   # 1.0 ms over 0.30 ms: rounds mixed


def test_the_floor_s_turns_are_not_timed_with_the_matches(needs_real_redis):
    """`between` runs before each match, outside the seconds and CPU a run measures."""
    import time

    from arena import benchruns

    arena = benchruns.make_arena(needs_real_redis)
    calls = []

    def busy():   # 0.3 s of this thread's CPU: timed with the matches, it would count twice
        calls.append(1)
        began = time.thread_time()
        while time.thread_time() - began < 0.3:
            pass
    try:
        run = benchruns.play_matches(arena, "gops", [benchruns.BENCH_SEAT] * 2, [1, 2],
                                     between=busy)
    finally:
        benchruns.cleanup(arena)
    assert len(calls) == 2 and run.moves > 0
    assert run.seconds < 0.6 and run.cpu_seconds < 0.6


def test_the_bench_bot_is_a_process_of_its_own_playing_the_policy():
    """The bot answers from another process; its move is the policy's, from the request."""
    bot = BotProcess()
    try:
        assert bot.proc.pid and bot.proc.poll() is None
        assert floor_ms(bot.url, calls=20) > 0
    finally:
        bot.stop()
    moves = [{"type": "a"}, {"type": "b"}, {"type": "c"}]
    picks = {bench_move(moves, version, seat)["type"] for version in range(30) for seat in (0, 1)}
    assert picks == {"a", "b", "c"}  # not always the first legal move (which can stall)


def test_the_workers_figure_leaves_no_rq_queue_or_job_behind(needs_real_redis, monkeypatch):
    """`referee bench arena` without --no-workers queues matches on worker processes: once
    it has its figure, its queue, the jobs RQ still knew (a match's finishing job queued as
    the workers stopped has no expiry) and the queue's registries are gone."""
    import uuid

    import redis

    from arena import benchruns

    fixed = uuid.UUID(int=uuid.uuid4().int)
    monkeypatch.setattr(benchruns.uuid, "uuid4", lambda: fixed)
    queue = f"bench-{fixed.hex[:8]}"
    rate, forfeits = benchruns.matches_per_second(
        "gops", lambda arena: ["builtin:random"] * 2, 2, [1, 2], 1, needs_real_redis)
    assert rate > 0 and forfeits == 0
    client = redis.Redis.from_url(needs_real_redis)
    assert list(client.scan_iter(f"rq:*{queue}*")) == []
    assert f"rq:queue:{queue}".encode() not in client.smembers("rq:queues")
    left = [key for key in client.scan_iter("rq:job:*")
            if client.hget(key, "origin") == queue.encode()]
    assert left == []
