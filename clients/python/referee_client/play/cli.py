"""The terminal player's command line: create a match (or join one) and play its remote seats.

    python -m referee_client.play --url http://127.0.0.1:8000 --game gops \\
        --seats remote,builtin:random --options '{"cards": 4}' --seed 7
    python -m referee_client.play --url http://127.0.0.1:8000 --match ID --token=TOKEN
    python -m referee_client.play --url http://127.0.0.1:8000 --match ID     # watch it

Tokens and secrets may begin with '-': give them as --token=VALUE.
"""

from __future__ import annotations

import argparse
import json
import sys

import requests

from referee_client.client import DEFAULT_URL, Client
from referee_client.errors import RefereeError
from referee_client.play.session import TerminalPlayer
from referee_client.watch import Watcher


def build_parser() -> argparse.ArgumentParser:
    """The options of `python -m referee_client.play`."""
    parser = argparse.ArgumentParser(prog="python -m referee_client.play",
                                     description="Play a match from the terminal.")
    parser.add_argument("--url", default=DEFAULT_URL, help="the service")
    parser.add_argument("--game", help="create a match of this game")
    parser.add_argument("--seats", default="remote,builtin:random",
                        help="comma-separated seats: remote (you; several = hot seat), "
                             "builtin:random, bot:<id>")
    parser.add_argument("--options", type=json.loads, default={}, help="game options (JSON)")
    parser.add_argument("--seed", type=int)
    parser.add_argument("--limits", type=json.loads, default={},
                        help="arena time limits (JSON), when a seat is a bot")
    parser.add_argument("--match", help="join this match instead of creating one (without "
                        "--token: watch it as a spectator)")
    parser.add_argument("--token", action="append", default=[],
                        help="seat token for --match, as --token=TOKEN (repeat for several "
                             "seats)")
    parser.add_argument("--wait", type=float, default=30.0, help="long-poll seconds")
    return parser


def create(client: Client, args) -> tuple[str, dict[int, str]]:
    """Create the match the arguments describe; its id and the tokens of its remote seats."""
    seats = [s.strip() for s in args.seats.split(",") if s.strip()]
    if any(s.startswith("bot:") for s in seats):  # HTTP bots are played by the arena
        created = client.create_arena_match(args.game, seats, options=args.options,
                                            seed=args.seed, limits=args.limits, rated=False)
    else:
        created = client.create_match(args.game, seats, options=args.options, seed=args.seed)
    return created["id"], {int(seat): token for seat, token in created["tokens"].items()}


def join(client: Client, match_id: str, tokens: list[str]) -> dict[int, str]:
    """The seat of each token (the match tells a token holder its seat)."""
    return {client.match(match_id, token)["you"]: token for token in tokens}


def main(argv=None, stdin=None, stdout=None) -> int:
    """Run the terminal player; the exit status."""
    args = build_parser().parse_args(argv)
    stdin, stdout = stdin or sys.stdin, stdout or sys.stdout
    client = Client(args.url, timeout=10.0)
    try:
        if args.match and not args.token:  # no seat: watch it as a spectator
            stdout.write(f"no --token: watching match {args.match} as a spectator\n")
            Watcher(client, args.match, out=stdout).follow()
            return 0
        if args.match:
            match_id, tokens = args.match, join(client, args.match, args.token)
        elif args.game:
            match_id, tokens = create(client, args)
            _introduce(client, match_id, tokens, stdout)
        else:
            print("give --game (a new match), or --match (with --token to play a seat)",
                  file=sys.stderr)
            return 1
        if not tokens:
            print("no seat of yours to play: give at least one remote seat", file=sys.stderr)
            return 1
        return TerminalPlayer(client, match_id, tokens, stdin, stdout, args.wait).run()
    except RefereeError as err:
        print(f"error: {err.code}: {err.message}", file=sys.stderr)
        return 1
    except requests.ConnectionError:
        print(f"cannot reach the service at {client.url}", file=sys.stderr)
        return 1


def _introduce(client: Client, match_id: str, tokens: dict[int, str], stdout) -> None:
    seats = ", ".join(str(s) for s in tokens)
    stdout.write(f"match {match_id} created; you play seat {seats}. To rejoin later:\n")
    flags = " ".join(f"--token={t}" for t in tokens.values())  # a token may begin with '-' 
    stdout.write(f"  python -m referee_client.play --url {client.url} --match {match_id} "
                 f"{flags}\n")
    stdout.flush()
