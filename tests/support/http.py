"""Real HTTP servers on loopback for tests: an app in a thread, or a command in a subprocess."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import threading
import time

import requests


@contextlib.contextmanager
def serve_in_thread(app):
    """Serve a WSGI app on an ephemeral loopback port; yields its base URL. Stops within
    50 ms (the default shutdown poll of 0.5 s adds up over many short tests). Requests are
    not logged (a line per request through logging, thousands a module, into pytest's
    capture); errors still are."""
    from werkzeug.serving import WSGIRequestHandler, make_server

    class Unlogged(WSGIRequestHandler):
        def log_request(self, code="-", size="-"):
            """No access-log line."""

    server = make_server("127.0.0.1", 0, app, threaded=True, request_handler=Unlogged)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                              daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.port}"
    finally:
        server.shutdown()
        thread.join(5)


def local_session() -> requests.Session:
    """A requests session for a loopback test service that ignores the environment's proxy,
    netrc and CA-bundle settings (trust_env off): requests re-reads them on every call (~0.15
    ms of a ~1.5 ms loopback round trip). Only for tests whose subject is not those settings;
    the client library's own default session still trusts the environment."""
    session = requests.Session()
    session.trust_env = False
    return session


def local_client(url: str, **kwargs):
    """A referee_client Client of a loopback test service on a `local_session`."""
    from referee_client import Client

    return Client(url, session=local_session(), **kwargs)


def free_port() -> int:
    """A TCP port free on loopback right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_http(url: str, timeout: float = 20.0, proc=None, ours: bool = False) -> None:
    """Poll `url` until it answers 200 (with `ours`, a health answer of this service: one
    that lists its games); fail early if `proc` exits."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            out = proc.stdout.read() if proc.stdout else ""
            raise RuntimeError(f"process exited with {proc.returncode}: {out}")
        with contextlib.suppress(requests.RequestException, ValueError):
            answer = requests.get(url, timeout=1)
            if answer.status_code == 200 and (not ours or "games" in answer.json()):
                return
        time.sleep(0.1)
    raise TimeoutError(f"{url} did not answer within {timeout} s")


def start_process(args, env_extra=None, **kwargs) -> subprocess.Popen:
    """Start a command with the test environment, capturing output."""
    env = {**os.environ, **(env_extra or {})}
    return subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, **kwargs)


def serve_command(command, env: dict | None = None, *, tries: int = 3,
                  timeout: float = 20.0) -> tuple[subprocess.Popen, str]:
    """Start `command(port)` (the argument list of a server of this service) on a free port
    with `env` over the test environment, and wait until that port answers as this service:
    (the process, its base URL).

    The port is free when chosen, not when the server binds it: between the two another of
    the suite's processes (a bot kit, which answers every path 200 `{}`) can take it. So the
    health answer must name the service's games, and a server that exits (its bind refused)
    is started again on another port."""
    for attempt in range(tries):
        port = free_port()
        proc = subprocess.Popen(command(port), env={**os.environ, **(env or {})},
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        base = f"http://127.0.0.1:{port}"
        try:
            wait_for_http(f"{base}/v1/health", timeout=timeout, proc=proc, ours=True)
            return proc, base
        except RuntimeError:   # it exited: most likely the port was taken meanwhile
            if attempt == tries - 1:
                raise
    raise AssertionError("unreachable")


def serve_embedded(**env) -> tuple[subprocess.Popen, str]:
    """`referee serve` (the embedded default: REDIS_URL unset) on a free port with `env`
    settings, answering; (the process, its base URL)."""
    return serve_command(lambda port: [os.path.join(BIN, "referee"), "serve", "--port",
                                       str(port)], {"REDIS_URL": "", **env})


def serve_gunicorn(workers: int = 1, app: str = "referee.root:create_app()",
                   **env) -> tuple[subprocess.Popen, str]:
    """The README's deployment server (gunicorn with its settings module and gevent
    workers) serving `app` on a free port with `env` settings (REDIS_URL among them for a
    real Redis), answering; (the process, its base URL)."""
    from referee.bench.servers import gunicorn_args

    return serve_command(lambda port: [os.path.join(BIN, "gunicorn"), *gunicorn_args(workers),
                                       "-b", f"127.0.0.1:{port}", app], env, timeout=60)


def stop_process(proc: subprocess.Popen, timeout: float = 10.0) -> str:
    """Terminate a process (kill after `timeout`); return what it printed."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return proc.stdout.read() if proc.stdout else ""


PYTHON = sys.executable
BIN = os.path.dirname(sys.executable)
