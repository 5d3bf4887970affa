"""`referee keys create --role organiser --name NAME`: an account and its key, printed once,
in the store REDIS_URL names (the first organiser of a deployment is made this way)."""

from __future__ import annotations

import argparse
import sys

from referee.access.accounts import Accounts
from referee.service.access import ROLES
from referee.service.config import Settings
from referee.service.connection import connect


def keys(argv) -> None:
    """Create an account (printing its key) or rotate an account's key."""
    parser = argparse.ArgumentParser(prog="referee keys", description=__doc__)
    sub = parser.add_subparsers(dest="action", required=True)
    create = sub.add_parser("create", help="create an account and print its key")
    create.add_argument("--name", required=True)
    create.add_argument("--role", choices=ROLES, default="player")
    rotate = sub.add_parser("rotate", help="print a new key for an account (the old one stops)")
    rotate.add_argument("--account", required=True, help="the account id")
    args = parser.parse_args(argv)
    settings = Settings()
    if settings.embedded:
        sys.exit("referee keys needs REDIS_URL: the embedded default keeps its store inside "
                 "`referee serve`, where requests from this machine act as the local organiser")
    store = Accounts(connect(settings.redis_url), settings.key_prefix)
    if args.action == "create":
        account, key = store.create(args.name, args.role)
        print(f"account {account['id']} ({account['role']}, {account['name']})", file=sys.stderr)
    else:
        key = store.rotate(args.account)
    print(key)
