"""Leaving a match tells the truth about the seat (issue 15 item 6): nothing plays it and the
match waits; autoplay lets the match go on without you; no token means watching."""

from __future__ import annotations

import subprocess
import sys
import time

PLAY = [sys.executable, "-m", "referee_client.play"]


def _run(program, args, stdin: str = "", timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(program + args, input=stdin, capture_output=True, text=True,
                          timeout=timeout)


def test_q_says_the_seat_waits_and_the_match_does_wait(service_url, api):
    """`q`: the message says nothing plays the seat and the match waits at its next decision,
    how to come back and how to watch; and that is what the service shows afterwards."""
    created = api.create_match("gops", ["remote", "builtin:random"], options={"cards": 3},
                               seed=6)
    token = created["tokens"]["0"]
    left = _run(PLAY, ["--url", service_url, "--match", created["id"], f"--token={token}"],
                "q\n")
    assert left.returncode == 2, left.stdout + left.stderr
    out = " ".join(left.stdout.split())
    assert "goes on without you" not in out
    assert "nothing plays it while you are away" in out
    assert "the match waits for you" in out and "seat.timeout" in out and "resigns now" in out
    assert f"--match {created['id']} --token={token}" in out
    assert f"python -m referee_client.watch {created['id']}" in out
    time.sleep(1.0)  # what it said is true: the match sits at our seat's decision
    match = api.match(created["id"])
    assert match["status"] == "active" and [t["seat"] for t in match["to_act"]] == [0]


def test_autoplay_finishes_the_match_for_you(service_url, api):
    """`a`: random legal moves play the seat to the end; exit 0 with the result."""
    created = api.create_match("gops", ["remote", "builtin:random"], options={"cards": 4},
                               seed=2)
    done = _run(PLAY, ["--url", service_url, "--match", created["id"],
                       f"--token={created['tokens']['0']}"], "a\n")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "seat 0 (autoplay): bid" in done.stdout and "result (rules):" in done.stdout
    assert api.match(created["id"])["status"] == "over"
    mine = [m for m in api.log(created["id"])["moves"] if m["seat"] == 0]
    assert [m["move"]["type"] for m in mine].count("bid") == 4  # one per card
    assert all(m.get("by", "seat") == "seat" for m in mine)  # played by the seat, not for it


def test_the_terminal_player_without_a_token_watches(service_url, api):
    """--match with no --token: the spectator's table and the moves until the end."""
    created = api.create_match("gops", ["builtin:random", "builtin:random"],
                               options={"cards": 3}, seed=5)
    done = _run(PLAY, ["--url", service_url, "--match", created["id"]])
    assert done.returncode == 0, done.stdout + done.stderr
    assert "watching match" in done.stdout and "as a spectator" in done.stdout
    assert "the table:" in done.stdout and "result (rules):" in done.stdout
