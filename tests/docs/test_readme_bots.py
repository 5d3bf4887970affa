"""Issue 15 item 6: the README's bot examples run as written. Its "Write a bot in five minutes"
block (the Python bot written by a heredoc and started with --register, the JavaScript bot,
the round robin entered with curl) runs against a real `referee serve`; then its offline
`referee play` and `referee tournament` commands play those signed, registered bots, which
must actually play (no forfeit).

Only the addresses change, through the flags the README documents: the service's port
(`--port`), the bots' `--port`/URLs and `--register` get free ports, so nothing depends on
8000/9001/9002 being free; `.venv/bin/` is this test's virtualenv. HOME is a temporary folder,
so the secrets land in its ~/.local/state/referee/bots as the README says.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.docs.test_readme import ROOT, section_block
from tests.support.docs import page
from tests.support.http import free_port, stop_process, wait_for_http

BIN = Path(sys.executable).parent

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(shutil.which("node") is None or shutil.which("curl") is None,
                                 reason="the README's block needs node and curl")]


def _as_here(block: str, ports: dict) -> str:
    """The block with this test's ports instead of the README's."""
    for theirs, ours in ports.items():
        block = re.sub(rf"\b{theirs}\b", str(ours), block)
    return block


def _checkout_like(folder: Path) -> None:
    """A folder where the README's relative paths work as in the checkout (.venv/bin/…,
    clients/js/bot.js), while what the commands write stays out of the worktree."""
    (folder / ".venv").symlink_to(BIN.parent)
    (folder / "clients").symlink_to(ROOT / "clients")


def _bash(block: str, cwd: Path, env: dict, timeout: float) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "-e", "-c", block], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout)


@pytest.fixture
def readme_bots(tmp_path):
    """A `referee serve` and the README's two bots, started by its own block; the bots run
    in their own process group, stopped afterwards."""
    ports = {8000: free_port(), 9001: free_port(), 9002: free_port()}
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items()
           if k not in ("XDG_STATE_HOME", "REFEREE_BOT_STATE_DIR", "REFEREE_EXTRA_GAMES",
                        "REFEREE_BOT_SECRET", "REFEREE_BOT_SECRET_FILE")}
    env.update(HOME=str(home), REDIS_URL="")
    _checkout_like(tmp_path)
    service = subprocess.Popen([".venv/bin/referee", "serve", "--port", str(ports[8000])],
                               cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    block = _as_here(section_block(page("bots"), "## Write a bot in five minutes"), ports)
    out = tmp_path / "block.out"
    bots = None
    try:
        # "With the service running": the README's order
        wait_for_http(f"http://127.0.0.1:{ports[8000]}/v1/health", timeout=60, proc=service)
        with out.open("w") as sink:  # a file, not a pipe: the bots keep it open as they serve
            bots = subprocess.Popen(["bash", "-e", "-c", block], cwd=tmp_path, env=env,
                                    stdout=sink, stderr=subprocess.STDOUT,
                                    start_new_session=True)
        status = bots.wait(timeout=120)  # the block ends; its bots keep serving
        yield {"ports": ports, "env": env, "cwd": tmp_path, "home": home,
               "output": out.read_text(), "status": status}
    finally:
        if bots is not None:
            try:
                os.killpg(bots.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        stop_process(service)


def test_the_readme_bots_register_and_enter_a_tournament(readme_bots):
    """The five-minute block: both bots register (secrets kept in ~/.local/state), and the
    curl round robin is created with them."""
    assert readme_bots["status"] == 0, readme_bots["output"]
    secrets_dir = readme_bots["home"] / ".local" / "state" / "referee" / "bots"
    assert sorted(p.name for p in secrets_dir.iterdir()) == ["js-bot.secret", "my-bot.secret"]
    answers = [json.loads(line) for line in readme_bots["output"].splitlines()
               if line.startswith("{")]
    tour = next(a for a in answers if "entrants" in a or "code" in a)
    assert tour["game"] == "dschunke" and len(tour["entrants"]) == 3


def test_the_offline_commands_play_the_readme_bots(readme_bots):
    """The offline block, as written: `referee play` and `referee tournament` with the two
    registered bots (signing with the secrets the kit keeps) and builtin:random: exit 0, the
    bots moved in every match, nobody forfeited."""
    assert readme_bots["status"] == 0, readme_bots["output"]
    tournaments = page("tournaments")
    readme = tournaments[tournaments.index("Offline, with no Redis and no server"):]
    block = _as_here(section_block(readme, "Offline, with no Redis"), readme_bots["ports"])
    done = _bash(block, readme_bots["cwd"], readme_bots["env"], timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "forfeit" not in done.stderr and "warning" not in done.stderr
    verdict = re.search(r"^(accepted|rejected|inconclusive): .*\n  (\d+) pairs \((\d+) matches, "
                        r"3 players\): W-D-L", done.stdout, re.M)
    assert verdict and int(verdict[3]) <= 24 and int(verdict[3]) == 2 * int(verdict[2]), \
        done.stdout   # referee sprt: a random bot against builtin:random, a 24-match budget
    cwd = readme_bots["cwd"]
    _assert_bots_played((cwd / "match.jsonl").read_text(), bots=(0, 1))
    standings = json.loads((cwd / "t.json").read_text())
    assert standings["tournament"]["progress"]["finished"] == 6   # 1 table, 2 seeds, 3 seatings
    assert {r["name"] for r in standings["tournament"]["standings"]} == {
        "my-bot", "js-bot", "builtin:random"}
    assert all(r["failure_rate"] == 0 for r in standings["tournament"]["standings"])
    for log in standings["logs"]:
        seats = json.loads((cwd / log).read_text().splitlines()[0])["seats"]
        _assert_bots_played((cwd / log).read_text(),
                            bots=[s["seat"] for s in seats if s["kind"].startswith("bot:")])


def test_the_readme_botcheck_passes_the_python_bot(readme_bots):
    """The botcheck block as written (issue 39): every line PASS against the README's Python
    bot, with the secret its kit kept, and exit 0."""
    assert readme_bots["status"] == 0, readme_bots["output"]
    block = _as_here(section_block(page("bots"), "## Check a bot before entering it"),
                     readme_bots["ports"])
    done = _bash(block, readme_bots["cwd"], readme_bots["env"], timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines and all(line.startswith("PASS") for line in lines[:-1]), done.stdout
    assert "dschunke /move bid" in done.stdout and lines[-1].endswith(" 0 failed")


def _assert_bots_played(text: str, bots) -> None:
    lines = [json.loads(line) for line in text.splitlines()]
    result = lines[-1]
    assert result["type"] == "result" and result["termination"] == "rules"
    assert not result.get("failures")
    moved = {m["seat"] for m in lines if m["type"] == "move" and m.get("by", "seat") == "seat"
             and m.get("latency_ms") is not None}
    assert set(bots) <= moved, (bots, moved)
