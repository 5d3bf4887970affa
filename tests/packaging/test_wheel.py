"""The package installs and runs from a wheel (issue 15 item 9: a wheel had no game data).

Builds the wheel from this checkout, installs it in a fresh venv (no editable install, run
from a folder outside the checkout), serves it with `referee serve` and plays a builtin match
of every shipped game to its end through the HTTP API.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import urllib.request

import pytest

from tests.packaging.test_dependencies import ROOT
from tests.support.http import free_port, stop_process, wait_for_http

pytestmark = pytest.mark.slow

SHIPPED = {"dschunke": 3, "yunnan": 3, "yinzi-ming": 2}
CLEAN = {k: v for k, v in os.environ.items()
         if k not in ("PYTHONPATH", "REFEREE_SEEDS", "REFEREE_EXTRA_GAMES", "REDIS_URL")}
"""The environment without what points at this checkout (the test run puts the checkout on
PYTHONPATH, where pip would find the editable install and skip the wheel)."""


def _run(args, **kwargs) -> str:
    kwargs.setdefault("env", CLEAN)
    done = subprocess.run(args, capture_output=True, text=True, timeout=900, **kwargs)
    assert done.returncode == 0, f"{args}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def _call(url: str, body: dict | None = None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """A fresh venv with the wheel built from this checkout installed: its bin folder.

    The wheel is built from a copy of the checkout: pip builds a local project in place, in
    its build/ folder, and a clean-clone CI run once failed there with "File exists:
    build/bdist.linux-x86_64/wheel/referee-0.1.0.dist-info" while other tests ran beside it.
    A copy of its own leaves nothing behind in the checkout and shares nothing."""
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache",
        "node_modules", "screenshots"))
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(work / "dist"),
          str(source)], cwd=work)
    wheels = list((work / "dist").glob("referee-*.whl"))
    assert len(wheels) == 1, wheels
    # The venv gets no pip of its own (seeding one cost ~2.5 s of CPU): this suite's pip
    # installs into it (--python, pip >= 22.3, as Python 3.11's own), with the wheel's
    # dependencies, as a user's pip would.
    # --no-compile: pip byte-compiles every installed module up front (~1.5 s, and
    # compile errors there are only warnings); the service compiles what it imports.
    _run([sys.executable, "-m", "venv", "--without-pip", str(work / "venv")])
    _run([sys.executable, "-m", "pip", "--python", str(work / "venv" / "bin" / "python"),
          "install", "--no-compile", "-q", str(wheels[0])], cwd=work)
    return work


def test_the_wheel_carries_the_game_data(installed):
    """The installed package reads its tables from inside site-packages, not the checkout."""
    code = ("from referee.core.seeds import seeds_dir, load_table; "
            "print(seeds_dir()); load_table('dschunke', 'board.json'); "
            "load_table('yinzi-ming', 'map.json'); load_table('yunnan', 'board.json')")
    where = _run([str(installed / "venv" / "bin" / "python"), "-c", code], cwd=installed)
    where = where.strip()
    assert "site-packages/referee/seeds" in where and str(ROOT) not in where


def test_the_installed_service_plays_every_game_to_the_end(installed):
    """`referee serve` from the wheel: a builtin-vs-builtin match of each game ends, and the
    web pages (templates, scripts) are served from the installed package."""
    port = free_port()
    proc = subprocess.Popen([str(installed / "venv" / "bin" / "referee"), "serve", "--port",
                             str(port)], cwd=installed, env=CLEAN, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{port}/v1"
    try:
        wait_for_http(f"{base}/health", timeout=60, proc=proc)
        ids = {game: _call(f"{base}/matches", {"game": game,
                                                "seats": ["builtin:random"] * players,
                                                "seed": 1})["id"]
               for game, players in SHIPPED.items()}
        deadline = time.monotonic() + 120
        while True:
            states = {game: _call(f"{base}/matches/{match_id}")
                      for game, match_id in ids.items()}
            if all(s["status"] == "over" for s in states.values()):
                break
            assert time.monotonic() < deadline, {g: s["status"] for g, s in states.items()}
            time.sleep(0.5)
        assert all(s["result"]["termination"] == "rules" for s in states.values())
        site = f"http://127.0.0.1:{port}"  # the pages' templates and scripts came along
        for path, mark in (("/", "Being played now"), (f"/matches/{ids['yunnan']}", "<svg"),
                           ("/games/dschunke/rules", "Dschunke"),
                           ("/static/web/match.js", "keydown"),
                           ("/static/arena/owner.js", "Authorization"),
                           ("/static/web/replay.js", "perspective"),
                           ("/v1/docs", "swagger-init.js"),   # the packaged docs assets too
                           ("/v1/assets/swagger-ui/swagger-ui-bundle.js", "SwaggerUIBundle"),
                           ("/v1/assets/redoc/redoc.standalone.js", "Redoc"),
                           ("/bot-protocol/readme", "Refusing a call"),   # setup.py copies it
                           ("/bot-protocol", "<code>command:transport</code>"),   # and examples
                           ("/leaderboards/yunnan", "leaderboard")):
            with urllib.request.urlopen(site + path, timeout=30) as response:
                assert mark in response.read().decode(), path
    finally:
        stop_process(proc)


def test_the_wheel_carries_the_docs_pages(installed):
    """The README and docs/*.md go into the package (setup.py), where /docs reads them."""
    code = ("from referee.web.docs import docs_dir, page_names, _readme; "
            "print(docs_dir()); print(_readme()); print(' '.join(page_names()))")
    where, readme, names = _run([str(installed / "venv" / "bin" / "python"), "-c", code],
                                cwd=installed).strip().splitlines()
    assert "site-packages/referee/docs" in where and str(ROOT) not in where
    assert readme.endswith("site-packages/referee/docs/README.md")
    assert sorted(names.split()) == sorted(p.stem for p in (ROOT / "docs").glob("*.md"))
