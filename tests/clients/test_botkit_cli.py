"""A kit bot's command line for a new user: a missing service is one clear line (after a
bounded retry), and the secret is kept in a per-user state folder, never the working tree."""

from __future__ import annotations

import http.server
import os
import stat
import subprocess
import sys
import threading
import time

import pytest

from referee_client.botkit.secret_store import default_secret_file, state_dir
from tests.clients.support import RANDOM_BOT, ROOT, LineReader
from tests.support.http import free_port, start_process


def _run_bot(*args, env_extra=None, cwd=None, timeout=30) -> subprocess.CompletedProcess:
    env = {**os.environ, **(env_extra or {})}
    return subprocess.run([sys.executable, str(RANDOM_BOT), "--port", "0", *args], env=env,
                          cwd=cwd, capture_output=True, text=True, timeout=timeout)


def test_no_service_is_one_line_and_a_failure_status(tmp_path):
    """--register at a port where nothing listens: after the bounded retry, one line on stderr
    naming the URL and what to do, no traceback, exit status 1."""
    url = f"http://127.0.0.1:{free_port()}"
    done = _run_bot("--register", url, "--register-wait", "1",
                    env_extra={"REFEREE_BOT_STATE_DIR": str(tmp_path)})
    assert done.returncode == 1
    assert "Traceback" not in done.stderr + done.stdout
    lines = done.stderr.strip().splitlines()
    assert len(lines) <= 2, done.stderr  # "retrying ..." then the verdict
    assert url in lines[-1] and "referee serve" in lines[-1]
    assert list(tmp_path.iterdir()) == []  # nothing registered, no secret written


def test_another_server_on_the_port_is_one_line(tmp_path):
    """Something else answers at the URL (an HTML 404): one line saying so, exit status 1."""
    class NotUs(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_error(404)

        def do_POST(self):
            self.send_error(404)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), NotUs)
    threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}"
        done = _run_bot("--register", url, "--register-wait", "1", "--games", "dschunke",
                        env_extra={"REFEREE_BOT_STATE_DIR": str(tmp_path)})
    finally:
        server.shutdown()
        server.server_close()
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == [
        f"cannot register: {url} answered HTTP 404, not as the referee service; check the URL "
        f"and port (referee serve prints its URL)"]


def test_a_bot_started_before_the_service_registers_once_it_is_up(tmp_path, processes):
    """The bot retries with backoff; a service started a moment later gets the registration."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    bot = processes([sys.executable, str(RANDOM_BOT), "--port", "0", "--name", "early",
                     "--register", url, "--register-wait", "60"],
                    env_extra={"REFEREE_BOT_STATE_DIR": str(tmp_path)})
    bot.wait_for("no referee service answers at .* yet; retrying")
    time.sleep(1.0)
    service = LineReader(start_process([os.path.join(os.path.dirname(sys.executable),
                                                     "referee"), "serve", "--port", str(port)],
                                       env_extra={"REDIS_URL": ""}))
    try:
        bot.wait_for(r"registered bot \S+ with .*; secret kept in ", timeout=60)
    finally:
        service.stop()
    secret = tmp_path / "early.secret"
    assert secret.read_text().strip()


def test_the_secret_lands_in_the_state_folder_not_the_working_directory(service_url, tmp_path):
    """Without --secret-file the registered secret goes to <state dir>/<name>.secret (owner
    only), and nothing is written where the bot was started; a restart reads it back."""
    work, state = tmp_path / "checkout", tmp_path / "state"
    work.mkdir()
    env = {"REFEREE_BOT_STATE_DIR": str(state)}
    proc = start_process([sys.executable, str(RANDOM_BOT), "--port", "0", "--name", "my bot",
                          "--games", "gops", "--register", service_url], env_extra=env, cwd=work)
    reader = LineReader(proc)
    try:
        reader.wait_for(rf"secret kept in {state / 'my_bot.secret'}")
    finally:
        reader.stop()
    path = state / "my_bot.secret"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert list(work.iterdir()) == []
    again = LineReader(start_process([sys.executable, str(RANDOM_BOT), "--port", "0", "--name",
                                      "my bot"], env_extra=env, cwd=work))
    try:
        again.wait_for(f"verifying requests with the secret in {path}")
    finally:
        again.stop()


def test_the_state_folder_follows_xdg(monkeypatch, tmp_path):
    """$REFEREE_BOT_STATE_DIR, else $XDG_STATE_HOME/referee/bots, else ~/.local/state/..."""
    monkeypatch.delenv("REFEREE_BOT_STATE_DIR", raising=False)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    assert default_secret_file("my-bot") == tmp_path / "referee" / "bots" / "my-bot.secret"
    monkeypatch.delenv("XDG_STATE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert state_dir() == tmp_path / "home" / ".local" / "state" / "referee" / "bots"


@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="not a git checkout")
def test_secret_files_are_ignored_by_git():
    """A secret written into the checkout anyway (--secret-file my_bot.secret) stays out of
    commits: .gitignore is the safety net."""
    names = ["my_bot.secret", "clients/x.secret"]
    done = subprocess.run(["git", "check-ignore", *names], cwd=ROOT, capture_output=True,
                          text=True)
    assert done.stdout.split() == names


def test_a_restart_at_a_registered_url_keeps_the_bot_and_its_secret(service_url, tmp_path):
    """A URL is registered once (issue 11): the kit bot restarted on the same port with
    --register is told the URL is taken, keeps serving with the secret its file holds, and
    the service still has one bot for that URL, with no new secret handed out; --open
    registered it open to other accounts."""
    port, secret = free_port(), tmp_path / "same.secret"
    args = [sys.executable, str(RANDOM_BOT), "--port", str(port), "--name", "same",
            "--games", "gops", "--register", service_url, "--secret-file", str(secret),
            "--open"]
    first = LineReader(start_process(args))
    try:
        bot_id = first.wait_for(r"registered bot (\S+)").group(1)
    finally:
        first.stop()
    kept = secret.read_text()
    again = LineReader(start_process(args))
    try:
        assert again.wait_for(r"already registered as bot (\S+)").group(1) == bot_id
    finally:
        again.stop()
    assert secret.read_text() == kept
    from referee_client import Client
    urls = [b["url"] for b in Client(service_url).bots()]
    assert urls.count(f"http://127.0.0.1:{port}") == 1
    assert Client(service_url).bot(bot_id)["open"] is True  # --open: others may seat it
