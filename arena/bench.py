"""Arena benchmarks (printed figures, never asserted): what a move of a bot match costs.

    referee bench arena [--game G] [--players N] [--matches M] [--rounds R]
                        [--redis-url URL] [--no-workers]

Every figure plays the same matches (seeds 0..M-1) with one policy, arena.benchbot's
`bench_move`: the bare rules loop; in-process bots on the runner, over the embedded store and
a real Redis; and HTTP bots, each in a process of its own, on keep-alive connections. The
move logs of all of them are checked equal, and that no seat forfeited (so the referee played
no move). The floor, one loopback keep-alive HTTP round trip to a bot process, is measured in
the same run. The figures take turns seed by seed (the rules loop, the in-process bots on
each store, FLOOR_CALLS round trips to each bot, the HTTP bots), so that a spell of the
machine's noise falls on all of them; the HTTP ratio held to its target is the median of
the rounds' ratios. Figures are medians of R rounds, with the targets of issues 17 and 45:
  - HTTP bot match end to end <= 2.5x the floor (issue 45; issue 17 had 3.5x);
  - referee overhead (in-process bots minus the rules alone) <= 150 us/move on a real Redis,
    and <= 2x the rules alone on the embedded store.
Redis round trips per move are counted on the socket. The load average is printed before and
after: the machine may be shared; the last line gives the same runs in this thread's CPU time,
which a loaded machine does not inflate.
"""

from __future__ import annotations

import argparse
import os
import statistics

from arena import benchruns as runs
from arena.benchbot import BotProcess
from referee.bench import Steal, interpreter, load_average as machine_load, paired_ratios
from referee.bench import redisbench
from referee.service.config import Settings
from referee.service.context import registry_for

OVERHEAD_TARGET_US = 150
EMBEDDED_TARGET_X = 2.0
HTTP_TARGET_X = 2.5


FLOOR_CALLS = 200
"""Round trips in each turn of the floor (one before each HTTP match, to each bot)."""

FIGURES = ("rules", "embedded", "redis", "http")


def one_round(game, players: int, seeds, redis_url: str, urls: list) -> dict:
    """Every figure once, on the same seeds: runs by name, and the floor (`floor_ms`). The
    figures take turns seed by seed (the rules loop, the in-process bots on each store, a
    turn of the floor, the HTTP bots), so that a spell of the machine's noise falls on all
    of them alike: compared figures measured a few seconds apart read the machine at
    different speeds (an overhead below zero, a floor quicker than the matches saw)."""
    name = game.spec.name
    found, turns = {label: runs.Run() for label in FIGURES}, []
    arenas = {"embedded": runs.make_arena(None), "redis": runs.make_arena(redis_url)}
    try:
        bench_seats = [runs.BENCH_SEAT] * players
        http_seats = runs.http_seats(arenas["redis"], name, players, urls)
        for seed in seeds:
            found["rules"].add(runs.rules_alone(game, players, [seed]))
            for label in ("embedded", "redis"):
                found[label].add(runs.play_matches(arenas[label], name, bench_seats, [seed]))
            turns.extend(runs.floor_ms(u, calls=FLOOR_CALLS) for u in urls)
            found["http"].add(runs.play_matches(arenas["redis"], name, http_seats, [seed]))
    finally:
        for arena in arenas.values():
            runs.cleanup(arena)
    found["floor_ms"] = statistics.median(turns)
    return found


def http_ratios(rounds: list) -> dict:
    """HTTP bots' wall time per move over the floor taken in turns with that round's
    matches, round by round, their median and the ratio of the medians (`paired_ratios`)."""
    return paired_ratios([found["http"].us_per_move / 1000 for found in rounds],
                         [found["floor_ms"] for found in rounds])


def unequal_logs(rounds: list) -> list[str]:
    """The runs (figure and round) whose move log differs from the rules loop's."""
    expected = rounds[0]["rules"].logs
    return [f"{label} (round {i + 1})" for i, found in enumerate(rounds)
            for label in FIGURES if found[label].logs != expected]


def _summed(rounds: list, field: str) -> int:
    """`field` (by_referee, forfeits) summed over the runs of bots, every round."""
    return sum(getattr(found[k], field) for found in rounds for k in ("embedded", "redis", "http"))


def check_logs(rounds: list) -> str:
    """One line on whether every run played the rules loop's match, move for move."""
    bad = unequal_logs(rounds)
    moves = rounds[0]["rules"].moves
    verdict = "equal" if not bad else "NOT EQUAL: " + ", ".join(bad)
    return (f"move logs of the rules loop, in-process and HTTP bots: {verdict} ({moves} moves "
            f"a run; {_summed(rounds, 'by_referee')} played by the referee, "
            f"{_summed(rounds, 'forfeits')} forfeits)")


def figures(rounds: list) -> dict:
    """The medians over the rounds that the targets name: ms and us per move, the overheads,
    round trips per move, the HTTP ratios (`http_ratios`), and whether every run played the
    same moves with no forfeit."""
    med = lambda key, f: statistics.median(f(found[key]) for found in rounds)  # noqa: E731
    rules = med("rules", lambda r: r.us_per_move)
    embedded, real = med("embedded", lambda r: r.us_per_move), med("redis", lambda r: r.us_per_move)
    return {"floor_ms": statistics.median(found["floor_ms"] for found in rounds),
            "rules_us": rules, "embedded_us": embedded, "redis_us": real,
            "http_ms": med("http", lambda r: r.us_per_move) / 1000,
            "overhead_embedded_us": embedded - rules, "overhead_redis_us": real - rules,
            "embedded_x": (embedded - rules) / rules,
            "trips": {k: med(k, lambda r: r.trips_per_move) for k in ("redis", "http")},
            "http": http_ratios(rounds),
            "same_moves": not unequal_logs(rounds) and not _summed(rounds, "forfeits")}


