"""Issue 15 item 1: `referee play` / `referee tournament` call kit bots that already have a
secret with that secret (the kit's own store by default, or `URL@SECRET_FILE`), and a command
whose bot seats all failed says so and exits non-zero."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.clients.support import RANDOM_BOT
from tests.support.http import BIN


def _kit_bot(processes, state_dir, name, secret=None, secret_file=None):
    """The example random bot as a process, verifying signatures with its secret, which it
    keeps in `state_dir` (the kit's store) unless `secret_file` says otherwise."""
    path = secret_file or state_dir / f"{name}.secret"
    if secret is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(secret + "\n")
    args = [sys.executable, str(RANDOM_BOT), "--port", "0", "--name", name,
            "--require-signature", "--secret-file", str(path)]
    reader = processes(args, env_extra={"REFEREE_BOT_STATE_DIR": str(state_dir)})
    return reader.wait_for(r"serving (http://\S+)").group(1)


def _referee(args, state_dir, timeout=120):
    import os
    env = {**os.environ, "REFEREE_BOT_STATE_DIR": str(state_dir), "REDIS_URL": ""}
    return subprocess.run([f"{BIN}/referee", *args], capture_output=True, text=True,
                          timeout=timeout, env=env)


def _moves_by_seat(path):
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    return lines, [m for m in lines if m["type"] == "move" and m.get("by", "seat") == "seat"]


def test_play_uses_the_secret_the_kit_keeps(processes, tmp_path):
    """Two bots with secrets in the kit's store: both play, no failure, exit 0."""
    state = tmp_path / "state"
    urls = [_kit_bot(processes, state, n, secret=f"s3cret-{n}") for n in ("one", "two")]
    out = tmp_path / "m.jsonl"
    proc = _referee(["play", "--game", "gops", "--bot", urls[0], "--bot", urls[1], "--bot",
                     "builtin:random", "--seed", "5", "--out", str(out)], state)
    assert proc.returncode == 0, proc.stderr
    lines, played = _moves_by_seat(out)
    assert lines[-1]["termination"] == "rules" and not lines[-1].get("failures")
    assert {m["seat"] for m in played} == {0, 1, 2}
    assert "forfeit" not in proc.stderr


def test_play_takes_a_secret_file_after_the_url(processes, tmp_path):
    """`--bot URL@FILE`: the secret kept elsewhere than the kit's store."""
    state, elsewhere = tmp_path / "state", tmp_path / "keys" / "mine.secret"
    url = _kit_bot(processes, state, "mine", secret="elsewhere", secret_file=elsewhere)
    out = tmp_path / "m.jsonl"
    proc = _referee(["play", "--game", "gops", "--bot", f"{url}@{elsewhere}", "--bot",
                     "builtin:random", "--seed", "2", "--out", str(out)], state)
    assert proc.returncode == 0, proc.stderr
    lines, played = _moves_by_seat(out)
    assert {m["seat"] for m in played} == {0, 1} and not lines[-1].get("failures")


def test_every_bot_seat_failing_is_an_error(processes, tmp_path):
    """Bots whose secret we cannot find refuse our calls (401): the command names the
    failure, says how to pass the secret, and exits 1."""
    state = tmp_path / "state"
    urls = [_kit_bot(processes, state, n, secret=f"s-{n}", secret_file=tmp_path / f"{n}.key")
            for n in ("a", "b")]
    for command in (["play", "--seed", "1"], ["tournament", "--players", "2", "--seeds", "1"]):
        proc = _referee([*command, "--game", "gops", "--bot", urls[0], "--bot", urls[1],
                         "--options", '{"cards": 3}'], state)
        assert proc.returncode == 1, proc.stderr
        assert "bot.signature_refused" in proc.stderr and "401" in proc.stderr
        assert f"--bot {urls[0]}@SECRET_FILE" in proc.stderr
        assert "every bot seat forfeited" in proc.stderr


def test_a_secret_file_that_is_not_there_is_one_line(processes, tmp_path):
    url = _kit_bot(processes, tmp_path / "state", "gone", secret="x")
    proc = _referee(["play", "--game", "gops", "--bot", f"{url}@{tmp_path}/nope.secret",
                     "--bot", "builtin:random", "--seed", "1"], tmp_path / "state")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert "cannot read the secret for --bot" in proc.stderr and "nope.secret" in proc.stderr
