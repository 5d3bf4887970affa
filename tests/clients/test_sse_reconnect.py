"""A Node script (no packages) drops and resumes a match's event stream mid-match and gets
every version exactly once, in order (issue 40), against the real app on the real Redis."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from tests.clients.support import NODE, needs_node

pytestmark = needs_node

SCRIPT = Path(__file__).with_name("sse_reconnect.mjs")


def test_node_reconnects_mid_match_and_sees_every_version_once(service_url, api):
    """Two resumptions with Last-Event-ID (30 and 35 versions missed), the second read while
    the match is played to its end: versions 0..final each once, no snapshot, then `over`."""
    done = subprocess.run([NODE, str(SCRIPT), service_url], capture_output=True, text=True,
                          timeout=120, env={**os.environ,
                                            "REFEREE_KEY": os.environ["REFEREE_ORGANISER_KEY"]})
    assert done.returncode == 0, done.stdout + done.stderr
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    match = api.match(summary["match"])
    assert match["status"] == "over" and summary["final"] == match["version"] > 60
    assert summary["versions"] == match["version"] + 1 and summary["reconnects"] == 2
