"""The `referee` command: serve, worker, bench, and the arena's play and tournament."""

from __future__ import annotations

import argparse
import logging
import os
import sys


def _serve(args) -> None:
    """Run the API (embedded store and worker unless REDIS_URL is set)."""
    from werkzeug.serving import make_server

    from referee.api import create_app
    from referee.service.config import Settings

    app = create_app()
    settings = Settings()
    where = "embedded in-process store (lost when this process exits)" if settings.embedded \
        else f"Redis at {settings.redis_url}"
    server = make_server(args.host, args.port, app, threaded=True)
    print(f"referee {_version()} serving http://{args.host}:{server.port}/v1 "
          f"(OpenAPI: /v1/openapi.json) with the {where}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


def _worker(args) -> None:
    """Run an RQ worker against REDIS_URL."""
    from referee.service.config import Settings
    from referee.service.worker import run_worker

    settings = Settings()
    if settings.embedded:
        sys.exit("referee worker needs REDIS_URL (the embedded default runs its worker inside "
                 "`referee serve`)")
    run_worker(settings, burst=args.burst, name=args.name)


def _bench(args) -> None:
    """Print benchmark figures."""
    if args.what == "playouts":
        from referee.bench.playouts import main
        main(args.rest)
    elif args.what == "http":
        from referee.bench.http import main
        main(args.rest)
    else:
        from arena.bench import main
        main(args.rest)


def _arena(args) -> None:
    from arena import cli as arena_cli
    getattr(arena_cli, args.command)(args.rest)


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
    bench = sub.add_parser("bench", help="print benchmark figures")
    bench.add_argument("what", choices=["playouts", "http", "arena"])
    bench.add_argument("rest", nargs=argparse.REMAINDER)
    bench.set_defaults(func=_bench)
    for name, text in (("play", "play one match between bots, offline"),
                       ("tournament", "run a tournament between bots, offline")):
        cmd = sub.add_parser(name, help=text, add_help=False)
        cmd.add_argument("rest", nargs=argparse.REMAINDER)
        cmd.set_defaults(func=_arena)
    return parser


def main(argv=None) -> None:
    """Entry point of the `referee` console script."""
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=args.log_level.upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("werkzeug").setLevel(args.log_level.upper())
    args.func(args)


if __name__ == "__main__":
    main()
