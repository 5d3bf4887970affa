"""`referee bench arena` compares like with like (issue 17): one policy in every figure, the
same moves checked, HTTP bots in processes of their own, nobody forfeiting; figures printed."""

from __future__ import annotations

import re
from types import SimpleNamespace

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
                     r"2\.5x; round by round \d+\.\d\d; the medians above give \d+\.\d\dx\); "
                     r"\d\.\d\d Redis round", out), out
    assert "(taken in turns with the matches)" in out
    assert re.search(r"CPU of this thread: rules \d+ us/move; embedded \d+ \(overhead -?\d+ us"
                     r" = -?\d+\.\d\dx\); real Redis \d+ \(overhead -?\d+ us\); HTTP \d+", out)
    assert out.count("load average") == 2


def test_the_http_ratio_pairs_each_round_with_its_own_floor():
    """A round whose floor was slow (the machine busy) is judged against that floor, not
    against another round's: the headline is the median of the rounds' ratios."""
    rounds = [{"http": SimpleNamespace(us_per_move=us), "floor_ms": floor}
              for us, floor in ((900, 0.30), (1800, 0.60), (1000, 0.25))]
    ratios = bench.http_ratios(rounds)
    assert [round(x, 2) for x in ratios["each"]] == [3.0, 3.0, 4.0]
    assert ratios["paired"] == 3.0
    assert round(ratios["of_medians"], 2) == 3.33   # 1.0 ms over 0.30 ms: rounds mixed


def test_the_figures_take_turns_seed_by_seed(monkeypatch):
    """Each seed is played by every figure in turn (rules, embedded, Redis, a turn of the
    floor, HTTP bots) before the next seed: figures compared with each other see the
    machine at the same speed. The runs of a figure add up."""
    from arena import benchruns

    order = []

    def run(label):
        def made(*args, **kwargs):
            seeds = args[-1]
            order.append((label, list(seeds)))
            return benchruns.Run(moves=10, seconds=0.01, cpu_seconds=0.005,
                                 logs=[[(0, {"seed": s})] for s in seeds], round_trips=1)
        return made
    arenas = iter(["embedded-arena", "redis-arena"])
    monkeypatch.setattr(benchruns, "make_arena", lambda url: next(arenas))
    monkeypatch.setattr(benchruns, "cleanup", lambda arena: order.append(("cleanup", arena)))
    monkeypatch.setattr(benchruns, "http_seats", lambda *a: ["bot:a", "bot:b"])
    monkeypatch.setattr(benchruns, "rules_alone", run("rules"))
    monkeypatch.setattr(benchruns, "play_matches", lambda arena, name, seats, seeds: run(
        f"{arena}:{'http' if seats[0].startswith('bot:') else 'bench'}")(seeds))
    monkeypatch.setattr(benchruns, "floor_ms", lambda url, calls: order.append(
        ("floor", [url])) or 0.25)
    game = SimpleNamespace(spec=SimpleNamespace(name="gops"))
    found = bench.one_round(game, 2, [7, 8], "redis://x", ["u1"])
    per_seed = ["rules", "embedded-arena:bench", "redis-arena:bench", "floor",
                "redis-arena:http"]
    assert [label for label, _ in order] == per_seed * 2 + ["cleanup", "cleanup"]
    assert [seeds for label, seeds in order[:5] if label != "floor"] == [[7]] * 4
    assert found["floor_ms"] == 0.25
    assert found["http"].moves == 20 and found["rules"].logs == [[(0, {"seed": 7})],
                                                                  [(0, {"seed": 8})]]
    assert found["redis"].round_trips == 2 and round(found["embedded"].seconds, 2) == 0.02


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
