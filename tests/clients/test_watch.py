"""`referee_client.watch`: follow a live match or replay a finished one from its id alone,
as a spectator (GETs only)."""

from __future__ import annotations

import io
import re
import subprocess
import sys
import threading
import time

from referee_client.watch import Watcher, main as watch_main, watch

WATCH = [sys.executable, "-m", "referee_client.watch"]


def _run(program, args, stdin: str = "", timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(program + args, input=stdin, capture_output=True, text=True,
                          timeout=timeout)


def _until(fetch, done, timeout=15.0):
    deadline = time.monotonic() + timeout
    while not done(value := fetch()):
        assert time.monotonic() < deadline, value
        time.sleep(0.05)
    return value


def test_watch_follows_a_live_match_to_its_end(service_url, api):
    """A match that waits for a remote seat: the watcher shows it, then every move the
    seat makes, and returns the final match when it is over."""
    created = api.create_match("gops", ["remote", "builtin:random"], options={"cards": 3},
                               seed=8)
    out = io.StringIO()
    result = {}
    thread = threading.Thread(target=lambda: result.update(
        watch(created["id"], service_url, delay=0.05, out=out)), daemon=True)
    thread.start()
    seat = api.seat(created["id"], created["tokens"]["0"])
    _until(lambda: out.getvalue(), lambda text: "to act: seat 0" in text)
    seat.play(lambda prompt: prompt["legal_moves"][0], wait=5)
    thread.join(30)
    assert not thread.is_alive() and result["status"] == "over"
    text = out.getvalue()
    live, _, revealed = text.partition("the hidden moves, revealed now that the match is over:")
    # each of our moves shown once as it came (a sealed bid as hidden while the match runs),
    # and the sealed ones again, revealed, at the end
    seat0 = re.findall(r"^v(\d+) seat 0: (bid card=\d|\(a hidden move\))$", live, re.MULTILINE)
    assert len(seat0) == 3
    hidden = [v for v, what in seat0 if what == "(a hidden move)"]
    assert re.findall(r"^  v(\d+) seat 0: bid card=\d$", revealed, re.MULTILINE) == hidden
    assert text.rstrip().endswith(f"{service_url}/v1/matches/{created['id']}/log")


def test_watch_replays_a_finished_match_from_its_id(service_url, api):
    """--replay: every logged move in order, with the seed, then the result; exit 0."""
    created = api.create_match("dschunke", ["builtin:random"] * 3, seed=11)
    _until(lambda: api.match(created["id"]), lambda m: m["status"] == "over", 60)
    moves = api.log(created["id"])["moves"]
    out = io.StringIO()
    assert watch_main([created["id"], "--url", service_url, "--replay", "--delay", "0"],
                      stdout=out) == 0
    text = out.getvalue()
    assert f"{len(moves)} moves, seed 11" in text
    shown = re.findall(r"^v(\d+) seat \d: ", text, re.MULTILINE)
    assert [int(v) for v in shown] == [m["version"] for m in moves]
    assert "=" not in "".join(re.findall(r"^v\d+ seat \d: (.*)$", text, re.MULTILINE))
    assert "result (rules):" in text


def test_watch_from_the_command_line_and_an_unknown_match(service_url, api):
    """`python -m referee_client.watch ID` runs as a program; an unknown id is one line."""
    created = api.create_match("gops", ["builtin:random", "builtin:random"],
                               options={"cards": 3}, seed=1)
    done = _run(WATCH, [created["id"], "--url", service_url, "--no-board"])
    assert done.returncode == 0, done.stderr
    assert "the table:" not in done.stdout and "is over ===" in done.stdout
    missing = _run(WATCH, ["nope", "--url", service_url])
    assert missing.returncode == 1
    assert missing.stderr.strip().splitlines() == [
        line for line in missing.stderr.strip().splitlines() if line.startswith("error: match.")]


def test_a_watcher_object_reads_only(service_url, api):
    """The Watcher sends GETs only (the spectator's routes): nothing is changed."""
    from referee_client import Client

    created = api.create_match("gops", ["remote", "builtin:random"], options={"cards": 3},
                               seed=3)
    client = Client(service_url)
    methods = []
    original = client.session.request
    client.session.request = lambda method, *a, **k: methods.append(method) or \
        original(method, *a, **k)
    watcher = Watcher(client, created["id"], out=io.StringIO(), delay=0)
    watcher._show_new_moves()
    watcher._show_table()
    watcher._wait()
    assert set(methods) == {"GET"}
    assert api.match(created["id"])["version"] == 1  # only the bot's sealed bid
