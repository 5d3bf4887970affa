"""The command line every kit bot shares: where to listen, its secret, and registering it."""

from __future__ import annotations

import argparse
import logging
import sys

from referee_client.botkit.register import register
from referee_client.botkit.server import BotServer
from referee_client.errors import RefereeError


def build_parser(name: str, description: str | None = None) -> argparse.ArgumentParser:
    """The options of a kit bot's command line."""
    parser = argparse.ArgumentParser(description=description or f"{name}: a bot protocol v1 bot")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=0, help="port (0: any free port)")
    parser.add_argument("--name", default=name, help="the name the bot gives")
    parser.add_argument("--games", help="comma-separated games it plays (default: all)")
    parser.add_argument("--secret", help="signing secret (default: $REFEREE_BOT_SECRET)")
    parser.add_argument("--secret-file", help="read the secret from this file (re-read when it "
                        "changes); --register writes the new secret there")
    parser.add_argument("--register", metavar="SERVICE_URL",
                        help="register with the service at this URL once serving")
    parser.add_argument("--public-url", help="the URL the service should call (default: "
                        "http://host:port)")
    parser.add_argument("--owner", help="owner recorded at registration")
    parser.add_argument("--require-signature", action="store_true",
                        help="refuse POSTs until the bot has a secret")
    parser.add_argument("--log-level", default="WARNING")
    return parser


def run(move_fn, *, name: str, games=(), author: str = "", version: str = "",
        on_start=None, on_end=None, argv=None, description: str | None = None) -> None:
    """Parse the command line, serve `move_fn`, register if asked, serve until stopped."""
    args = build_parser(name, description).parse_args(argv)
    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    claimed = args.games.split(",") if args.games else list(games)
    server = BotServer(move_fn, name=args.name, games=claimed, secret=args.secret,
                       secret_file=args.secret_file, host=args.host, port=args.port,
                       author=author, version=version, on_start=on_start, on_end=on_end,
                       require_signature=args.require_signature).start()
    url = args.public_url or server.url
    print(f"{args.name} serving {url} (bot protocol v1)", flush=True)
    if args.register:
        try:
            record = register(server, args.register, owner=args.owner, url=url)
        except RefereeError as err:
            server.stop()
            sys.exit(f"registration refused: {err.code}: {err.message}")
        print(f"registered bot {record['id']} with {args.register} for "
              f"{','.join(record['games'])}", flush=True)
    elif server.secret is None:
        print("no secret yet: requests are not verified until it is set (--secret, "
              "--secret-file or --register)", flush=True)
    try:
        server.wait()
    except KeyboardInterrupt:
        server.stop()
