"""The README's and the docs pages' commands work as written (issue 15 item 8): the curl loop
(docs/api.md) plays a match to the end against a real `referee serve`, and no shell block of
any page calls a bare `referee` (not on PATH unless the venv is activated)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from tests.support.http import free_port, stop_process, wait_for_http

from tests.support.docs import ROOT, every_page, page

REFEREE = Path(sys.executable).parent / "referee"


def shell_env(**extra: str) -> dict:
    """The environment a README block runs in: ours, with this interpreter's folder (the
    venv's bin) first on PATH, as for a reader who activated the venv, so the blocks'
    `python3` (only the standard library's json) starts directly; a version manager's shim
    (pyenv's, here) took about 100 ms of CPU a call, and the curl loop makes one a
    decision."""
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    return {**os.environ, "PATH": path, **extra}


def shell_blocks(text: str) -> list[str]:
    """Every ```sh block of a Markdown text, without its fences."""
    return re.findall(r"^```sh\n(.*?)^```", text, re.MULTILINE | re.DOTALL)


def section_block(text: str, heading: str) -> str:
    """The first ```sh block after `heading`."""
    return shell_blocks(text[text.index(heading):])[0]


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
def test_the_curl_loop_plays_a_match_to_the_end(tmp_path):
    """The block under "Playing with nothing but curl", run by bash as written (only
    $REFEREE, which it reads, points it at this test's service): the match ends and the last
    line printed is the record's result line."""
    block = section_block(page("api"), "## Playing with nothing but curl")
    port = free_port()
    service = subprocess.Popen([str(REFEREE), "serve", "--port", str(port)], cwd=tmp_path,
                               env={**os.environ, "REDIS_URL": ""}, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for_http(f"{url}/v1/health", timeout=60, proc=service)
        done = subprocess.run(["bash", "-c", block], cwd=tmp_path, capture_output=True,
                              text=True, timeout=600, env=shell_env(REFEREE=url))
        assert done.returncode == 0, done.stdout + done.stderr
        lines = done.stdout.strip().splitlines()
        match_id = re.fullmatch(r"match (\w+)", lines[0]).group(1)
        result = json.loads(lines[-1])
        assert result["type"] == "result" and result["termination"] == "rules"
        with urllib.request.urlopen(f"{url}/v1/matches/{match_id}", timeout=10) as answer:
            match = json.loads(answer.read())
        assert match["status"] == "over"
        with urllib.request.urlopen(f"{url}/v1/matches/{match_id}/log", timeout=10) as answer:
            moves = json.loads(answer.read())["moves"]
        assert any(m["seat"] == 0 and m.get("by", "seat") == "seat" for m in moves)
    finally:
        stop_process(service)


def test_no_shell_block_calls_a_bare_referee():
    """Every `referee` command in a shell block goes through the venv (.venv/bin/referee)."""
    bare = [line for text in every_page().values() for block in shell_blocks(text)
            for line in block.splitlines()
            if re.search(r"(^|[\s;&|(])referee (serve|worker|play|tournament|bench)\b", line)]
    assert bare == []


def test_the_readme_documents_the_port_and_every_setting():
    """How to pick the port (docs/deployment.md), and every REFEREE_* setting the service and
    the CLI read (on some page)."""
    deployment = page("deployment")
    for name in ("--port", "REFEREE_PORT", "REFEREE_HOST", "REFEREE_SEEDS",
                 "REFEREE_EXTRA_GAMES", "REFEREE_LOG_LEVEL"):
        assert name in deployment, name
    read = set()
    for path in [ROOT / "referee" / "cli.py", *(ROOT / "referee" / "service").glob("*.py"),
                 ROOT / "referee" / "core" / "seeds.py"]:
        read |= set(re.findall(r"\"(REFEREE_[A-Z_]+)\"", path.read_text()))
    documented = " ".join(every_page().values())   # each where it belongs, on some page
    assert sorted(n for n in read if n not in documented) == []


def python_block(text: str, heading: str) -> str:
    """The first ```python block after `heading`."""
    return re.findall(r"^```python\n(.*?)^```", text[text.index(heading):],
                      re.MULTILINE | re.DOTALL)[0]


def test_the_python_api_example_runs_as_written(capsys):
    """Issue 15 item 5: the README's in-process example, executed as it stands: a Dschunke
    match and a round robin between a Python function and two builtins, no server; the
    function played its seats (no failure) and the log is the service's record."""
    block = python_block(page("bots"), "## Bots as Python functions, in this process")
    assert len(block.strip().splitlines()) <= 12
    scope: dict = {"__name__": "readme_example"}
    exec(compile(block, "README.md", "exec"), scope)
    match, tour = scope["match"], scope["tour"]
    assert match.result["termination"] == "rules" and not match.result.get("failures")
    assert match.log["game"] == "dschunke" and match.log["seed"] == "7"
    assert any(m["seat"] == 0 and m.get("by", "seat") == "seat" for m in match.log["moves"])
    assert tour.record["status"] == "finished" and tour.record["progress"]["finished"] == 6
    assert {r["name"] for r in tour.standings} == {"py:my_bot", "builtin:random",
                                                   "builtin:random#2"}
    assert all(r["failure_rate"] == 0 for r in tour.standings)
    printed = capsys.readouterr().out.splitlines()
    assert printed[0].endswith("moves") and len(printed) == 4
