"""Every figure issue 17 holds the service to, measured in one run, against its target.

`referee bench targets` runs, one after another on this machine, `bench arena` (a bot match
end to end against one loopback round trip, the referee's overhead in-process, Redis round
trips per move), `bench http` (the README's deployment: server CPU per request against a bare
Flask JSON endpoint on the same server) and `bench polls` (other requests' p99 with long polls
held, against none held). Each prints its own lines as it goes; then one table gives each
figure, its target and whether it was met.

Figures, not assertions: the command exits 0 whatever it measured, and a missed target reads
MISSED in the table. Figures from a busy machine are not comparable: the load average is
printed before and after, and with the table the share of the CPUs' time a virtual machine's
host gave to others meanwhile (steal), which moves the ratios too. `bench arena` and `bench
http` name the Python that ran them, whose build moves the times (README, Benchmarks).

    referee bench targets [--game G] [--players N] [--rounds 3] [--seconds 5] [--matches 10]
                          [--clients 1 8 32] [--held 1000]
"""

from __future__ import annotations

import argparse
from typing import NamedTuple

from referee.bench import Steal, load_average
from referee.bench import redisbench


class Row(NamedTuple):
    """One line of the table: what was measured, the figure, its limit and its unit."""

    what: str
    value: float
    limit: float
    unit: str   # "x" (a ratio) or " us"

    def line(self, width: int) -> str:
        """The printed line, `what` padded to `width`: the figure against its target, met
        or MISSED."""
        verdict = "met" if self.value <= self.limit else "MISSED"
        digits = 0 if self.unit == " us" else 2
        figure, target = f"{self.value:.{digits}f}{self.unit}", f"<= {self.limit:g}{self.unit}"
        return f"  {self.what:<{width}} {figure:>9}  {target:<9} {verdict}"


def rows(arena: dict, http: dict, polls: dict, held: int) -> list[Row]:
    """The table's rows from what the three benchmarks returned."""
    from arena.bench import EMBEDDED_TARGET_X, HTTP_TARGET_X, OVERHEAD_TARGET_US
    from referee.bench.http import CPU_TARGET_X
    from referee.bench.polls import P99_TARGET_X

    found = [
        Row("bot match, HTTP bots in their own processes / one keep-alive round trip",
            arena["http"]["paired"], HTTP_TARGET_X, "x"),
        Row("referee overhead per move in-process, real Redis",
            arena["overhead_redis_us"], OVERHEAD_TARGET_US, " us"),
        Row("referee overhead per move in-process, embedded store / the rules alone",
            arena["embedded_x"], EMBEDDED_TARGET_X, "x"),
    ]
    found += [Row(f"REST server CPU per request, {clients} client{'s' * (clients != 1)} / "
                  f"a bare Flask endpoint's",
                  ratio["paired"], CPU_TARGET_X, "x") for clients, ratio in http.items()]
    found.append(Row(f"other requests' p99 with {held} long polls held / none held",
                     polls["ratios"][held], P99_TARGET_X, "x"))
    return found


def report(arena: dict, http: dict, polls: dict, held: int, game: str,
           steal: str = Steal.UNKNOWN) -> list[str]:
    """The printed summary: the table, then the figures that have no limit. `steal`: what
    Steal.describe() said of the run."""
    table = rows(arena, http, polls, held)
    missed = sum(row.value > row.limit for row in table)
    trips = arena["trips"]
    width = max(len(row.what) for row in table)
    lines = [f"issue 17 targets, {game}: {len(table) - missed} of {len(table)} met; "
             f"load average {load_average()}; {steal}", *(row.line(width) for row in table),
             f"  the same moves in every arena figure, no forfeit: "
             f"{'yes' if arena['same_moves'] else 'NO'}",
             f"  Redis round trips per move: {trips['redis']:.2f} with in-process bots, "
             f"{trips['http']:.2f} with HTTP bots"]
    if "unwatched_us" in polls:
        lines.append(f"  server CPU per change of a match no one waits on: "
                     f"{polls['unwatched_us']:.1f} us")
    return lines


def main(argv=None) -> None:
    """Run the three benchmarks and print the table."""
    from arena.bench import main as arena_bench
    from referee.bench.http import main as http_bench
    from referee.bench.polls import main as polls_bench
    from referee.games import GAMES

    parser = argparse.ArgumentParser(prog="referee bench targets", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default=GAMES.names()[0])
    parser.add_argument("--players", type=int, help="default: each benchmark's own")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of every benchmark")
    parser.add_argument("--seconds", type=float, default=5.0,
                        help="seconds per run of bench http and bench polls")
    parser.add_argument("--matches", type=int, default=10, help="matches per bench arena figure")
    parser.add_argument("--clients", type=int, nargs="+", default=[1, 8, 32])
    parser.add_argument("--held", type=int, default=1000, help="long polls held")
    redisbench.add_argument(parser)
    args = parser.parse_args(argv)
    players = ["--players", str(args.players)] if args.players else []
    rounds, seconds = ["--rounds", str(args.rounds)], ["--seconds", str(args.seconds)]
    with redisbench.choose(args.redis_url) as chosen:   # one Redis for the three
        print(f"referee bench targets: {args.game}, on {chosen.describe()}; load average "
              f"{load_average()}", flush=True)
        steal, told = Steal(), ["--redis-url", chosen.url]
        arena = arena_bench(["--game", args.game, *players, "--matches", str(args.matches),
                             *rounds, "--no-workers", *told])
        http = http_bench(["--game", args.game, *players, "--clients",
                           *map(str, args.clients), *seconds, *rounds, *told])
        polls = polls_bench(["--held", "0", str(args.held), *seconds, *rounds, *told])
    for line in report(arena, http, polls, args.held, args.game, steal.describe()):
        print(line, flush=True)
