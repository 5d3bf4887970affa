"""`referee sprt`: is the candidate better than the baseline? Pairs of duplicate matches,
offline (no Redis, no server), until the SPRT decides or the match budget is spent."""

from __future__ import annotations

import argparse
import json
import sys

from arena.cli import _enter, _limits, _report_failures
from arena.local import _Local
from arena.sprt import Hypotheses
from arena.sprt_run import Sprt
from arena.tournaments import table_size
from referee.service.defaults import MATCH_LIMITS

BAR = 30   # characters of the LLR bar between the two bounds


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="referee sprt", description=__doc__)
    entry = "URL[@SECRET_FILE]|builtin:NAME"
    parser.add_argument("--game", required=True)
    parser.add_argument("--candidate", required=True, metavar=entry)
    parser.add_argument("--baseline", required=True, metavar=entry)
    parser.add_argument("--opponent", action="append", dest="opponents", metavar=entry,
                        help="who fills the other seats, one per seat (default: the baseline)")
    parser.add_argument("--players", type=int, help="seats per match (default: the fewest "
                        "the game takes, or 1 + the opponents given)")
    parser.add_argument("--elo0", type=float, default=0.0, help="H0: candidate this much "
                        "better (default 0)")
    parser.add_argument("--elo1", type=float, default=10.0, help="H1: candidate this much "
                        "better (default 10)")
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    parser.add_argument("--max-matches", type=int, default=400, help="the budget (2 a pair)")
    parser.add_argument("--seed", type=int, default=0, help="the seeds of every pair")
    parser.add_argument("--options", default="{}", help="match options as JSON")
    parser.add_argument("--move-ms", type=int, default=MATCH_LIMITS["move_ms"])
    parser.add_argument("--bank-ms", type=int, default=MATCH_LIMITS["bank_ms"])
    parser.add_argument("--start-ms", type=int, default=MATCH_LIMITS["start_ms"])
    parser.add_argument("--strikes", type=int, default=MATCH_LIMITS["strikes"])
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    return parser


def bar(value: float, lower: float, upper: float) -> str:
    """Where the LLR stands between the bounds, as `[----|---->.....]`."""
    where = min(1.0, max(0.0, (value - lower) / (upper - lower)))
    filled = round(where * BAR)
    return "[" + "#" * filled + "." * (BAR - filled) + "]"


def progress_line(run: Sprt) -> str:
    """One line after a pair: matches played, W-D-L, the LLR on its bar, the score."""
    shown = run.result()
    value, (lower, upper) = shown["llr"], shown["bounds"]
    score = (f"score {shown['score']:.3f} [{shown['interval'][0]:.3f}, "
             f"{shown['interval'][1]:.3f}]")
    return (f"{len(run.match_ids):>{len(str(run.max_matches))}}/{run.max_matches} matches  "
            f"W-D-L {run.tally.wins}-{run.tally.draws}-{run.tally.losses}  "
            f"LLR {value:+.2f} {bar(value, lower, upper)} ({lower:+.2f}, {upper:+.2f})  {score}")


def summary(result: dict, candidate: str, baseline: str) -> str:
    """The verdict in words, then the figures."""
    said = {"accepted": f"{candidate} is better than {baseline} (H1: elo >= {result['elo1']})",
            "rejected": f"{candidate} is not better than {baseline} by {result['elo1']} "
                        f"(H0: elo <= {result['elo0']})",
            "inconclusive": f"no decision within {result['max_matches']} matches"}
    elo = result["elo"]
    low, high = result["elo_interval"] or (None, None)
    return (f"{result['result']}: {said[result['result']]}\n"
            f"  {result['pairs']} pairs ({result['matches']} matches, {result['players']} "
            f"players): W-D-L {result['wins']}-{result['draws']}-{result['losses']}, score "
            f"{result['score']} (95% {result['interval']}), elo {_elo(elo)} (95% "
            f"[{_elo(low)}, {_elo(high)}]), LLR {result['llr']} in {result['bounds']}, "
            f"alpha {result['alpha']}, beta {result['beta']}, forfeits {result['forfeits']}")


def _elo(value) -> str:
    return "inf" if value is None else f"{value + 0.0:+.1f}"   # never -0.0


def sprt(argv) -> None:
    """Run the test and print its verdict; exit 0 whatever it is (1 if no bot played)."""
    args = _parser().parse_args(argv)
    try:
        hypotheses = Hypotheses(args.elo0, args.elo1, args.alpha, args.beta)
    except ValueError as err:
        sys.exit(f"referee sprt: {err}")
    local = _Local()
    arena = local.arena
    game = arena.service.games.get(args.game)
    options = json.loads(args.options)
    entered: dict = {}
    candidate, baseline = _enter(arena, args.game, [args.candidate, args.baseline], entered)
    opponents = _enter(arena, args.game, args.opponents or [], entered)
    players = args.players or (len(opponents) + 1 if opponents else
                               table_size(game, None, 0, game.spec.resolve_options(options)))
    opponents = opponents or [baseline] * (players - 1)
    if len(opponents) != players - 1:
        sys.exit(f"referee sprt: {players} players need {players - 1} --opponent entries")
    run = Sprt(arena, args.game, candidate, baseline, opponents, hypotheses,
               args.max_matches, args.seed, options, _limits(args))
    result = run.run(None if args.quiet else
                     lambda r: print(progress_line(r), file=sys.stderr, flush=True))
    print(json.dumps(result) if args.json else summary(result, args.candidate, args.baseline))
    _report_failures(arena, run.match_ids, entered)
