"""`referee play` and `referee tournament`: offline runs with no Redis and no server."""

from __future__ import annotations

import argparse
import json
import sys

from arena.offline import offline_arena, run_to_end, seat_for
from referee.service.defaults import MATCH_LIMITS, TOURNAMENT
from referee.service.records import to_jsonl


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", required=True)
    parser.add_argument("--bot", action="append", required=True, dest="bots",
                        help="a bot URL, or builtin:random; repeat once per seat/entrant")
    parser.add_argument("--options", default="{}", help="match options as JSON")
    parser.add_argument("--move-ms", type=int, default=MATCH_LIMITS["move_ms"])
    parser.add_argument("--bank-ms", type=int, default=MATCH_LIMITS["bank_ms"])
    parser.add_argument("--start-ms", type=int, default=MATCH_LIMITS["start_ms"])
    parser.add_argument("--strikes", type=int, default=MATCH_LIMITS["strikes"])


def _limits(args) -> dict:
    return {"move_ms": args.move_ms, "bank_ms": args.bank_ms, "start_ms": args.start_ms,
            "strikes": args.strikes}


def play(argv) -> None:
    """Play one match between the given bots; write its log as JSON Lines."""
    parser = argparse.ArgumentParser(prog="referee play", description=play.__doc__)
    _common(parser)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--out", help="JSON Lines file (default: standard output)")
    args = parser.parse_args(argv)
    arena = offline_arena()
    seats = [seat_for(arena, args.game, b) for b in args.bots]
    created = arena.create_match(args.game, seats, json.loads(args.options), args.seed,
                                 _limits(args), rated=False)
    run_to_end(arena, created.meta.id)
    text = to_jsonl(arena.service.log(created.meta.id, None))
    if args.out:
        with open(args.out, "w", encoding="utf-8") as handle:
            handle.write(text)
    else:
        sys.stdout.write(text)
    _, live = arena.service.load(created.meta.id)
    print(_summary(arena, created.meta, live), file=sys.stderr)


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
    parser.add_argument("--out", help="write the standings and results as JSON here")
    args = parser.parse_args(argv)
    arena = offline_arena()
    entrants = [seat_for(arena, args.game, b).removeprefix("bot:") for b in args.bots]
    tour = arena.tournaments.create({
        "game": args.game, "entrants": entrants, "players": args.players,
        "seeds_per_table": args.seeds, "seatings": args.seatings, "seed": args.seed,
        "options": json.loads(args.options),
        "limits": _limits(args), "rated": True})
    for match_id in arena.tournaments.match_ids(tour["id"]):
        run_to_end(arena, match_id)
    final = arena.tournaments.get(tour["id"])
    print(f"{final['game']}: {final['progress']['finished']} matches, "
          f"{final['players']}-player tables, {final['seeds_per_table']} seeds per table")
    print(f"{'place':>5}  {'entrant':<32} {'ordinal':>8} {'mu':>8} {'sigma':>7} {'avg rank':>8}"
          f" {'avg score':>9} {'wins':>5} {'fail %':>6}")
    for row in final["standings"]:
        print(f"{row['place']:>5}  {row['name'][:32]:<32} {row['ordinal']:>8.2f} {row['mu']:>8.2f}"
              f" {row['sigma']:>7.2f} {row['average_rank']:>8.2f} {row['average_score']:>9.2f}"
              f" {row['wins']:>5} {100 * row['failure_rate']:>6.1f}")
    if args.out:
        results = [arena.result_of(m) for m in final["matches"]]
        with open(args.out, "w", encoding="utf-8") as handle:
            json.dump({"tournament": final, "results": results}, handle, indent=1)
