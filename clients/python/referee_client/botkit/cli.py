"""The command line every kit bot shares: where to listen, its secret, and registering it."""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time

import requests

from referee_client.botkit.register import register
from referee_client.botkit.secret_store import default_secret_file
from referee_client.botkit.server import SECRET_ENV, SECRET_FILE_ENV, BotServer
from referee_client.errors import RefereeError

REGISTER_WAIT_SECONDS = 30.0
"""How long --register keeps trying a service that does not answer (it may be starting)."""
FIRST_RETRY_SECONDS, LONGEST_RETRY_SECONDS = 0.5, 5.0
"""Backoff between registration attempts: doubling from the first to the longest."""
EXIT_FAILED = 1
"""Exit status when registration fails (no service answered, or it refused), as the JS bot."""


def build_parser(name: str, description: str | None = None) -> argparse.ArgumentParser:
    """The options of a kit bot's command line."""
    parser = argparse.ArgumentParser(description=description or f"{name}: a bot protocol v1 bot")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=0, help="port (0: any free port)")
    parser.add_argument("--name", default=name, help="the name the bot gives")
    parser.add_argument("--games", help="comma-separated games it plays (default: all)")
    parser.add_argument("--secret", help="signing secret (default: $REFEREE_BOT_SECRET)")
    parser.add_argument("--secret-file", help="where the secret is kept (re-read when it "
                        "changes; --register writes it there); default: "
                        "$REFEREE_BOT_SECRET_FILE, else <name>.secret in "
                        "~/.local/state/referee/bots ($XDG_STATE_HOME, $REFEREE_BOT_STATE_DIR)")
    parser.add_argument("--register", metavar="SERVICE_URL",
                        help="register with the service at this URL once serving")
    parser.add_argument("--register-wait", type=float, default=REGISTER_WAIT_SECONDS,
                        metavar="SECONDS", help="keep trying a service that does not answer "
                        f"for this long, with backoff (default {REGISTER_WAIT_SECONDS:g})")
    parser.add_argument("--public-url", help="the URL the service should call (default: "
                        "http://host:port)")
    parser.add_argument("--owner", help="(ignored by the service: a bot belongs to the "
                        "account whose key registers it, $REFEREE_KEY)")
    parser.add_argument("--open", action="store_true",
                        help="let other accounts seat the bot in their matches and events")
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
    secret_file = (args.secret_file or os.environ.get(SECRET_FILE_ENV)
                   or str(default_secret_file(args.name)))
    server = BotServer(move_fn, name=args.name, games=claimed, secret=args.secret,
                       secret_file=secret_file, host=args.host, port=args.port,
                       author=author, version=version, on_start=on_start, on_end=on_end,
                       require_signature=args.require_signature).start()
    url = args.public_url or server.url
    print(f"{args.name} serving {url} (bot protocol v1)", flush=True)
    if args.register:
        record = register_or_exit(server, args.register, args.owner, url, args.register_wait,
                                  args.open)
        if record.get("already"):
            print(f"already registered as bot {record['id']} with {args.register}; verifying "
                  f"with the secret in {server.secret_file}", flush=True)
        else:
            print(f"registered bot {record['id']} with {args.register} for "
                  f"{','.join(record['games'])}; secret kept in {server.secret_file}",
                  flush=True)
    elif server.secret is not None and not (args.secret or os.environ.get(SECRET_ENV)):
        print(f"verifying requests with the secret in {server.secret_file}", flush=True)
    elif server.secret is None:
        print("no secret yet: requests are not verified until it is set (--secret, "
              "--secret-file or --register)", flush=True)
    try:
        server.wait()
    except KeyboardInterrupt:
        server.stop()


def register_or_exit(server, service_url: str, owner, url: str, wait: float,
                     open_: bool = False) -> dict:
    """Register, retrying with backoff while nothing answers at `service_url` (for at most
    `wait` s); on failure stop the bot and exit with one line saying what to do."""
    deadline, pause, said = time.monotonic() + wait, FIRST_RETRY_SECONDS, False
    while True:
        try:
            return register(server, service_url, owner=owner, url=url, open=open_)
        except (requests.ConnectionError, requests.Timeout) as err:
            if time.monotonic() + pause > deadline:
                _stop_and_exit(server, EXIT_FAILED, _no_service(service_url, wait, err))
            if not said:
                print(f"no referee service answers at {service_url} yet; retrying for up to "
                      f"{wait:g} s", file=sys.stderr, flush=True)
                said = True
            time.sleep(pause)
            pause = min(pause * 2, LONGEST_RETRY_SECONDS)
        except RefereeError as err:
            if err.code == "bot.url_taken" and server.secret is not None:
                # a restart at the same URL: the service keeps the bot and its secret (a URL
                # is registered once), and the secret file still holds that secret
                return {"id": err.details.get("bot", "?"), "already": True}
            _stop_and_exit(server, EXIT_FAILED, _refused(service_url, err))
        except (ValueError, requests.RequestException) as err:  # an answer that is not ours
            _stop_and_exit(server, EXIT_FAILED,
                           f"cannot register with {service_url}: its answer is not the referee "
                           f"service's ({type(err).__name__}); check the URL and port")


def _no_service(service_url: str, wait: float, err: Exception) -> str:
    timed_out = isinstance(err, requests.Timeout)
    what = "did not answer in time" if timed_out else "refused the connection"
    return (f"cannot register: no referee service at {service_url} ({what}; tried for "
            f"{wait:g} s). Start it (.venv/bin/referee serve, which prints its URL) or pass "
            f"the URL it prints to --register")


def _refused(service_url: str, err: RefereeError) -> str:
    if err.code.startswith("http."):  # not a problem detail of ours: another server answered
        return (f"cannot register: {service_url} answered HTTP {err.status}, not as the "
                f"referee service; check the URL and port (referee serve prints its URL)")
    return f"registration refused: {err.code}: {err.message} (service {service_url})"


def _stop_and_exit(server, status: int, line: str) -> None:
    server.stop()
    print(line, file=sys.stderr, flush=True)
    sys.exit(status)
