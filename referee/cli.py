"""The `referee` command: serve, worker, bench, and the plug-ins' commands (the arena's play and
tournament); every service it runs is built by the composition root (referee/root.py)."""

from __future__ import annotations

import argparse
import logging
import os
import sys


def _serve(args) -> None:
    """Run the API (embedded store and worker unless REDIS_URL is set)."""
    from werkzeug.serving import make_server

    from referee.root import create_app
    from referee.serve_errors import ProblemRequestHandler
    from referee.service.config import Settings

    app = create_app()
    settings = Settings()
    where = "embedded in-process store (lost when this process exits)" if settings.embedded \
        else f"Redis at {settings.redis_url}"
    server = make_server(args.host, args.port, app, threaded=True,
                         request_handler=ProblemRequestHandler)
    print(f"referee {_version()} serving http://{args.host}:{server.port}/v1 "
          f"(OpenAPI: /v1/openapi.json) with the {where}; open "
          f"http://{args.host}:{server.port}/ to watch", flush=True)
    print(_access_banner(settings), flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


def _access_banner(settings) -> str:
    """Who may write, said at start-up (issue 11): the embedded default trusts this machine."""
    if settings.embedded:
        return ("access: requests from this machine (loopback) need no key and act as the "
                "local organiser; from elsewhere, writes need an account key (give one with "
                "REFEREE_ORGANISER_KEY=rk_…, or set REDIS_URL and use `referee keys create`)")
    return ("access: every write needs an account key ('Authorization: Bearer rk_…'); create "
            "the first organiser with: .venv/bin/referee keys create --role organiser "
            "--name NAME")


def _worker(args) -> None:
    """Run an RQ worker against REDIS_URL."""
    from referee.root import build_service
    from referee.service.config import Settings
    from referee.service.worker import run_worker

    settings = Settings()
    if settings.embedded:
        sys.exit("referee worker needs REDIS_URL (the embedded default runs its worker inside "
                 "`referee serve`)")
    run_worker(build_service(settings), burst=args.burst, name=args.name)


BENCHES = {"targets": "referee.bench.targets", "playouts": "referee.bench.playouts",
           "http": "referee.bench.http", "polls": "referee.bench.polls", "arena": "arena.bench",
           "load": "referee.bench.load", "many": "referee.bench.many",
           "scale": "referee.bench.scale"}
"""`referee bench NAME`: the module whose `main(argv)` prints that benchmark's figures."""


def _bench(argv) -> None:
    """Print benchmark figures: `referee bench NAME [options]` (NAME one of BENCHES)."""
    what, rest = (argv[0], argv[1:]) if argv else ("", [])
    if what not in BENCHES:
        sys.exit(f"usage: referee bench {'|'.join(BENCHES)} [--help] "
                 "(targets: every figure issue 17 names, against its target)")
    import importlib
    importlib.import_module(BENCHES[what]).main(rest)


def _pass_through() -> dict:
    """Subcommands that parse their own arguments: bench, and the plug-ins' commands."""
    from referee.root import commands

    found = {"bench": ("print benchmark figures: " + ", ".join(BENCHES), _bench)}
    found.update({name: (c.help, c.run) for name, c in commands().items()})
    return found


def _report_errors(command, argv, name: str) -> None:
    """Run a subcommand; a refusal with a code is one line on stderr and exit status 1."""
    from referee.core.errors import RefereeError

    try:
        command(argv)
    except RefereeError as err:
        sys.exit(f"{name}: {err.code}: {err.message}")


def _version() -> str:
    from referee import __version__
    return __version__


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the `referee` command."""
    parser = argparse.ArgumentParser(prog="referee", description=__doc__)
    parser.add_argument("--log-level", default=os.environ.get("REFEREE_LOG_LEVEL", "WARNING"))
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the API on 127.0.0.1:8000")
    serve.add_argument("--host", default=os.environ.get("REFEREE_HOST", "127.0.0.1"))
    serve.add_argument("--port", type=int, default=int(os.environ.get("REFEREE_PORT", "8000")))
    serve.set_defaults(func=_serve)
    worker = sub.add_parser("worker", help="run an RQ worker against REDIS_URL")
    worker.add_argument("--burst", action="store_true", help="stop when the queue is empty")
    worker.add_argument("--name")
    worker.set_defaults(func=_worker)
    for name, (text, _) in _pass_through().items():
        sub.add_parser(name, help=text, add_help=False)
    return parser


def main(argv=None) -> None:
    """Entry point of the `referee` console script."""
    argv = list(sys.argv[1:] if argv is None else argv)
    level = os.environ.get("REFEREE_LOG_LEVEL", "WARNING").upper()
    pass_through = _pass_through()
    if argv and argv[0] in pass_through:
        logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s")
        _report_errors(pass_through[argv[0]][1], argv[1:], f"referee {argv[0]}")
        return
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=args.log_level.upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("werkzeug").setLevel(args.log_level.upper())
    args.func(args)


if __name__ == "__main__":
    main()