def report(rounds: list) -> list[str]:
    """The printed lines: medians over the rounds, ratios against the targets."""
    f = figures(rounds)
    ratios, trips = f["http"], f["trips"]
    each = ", ".join(f"{x:.2f}" for x in ratios["each"])
    return [
        check_logs(rounds),
        f"  floor: one loopback keep-alive HTTP round trip to a bot process: "
        f"{f['floor_ms']:.3f} ms (taken in turns with the matches)",
        f"  rules alone (engine loop, no store): {f['rules_us']:.0f} us/move",
        f"  in-process bots, embedded store: {f['embedded_us']:.0f} us/move; referee overhead "
        f"{f['overhead_embedded_us']:.0f} us = {f['embedded_x']:.2f}x the rules alone "
        f"(target <= {EMBEDDED_TARGET_X:g}x)",
        f"  in-process bots, real Redis: {f['redis_us']:.0f} us/move; referee overhead "
        f"{f['overhead_redis_us']:.0f} us (target <= {OVERHEAD_TARGET_US} us); "
        f"{trips['redis']:.2f} Redis round trips/move",
        f"  HTTP bots in their own processes, real Redis: {f['http_ms']:.3f} ms/move end to "
        f"end = {ratios['paired']:.2f}x the floor, the median of the rounds' ratios (target <= "
        f"{HTTP_TARGET_X:g}x; round by round {each}; the medians above give "
        f"{ratios['of_medians']:.2f}x); {trips['http']:.2f} Redis round trips/move",
        cpu_line(rounds),
    ]


def cpu_line(rounds: list) -> str:
    """The same runs in this thread's CPU time per move (medians): what the referee's own
    code costs, which a loaded machine does not inflate (waits for Redis, bots and the CPU
    are not in it; nor is the bots' or Redis' own CPU)."""
    cpu = {k: statistics.median(found[k].cpu_us_per_move for found in rounds)
           for k in FIGURES}
    return (f"  CPU of this thread: rules {cpu['rules']:.0f} us/move; embedded "
            f"{cpu['embedded']:.0f} (overhead {cpu['embedded'] - cpu['rules']:.0f} us = "
            f"{(cpu['embedded'] - cpu['rules']) / cpu['rules']:.2f}x); real Redis "
            f"{cpu['redis']:.0f} (overhead {cpu['redis'] - cpu['rules']:.0f} us); HTTP "
            f"{cpu['http']:.0f}")


def workers_lines(game: str, players: int, seeds, redis_url: str, urls: list) -> list[str]:
    """Matches per second on 1 and 2 `referee worker` processes, builtin and HTTP bots."""
    lines = []
    kinds = (("builtin:random bots", lambda arena: ["builtin:random"] * players),
             ("HTTP bots", lambda arena: runs.http_seats(arena, game, players, urls)))
    for label, seats_of in kinds:
        found = [runs.matches_per_second(game, seats_of, players, seeds, w, redis_url)
                 for w in (1, 2)]
        (one, f1), (two, f2) = found
        lines.append(f"  workers, {label}: {one:.2f} matches/s with 1 worker, {two:.2f} with 2 "
                     f"(x{two / one:.2f}); {f1 + f2} forfeits")
    return lines


def load_average() -> str:
    """The load average and the CPU count, as printed."""
    return f"load average {machine_load()} ({os.cpu_count()} cpus)"


def main(argv=None) -> dict:
    """Print the figures; return the medians the targets name (`figures`)."""
    parser = argparse.ArgumentParser(prog="referee bench arena", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game")
    parser.add_argument("--players", type=int)
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    redisbench.add_argument(parser)
    parser.add_argument("--no-workers", action="store_true", help="skip the workers figures")
    args = parser.parse_args(argv)
    games = registry_for(Settings(redis_url=None))
    game = games.get(args.game or games.names()[0])
    players, seeds = args.players or game.spec.min_players, range(args.matches)
    with redisbench.choose(args.redis_url) as chosen:
        print(f"arena benchmark: {game.spec.name}, {players} players, {args.matches} matches "
              f"(seeds 0-{args.matches - 1}) per figure, medians of {args.rounds} rounds, on "
              f"{chosen.describe()}; before: {load_average()}", flush=True)
        return _measure(args, game, players, seeds, chosen.url)


def _measure(args, game, players: int, seeds, redis_url: str) -> dict:
    print(f"  python: {interpreter()}", flush=True)
    steal, bots = Steal(), [BotProcess(), BotProcess()]
    try:
        urls = [bot.url for bot in bots]
        rounds = [one_round(game, players, seeds, redis_url, urls)
                  for _ in range(args.rounds)]
        for line in report(rounds):
            print(line, flush=True)
        found = figures(rounds)
        if not args.no_workers:
            for line in workers_lines(game.spec.name, players, seeds, redis_url, urls):
                print(line, flush=True)
    finally:
        for bot in bots:
            bot.stop()
    print(f"after: {load_average()}; {steal.describe()}", flush=True)
    return found


if __name__ == "__main__":
    main()
