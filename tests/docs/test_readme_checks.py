"""The README's "Checking records, and games move by move" blocks work as written against a
real `referee serve` (embedded store, keyless local requests): the curl block verifies a
finished match's export, the Python and the JavaScript blocks step a game played elsewhere
through a check session, dealing its chance."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys

import pytest

from tests.docs.test_readme import section_block, shell_env
from tests.support.docs import page

README = page("checking")   # the checks section moved to docs/checking.md

HEADING = "## Checking records, and games move by move"


def block(language: str) -> str:
    """The section's first ```<language> block."""
    section = README[README.index(HEADING):]
    return re.findall(rf"^```{language}\n(.*?)^```", section, re.MULTILINE | re.DOTALL)[0]


@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
def test_the_curl_block_verifies_a_finished_match(served, tmp_path):
    """Its last line: the verdict, legal, outcome and commitment matching."""
    done = subprocess.run(["bash", "-c", section_block(README, HEADING)], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300,
                          env=shell_env(REFEREE=served))
    assert done.returncode == 0, done.stdout + done.stderr
    verdict = json.loads(done.stdout.strip().splitlines()[-1])
    assert verdict["legal"] and verdict["outcome_matches"] and verdict["commitment_matches"]
    header = json.loads((tmp_path / "match.jsonl").read_text().splitlines()[0])
    assert header["seed"] == "7374513755567299596"


def _assert_twelve_steps(done) -> None:
    """The block ran and printed twelve legal steps, versions 1-12, the first by chance."""
    assert done.returncode == 0, done.stdout + done.stderr
    steps = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert [s["version"] for s in steps] == list(range(1, 13)) and all(s["legal"] for s in steps)
    assert steps[0]["seat"] == "chance"


def test_the_python_block_steps_a_session(served, tmp_path):
    """Twelve legal moves, chance among them, one version each."""
    done = subprocess.run([sys.executable, "-c", block("python")], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120,
                          env=shell_env(REFEREE=served))
    _assert_twelve_steps(done)


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_javascript_block_steps_a_session(served, tmp_path):
    """The same twelve steps from Node (the block as an ES module)."""
    script = tmp_path / "session.mjs"
    script.write_text(block("js"), encoding="utf-8")
    done = subprocess.run([shutil.which("node"), str(script)], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120,
                          env=shell_env(REFEREE=served))
    _assert_twelve_steps(done)
