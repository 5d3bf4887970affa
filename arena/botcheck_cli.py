"""`referee botcheck URL`: check a bot against protocol v1 before entering it (arena/botcheck.py):
one line per check, PASS or FAIL, what was expected and what came back; exit 1 on any FAIL."""

from __future__ import annotations

import argparse
import json
import os
import sys

from arena.botcheck import check_bot, report
from arena.netguard import AddressPolicy, InvalidBotUrl, UrlRefused, resolve
from referee.games import GAMES
from referee.service.defaults import MATCH_LIMITS

SECRET_ENV = "REFEREE_BOT_SECRET"
ANYWHERE = AddressPolicy.from_setting(None, "0.0.0.0/0", "::/0")
# the author checks their own bot, wherever it runs (loopback, a private network): the
# service's address policy is for bots it calls on its own


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="referee botcheck", description=__doc__)
    parser.add_argument("url", help="the bot's base URL, e.g. http://127.0.0.1:9001")
    parser.add_argument("--game", action="append", dest="games", metavar="GAME",
                        help="check this game only (repeat for several; default: every game "
                        "the bot's GET / claims)")
    parser.add_argument("--secret", help=f"the bot's signing secret (or ${SECRET_ENV})")
    parser.add_argument("--secret-file", help="a file holding the secret (as the bot kits "
                        "keep it)")
    parser.add_argument("--move-ms", type=int, default=MATCH_LIMITS["move_ms"])
    parser.add_argument("--start-ms", type=int, default=MATCH_LIMITS["start_ms"])
    parser.add_argument("--seed", type=int, default=1, help="where the positions' matches "
                        "start (the same seed asks the same positions)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    return parser


def _secret(args) -> str:
    if args.secret_file:
        try:
            with open(os.path.expanduser(args.secret_file)) as f:
                return f.read().strip()
        except OSError as err:
            sys.exit(f"referee botcheck: cannot read {args.secret_file}: {err.strerror}")
    secret = args.secret or os.environ.get(SECRET_ENV, "")
    if not secret:
        sys.exit(f"referee botcheck: the bot's secret is needed to sign requests: --secret, "
                 f"--secret-file or ${SECRET_ENV}")
    return secret


def botcheck(argv) -> None:
    """Run the checks, print them; exit 0 if every one passed, 1 if not."""
    args = _parser().parse_args(argv)
    secret = _secret(args)
    try:
        target = resolve(args.url.rstrip("/"), ANYWHERE)
    except (InvalidBotUrl, UrlRefused) as err:
        sys.exit(f"referee botcheck: {err}: {args.url}")
    limits = {"move_ms": args.move_ms, "start_ms": args.start_ms}
    lines = check_bot(target, secret, GAMES, args.games, limits=limits, seed=args.seed)
    result = report(lines)
    if args.json:
        print(json.dumps({"url": args.url, **result}))
    else:
        for line in lines:
            print(line.text())
        print(f"botcheck {args.url}: {result['checks'] - result['failed']} passed, "
              f"{result['failed']} failed")
    sys.exit(0 if result["passed"] else 1)
