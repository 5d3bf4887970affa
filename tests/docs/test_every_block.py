"""Every code block of the README and of every docs/ page is run by a named test, or says here
why no test can run it on this machine (issue 44: the docs pages are tested as the README is).
A block added to a page without a line here fails this test."""

from __future__ import annotations

import re

import pytest

from tests.support.docs import every_page

RUN_BY = {
    ("README", "python3.11 -m venv .venv && .venv/bin/pip install -q -e '.[test]' && .venv/bin/referee serve"):
        "tests/service/test_deployment.py::test_referee_serve_embedded_plays_a_match",
    ("README", "python3.11 -m venv .venv && .venv/bin/pip install -q -e '.[test]' && .venv/bin/python -m pytest -q"):
        ".ci/run (runs exactly this line on a clean clone)",
    ("api", "S=${REFEREE:-http://127.0.0.1:8000}"):
        "tests/docs/test_readme.py::test_the_curl_loop_plays_a_match_to_the_end",
    ("benchmarks", ".venv/bin/referee bench targets"):
        "tests/service/test_bench_targets.py::test_the_command_runs_every_benchmark_and_prints_the_table",
    ("bots", "# Python: a bot is one function; the kit serves protocol v1, checks signatures, registers"):
        "tests/docs/test_readme_bots.py",
    ("bots", '# the Python bot of "Write a bot in five minutes" (still running), with the secret its kit keeps'):
        "tests/docs/test_readme_bots.py::test_the_readme_botcheck_passes_the_python_bot",
    ("bots", "import random"):
        "tests/docs/test_readme.py::test_the_python_api_example_runs_as_written",
    ("checking", "S=${REFEREE:-http://127.0.0.1:8000}; GAME=${GAME:-yinzi-ming}"):
        "tests/docs/test_readme_chance.py",
    ("checking", "S=${REFEREE:-http://127.0.0.1:8000}; GAME=${GAME:-yunnan}"):
        "tests/docs/test_readme_checks.py",
    ("checking", "import json, os, urllib.request"): "tests/docs/test_readme_checks.py",
    ("checking", 'const S = process.env.REFEREE ?? "http://127.0.0.1:8000";'):
        "tests/docs/test_readme_checks.py",
    ("deployment", "docker compose up --build --scale worker=4     # redis (append-only), api (gunicorn), workers"):
        "NOT RUN: needs the docker compose CLI (tests/packaging/test_docker.py validates the "
        "compose file and runs it where compose is installed; skipped here)",
    ("deployment", ".venv/bin/python my_bot.py --host 0.0.0.0 --port 9001 --games dschunke \\"):
        "NOT RUN as written: it registers with a bot reached from Docker's network "
        "(host.docker.internal); the same flags run in tests/docs/test_readme_bots.py",
    ("deployment", "redis-server --appendonly yes --dir /var/lib/redis &          # or any Redis 6+"):
        "tests/service/test_deployment.py::test_the_readme_deployment_on_real_redis (its "
        "gunicorn and worker lines, on a Redis of the suite's)",
    ("deployment", "export REFEREE_KEY=$(REDIS_URL=redis://127.0.0.1:6379/0 .venv/bin/referee keys create --role organiser --name ops)"):
        "tests/service/test_deployment.py::test_the_readme_deployment_on_real_redis (`referee "
        "keys create`)",
    ("deployment", "curl -N http://127.0.0.1:8000/v1/matches/$ID/events                     # as a spectator"):
        "tests/docs/test_deployment_events.py::test_the_curl_line_follows_a_match_to_its_end",
    ("tournaments", '# the two bots of "Write a bot in five minutes" (still running), against builtin:random'):
        "tests/docs/test_readme_bots.py::test_the_offline_commands_play_the_readme_bots",
}
"""(page, the block's first line) -> the test that runs it, or NOT RUN and why."""

BLOCK = re.compile(r"^```(?:sh|bash|python|js|javascript)\n(.*?)^```", re.MULTILINE | re.DOTALL)


def blocks() -> list[tuple[str, str]]:
    """(page, first line) of every runnable code block of every page."""
    return [(name, match.group(1).splitlines()[0]) for name, text in every_page().items()
            for match in BLOCK.finditer(text)]


def test_every_block_of_every_page_is_run_by_a_test_or_says_why_not():
    """A new block needs its line in RUN_BY; a line whose block is gone is dropped too."""
    found = set(blocks())
    assert sorted(found - set(RUN_BY)) == [], "blocks no test runs (add them to RUN_BY)"
    assert sorted(set(RUN_BY) - found) == [], "RUN_BY names blocks that are gone"


@pytest.mark.parametrize("where", sorted({v.split("::")[0].split(" ")[0] for v in RUN_BY.values()
                                          if v.startswith("tests/")}))
def test_the_tests_named_exist(where):
    """Each test file named in RUN_BY exists, and so does each test function named."""
    from tests.support.docs import ROOT

    path = ROOT / where
    assert path.is_file(), where
    text = path.read_text(encoding="utf-8")
    for value in RUN_BY.values():
        if value.startswith(where + "::"):
            name = value.split("::")[1].split(" ")[0]
            assert f"def {name}(" in text, value
