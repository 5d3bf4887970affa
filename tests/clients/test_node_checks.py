"""A JavaScript tool checks games through the API (tests/clients/node/check_match.mjs, node,
no packages): the commitment vectors, a finished match's export verified whole with its
commitment recomputed in JS, and a game played elsewhere stepped through a check session
with the chance chosen by the script."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.clients.support import NODE, ROOT, needs_node

pytestmark = needs_node

SCRIPT = Path(__file__).with_name("node") / "check_match.mjs"
BIG_SEED = "7374513755567299596"


def test_node_checks_a_record_and_a_game_played_elsewhere(service_url, api):
    """The script's summary: vectors checked, the match's 63-bit seed intact and verified,
    the external-chance game played to its end, one request per move."""
    created = api.create_match("gops", ["builtin:random"] * 3, options={"cards": 5},
                               seed=BIG_SEED)
    assert api.wait_for_match(created["id"])["status"] == "over"
    done = subprocess.run([NODE, str(SCRIPT), "--url", service_url, "--match", created["id"],
                           "--vectors", str(ROOT / "clients/protocol/commitment-vectors.json")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    summary = json.loads(done.stdout)
    assert summary["vectors"] == 5
    assert summary["record"] == {"seed": BIG_SEED, "moves": len(api.log(created["id"])["moves"])}
    elsewhere = summary["elsewhere"]
    assert elsewhere["termination"] == "rules" and elsewhere["chance_moves"] >= 1
    assert elsewhere["requests"] == elsewhere["moves"] + 1
