"""The JavaScript pull-mode client plays a seat through the REST API with its token."""

from __future__ import annotations

import json
import subprocess

from tests.clients.support import JS_DIR, NODE, needs_node

pytestmark = needs_node


def pull(service_url, match_id, token, timeout=60) -> subprocess.CompletedProcess:
    """Run clients/js/pull.js for one seat."""
    return subprocess.run([NODE, str(JS_DIR / "pull.js"), "--url", service_url, "--match",
                           match_id, f"--token={token}", "--wait", "5"],
                          capture_output=True, text=True, timeout=timeout)


def test_pull_client_plays_a_match_against_builtin_bots(service_url, api):
    """Long-poll, a legal move each time, stop at the end, print the result as JSON."""
    created = api.create_match("gops", ["builtin:random", "remote", "builtin:random"],
                               options={"cards": 4}, seed=21)
    done = pull(service_url, created["id"], created["tokens"]["1"])
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.strip().splitlines()
    summary = json.loads(lines[-1])
    final = api.match(created["id"])
    assert summary == {"match": created["id"], "status": "over", "seat": 1,
                       "result": final["result"]}
    played = [m for m in api.log(created["id"])["moves"] if m["seat"] == 1]
    assert len(lines) - 1 == len(played)  # one progress line per move it made
    assert [m["move"]["type"] for m in played].count("bid") == 4


def test_pull_client_plays_both_seats_at_once(service_url, api):
    """Two pull clients on the two seats of one match race on sealed bids and both finish."""
    created = api.create_match("gops", ["remote", "remote"], options={"cards": 5}, seed=8)
    procs = [subprocess.Popen([NODE, str(JS_DIR / "pull.js"), "--url", service_url, "--match",
                               created["id"], "--token", created["tokens"][k], "--quiet"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for k in ("0", "1")]
    outputs = [proc.communicate(timeout=60) for proc in procs]
    assert [proc.returncode for proc in procs] == [0, 0], outputs
    assert [json.loads(out)["seat"] for out, _ in outputs] == [0, 1]
    assert api.match(created["id"])["status"] == "over"


def test_pull_client_reports_a_problem(service_url, api):
    """A wrong token is the service's problem code on stderr, exit status 1."""
    created = api.create_match("gops", ["remote", "builtin:random"])
    done = pull(service_url, created["id"], "not-a-token")
    assert done.returncode == 1 and "auth.token_invalid" in done.stderr
