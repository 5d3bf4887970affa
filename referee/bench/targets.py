"""Every figure issues 17 and 45 hold the service to, measured in one run, against its target.

`referee bench targets` runs, one after another on this machine, `bench arena` for every game
(a bot match end to end against one loopback round trip, the referee's overhead in-process,
Redis round trips per move), `bench http` (the README's deployment: server CPU per request
against a bare Flask JSON endpoint on the same server, and its p99 with 32 clients) and `bench
polls` twice (other requests' p99 with 2,000 long polls, then 2,000 event streams held,
against none held, and the server's OS threads with each). Each prints its own lines as it
goes; then one table gives each figure, its target and whether it was met, and below it the
figures that have no target.

Figures, not assertions: the command exits 0 whatever it measured, and a missed target reads
MISSED in the table. Figures from a busy machine are not comparable: the load average is
printed before and after, and with the table the share of the CPUs' time a virtual machine's
host gave to others meanwhile (steal), which moves the ratios too. `bench arena` and `bench
http` name the Python that ran them, whose build moves the times (README, Benchmarks).

    referee bench targets [--game G] [--players N] [--rounds 3] [--seconds 5] [--matches 10]
                          [--clients 1 8 32] [--held 2000]

`--game G` measures one game's bot match (default: every game's) and runs `bench http` on it
(default: the first game).
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


KINDS = {"prompts": "long polls", "events": "event streams"}
"""The held waits `bench polls` measures, as the table names them."""


def rows(arenas: dict, http: dict, polls: dict, held: int) -> list[Row]:
    """The table's rows from what the benchmarks returned: `arenas` by game, `http` by client
    count, `polls` by kind of held wait."""
    from arena.bench import EMBEDDED_TARGET_X, HTTP_TARGET_X, OVERHEAD_TARGET_US
    from referee.bench.http import CPU_TARGET_X
    from referee.bench.polls import P99_TARGET_X

    found = []
    for game, arena in arenas.items():
        found += [
            Row(f"{game}: bot match, HTTP bots in their own processes / one keep-alive round "
                f"trip", arena["http"]["paired"], HTTP_TARGET_X, "x"),
            Row(f"{game}: referee overhead per move in-process, real Redis",
                arena["overhead_redis_us"], OVERHEAD_TARGET_US, " us"),
            Row(f"{game}: referee overhead per move in-process, embedded store / the rules "
                f"alone", arena["embedded_x"], EMBEDDED_TARGET_X, "x"),
        ]
    found += [Row(f"REST server CPU per request, {clients} client{'s' * (clients != 1)} / "
                  f"a bare Flask endpoint's",
                  ratio["paired"], CPU_TARGET_X, "x") for clients, ratio in http.items()]
    found += [Row(f"other requests' p99 with {held} {KINDS[kind]} held / none held",
                  figures["ratios"][held], P99_TARGET_X, "x") for kind, figures in polls.items()]
    return found


def report(arenas: dict, http: dict, polls: dict, held: int,
           steal: str = Steal.UNKNOWN) -> list[str]:
    """The printed summary: the table, then the figures that have no limit. `steal`: what
    Steal.describe() said of the run."""
    table = rows(arenas, http, polls, held)
    missed = sum(row.value > row.limit for row in table)
    width = max(len(row.what) for row in table)
    lines = [f"issue 45 targets, {', '.join(arenas)}: {len(table) - missed} of {len(table)} "
             f"met; load average {load_average()}; {steal}", *(row.line(width) for row in table),
             "  figures without a target:"]
    for game, arena in arenas.items():
        trips = arena["trips"]
        lines.append(f"  {game}: the same moves in every arena figure, no forfeit: "
                     f"{'yes' if arena['same_moves'] else 'NO'}; Redis round trips per move: "
                     f"{trips['redis']:.2f} with in-process bots, {trips['http']:.2f} with "
                     f"HTTP bots")
    for clients, ratio in http.items():
        if clients == max(http) and "p99_ms" in ratio:
            lines.append(f"  REST p99 with {clients} clients: POST /moves "
                         f"{ratio['p99_ms']['move']:.1f} ms, GET /prompt "
                         f"{ratio['p99_ms']['prompt']:.1f} ms")
    for kind, figures in polls.items():
        if "threads" in figures:
            counts = ", ".join(f"{n} with {h} held" for h, n in figures["threads"].items())
            lines.append(f"  server OS threads, {KINDS[kind]}: {counts}")
        if "unwatched_us" in figures:
            lines.append(f"  server CPU per change of a match no one waits on, {held} "
                         f"{KINDS[kind]} held: {figures['unwatched_us']:.1f} us")
    return lines


def main(argv=None) -> None:
    """Run the benchmarks and print the table."""
    from arena.bench import main as arena_bench
    from referee.bench.http import main as http_bench
    from referee.bench.polls import main as polls_bench
    from referee.games import GAMES

    parser = argparse.ArgumentParser(prog="referee bench targets", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", help="one game (default: every game's bot match, bench "
                                       "http on the first)")
    parser.add_argument("--players", type=int, help="default: each benchmark's own")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of every benchmark")
    parser.add_argument("--seconds", type=float, default=5.0,
                        help="seconds per run of bench http and bench polls")
    parser.add_argument("--matches", type=int, default=10, help="matches per bench arena figure")
    parser.add_argument("--clients", type=int, nargs="+", default=[1, 8, 32])
    parser.add_argument("--held", type=int, default=2000,
                        help="long polls, then event streams, held")
    redisbench.add_argument(parser)
    args = parser.parse_args(argv)
    games = [args.game] if args.game else GAMES.names()
    players = ["--players", str(args.players)] if args.players else []
    rounds, seconds = ["--rounds", str(args.rounds)], ["--seconds", str(args.seconds)]
    with redisbench.choose(args.redis_url) as chosen:   # one Redis for them all
        print(f"referee bench targets: {', '.join(games)}, on {chosen.describe()}; load "
              f"average {load_average()}", flush=True)
        steal, told = Steal(), ["--redis-url", chosen.url]
        arenas = {game: arena_bench(["--game", game, *players, "--matches", str(args.matches),
                                     *rounds, "--no-workers", *told]) for game in games}
        http = http_bench(["--game", games[0], *players, "--clients",
                           *map(str, args.clients), *seconds, *rounds, *told])
        polls = {kind: polls_bench(["--held", "0", str(args.held), "--kind", kind, *seconds,
                                    *rounds, *told]) for kind in KINDS}
    for line in report(arenas, http, polls, args.held, steal.describe()):
        print(line, flush=True)
