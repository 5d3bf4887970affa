"""`referee play` and `referee tournament`: offline runs with no Redis and no server."""

from __future__ import annotations

import argparse
import json
import sys

from arena.offline import failure_report, offline_arena, run_to_end, seat_for
from arena.progress import MatchProgress, TournamentProgress, write_tournament
from referee.service.defaults import MATCH_LIMITS, TOURNAMENT
from referee.service.records import to_jsonl


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", required=True)
    parser.add_argument("--bot", action="append", required=True, dest="bots",
                        metavar="URL[@SECRET_FILE]|builtin:NAME",
                        help="a bot URL, or builtin:random; repeat once per seat/entrant. A "
                        "bot is called with its own secret: the file after @, else the bot "
                        "kit's <name>.secret in ~/.local/state/referee/bots "
                        "($REFEREE_BOT_STATE_DIR), if there is one")
    parser.add_argument("--options", default="{}", help="match options as JSON")
    parser.add_argument("--move-ms", type=int, default=MATCH_LIMITS["move_ms"])
    parser.add_argument("--bank-ms", type=int, default=MATCH_LIMITS["bank_ms"])
    parser.add_argument("--start-ms", type=int, default=MATCH_LIMITS["start_ms"])
    parser.add_argument("--strikes", type=int, default=MATCH_LIMITS["strikes"])
    parser.add_argument("--quiet", action="store_true", help="no progress lines")


def _limits(args) -> dict:
    return {"move_ms": args.move_ms, "bank_ms": args.bank_ms, "start_ms": args.start_ms,
            "strikes": args.strikes}


def play(argv) -> None:
    """Play one match between the given bots; write its log as JSON Lines."""
    parser = argparse.ArgumentParser(prog="referee play", description=play.__doc__)
    _common(parser)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--out", help="JSON Lines file (default: standard output)")
    parser.add_argument("--progress-every", type=float, default=2.0, metavar="SECONDS",
                        help="a progress line this often while the match runs (0: none)")
    args = parser.parse_args(argv)
    arena = offline_arena()
    arena.service.games.get(args.game)  # an unknown game is the game's error, not the bots'
    entered: dict = {}
    seats = _enter(arena, args.game, args.bots, entered)
    created = arena.create_match(args.game, seats, json.loads(args.options), args.seed,
                                 _limits(args), rated=False)
    run_to_end(arena, created.meta.id,
               None if args.quiet else MatchProgress(args.progress_every))
    text = to_jsonl(arena.service.log(created.meta.id, None))
    if args.out:
        with open(args.out, "w", encoding="utf-8") as handle:
            handle.write(text)
    else:
        sys.stdout.write(text)
    _, live = arena.service.load(created.meta.id)
    print(_summary(arena, created.meta, live), file=sys.stderr)
    _report_failures(arena, [created.meta.id], entered)


def _enter(arena, game: str, bots: list, entered: dict) -> list[str]:
    """The seat kinds of the --bot entries; a secret file that cannot be read ends the
    command with one line."""
    seats = []
    for entry in bots:
        try:
            seats.append(seat_for(arena, game, entry, entered))
        except (OSError, ValueError) as err:
            sys.exit(f"error: cannot read the secret for --bot {entry}: {err}")
    return seats


def _report_failures(arena, match_ids: list, entered: dict) -> None:
    """Say which bots forfeited and why; exit 1 when every bot seat failed."""
    lines, all_failed = failure_report(arena, match_ids, entered)
    for line in lines:
        print(f"warning: {line}", file=sys.stderr)
    if all_failed:
        sys.exit("error: every bot seat forfeited (bot.* failures above): the bots did not "
                 "play")


def _summary(arena, meta, live) -> str:
    rows = [f"match {meta.id}: {meta.game}, seed {meta.seed}, {live.version} moves, "
            f"{live.result['termination']}"]
    for seat, info in enumerate(meta.seats):
        failure = live.result.get("failures", {}).get(str(seat))
        rows.append(f"  seat {seat} {info.get('name')}: rank {live.result['ranks'][seat]}, "
                    f"score {live.result['scores'][seat]}"
                    + (f", forfeited ({failure['code']})" if failure else ""))
    return "\n".join(rows)


def tournament(argv) -> None:
    """Run a round robin (duplicate format) between the given bots; print the standings."""
    parser = argparse.ArgumentParser(prog="referee tournament", description=tournament.__doc__)
    _common(parser)
    parser.add_argument("--players", type=int)
    parser.add_argument("--seeds", type=int, default=TOURNAMENT["seeds_per_table"],
                        help="seeds per table")
    parser.add_argument("--seed", type=int, default=0, help="tournament seed")
    parser.add_argument("--seatings", choices=["rotations", "permutations"],
                        default=TOURNAMENT["seatings"],
                        help="each table in its rotations or every order")
    parser.add_argument("--out", metavar="FOLDER", help="write standings.json (standings, "
                        "every match's result) and matches/<n>-<id>.jsonl (every match's log, "
                        "replayable) in this folder; a path ending in .json is the standings "
                        "file, with the logs in <name>.matches/ beside it")
    args = parser.parse_args(argv)
    arena = offline_arena()
    arena.service.games.get(args.game)  # an unknown game is the game's error, not the bots'
    entered: dict = {}
    entrants = [s.removeprefix("bot:") for s in _enter(arena, args.game, args.bots, entered)]
    tour = arena.tournaments.create({
        "game": args.game, "entrants": entrants, "players": args.players,
        "seeds_per_table": args.seeds, "seatings": args.seatings, "seed": args.seed,
        "options": json.loads(args.options),
        "limits": _limits(args), "rated": True})
    ids = arena.tournaments.match_ids(tour["id"])
    progress = None if args.quiet else TournamentProgress(arena, len(ids))
    for match_id in ids:
        run_to_end(arena, match_id)
        if progress is not None:
            progress.match_done(match_id)
    final = arena.tournaments.get(tour["id"])
    print(f"{final['game']}: {final['progress']['finished']} matches, "
          f"{final['players']}-player tables, {final['seeds_per_table']} seeds per table")
    print(f"{'place':>5}  {'entrant':<32} {'ordinal':>8} {'mu':>8} {'sigma':>7} {'avg rank':>8}"
          f" {'avg score':>9} {'wins':>5} {'fail %':>6}")
    for row in final["standings"]:
        print(f"{row['place']:>5}  {row['name'][:32]:<32} {row['ordinal']:>8.2f} {row['mu']:>8.2f}"
              f" {row['sigma']:>7.2f} {row['average_rank']:>8.2f} {row['average_score']:>9.2f}"
              f" {row['wins']:>5} {100 * row['failure_rate']:>6.1f}")
    if final.get("note"):
        print(f"note: {final['note']}")
    if args.out:
        logs = write_tournament(arena, final, args.out)
        print(f"standings and {len(final['matches'])} match logs written ({logs})",
              file=sys.stderr)
    _report_failures(arena, final["matches"], entered)
