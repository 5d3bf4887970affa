"""docs/deployment.md's `curl -N` line, run by bash as written (only the port is this test's):
it follows a live match of builtin bots as a spectator and ends by itself when the match
does, with the `over` event (the stream closes after it)."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest
import requests

from tests.docs.test_readme import section_block, shell_env
from tests.support.docs import page
from tests.support.http import serve_embedded, stop_process


def _events_line() -> str:
    """The deployment page's block holding the `curl -N` line, as written."""
    block = section_block(page("deployment"), "**Live events.**")
    assert block.startswith("curl -N http://127.0.0.1:8000/v1/matches/$ID/events"), block
    return block


@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
def test_the_curl_line_follows_a_match_to_its_end():
    """Every version from the one the stream opens at to the last, in order, then `over`
    with the result, and curl exits 0 once the server closes the stream."""
    proc, base = serve_embedded()
    try:
        created = requests.post(f"{base}/v1/matches", timeout=10, json={
            "game": "dschunke", "seats": ["builtin:random"] * 3, "seed": 21})
        assert created.status_code == 201, created.text
        block = _events_line().replace("http://127.0.0.1:8000", base)
        done = subprocess.run(["bash", "-c", block], capture_output=True, text=True,
                              timeout=120, env=shell_env(ID=created.json()["id"]))
    finally:
        stop_process(proc)
    assert done.returncode == 0, done.stderr
    kinds = re.findall(r"^event: (\w+)$", done.stdout, re.MULTILINE)
    ids = [int(v) for v in re.findall(r"^id: (\d+)$", done.stdout, re.MULTILINE)]
    assert kinds and kinds[-1] == "over" and set(kinds[:-1]) <= {"version", "snapshot"}
    assert ids == sorted(ids) and len(ids) == len(set(ids[:-1])) + 1, ids
    assert '"result"' in done.stdout.rsplit("event: over", 1)[1]
