"""The README's two external-chance examples work as written against a real `referee serve`:
checking a log with chance moves, and a live table whose organiser deals. They default to a
shipped game; while no shipped game takes external chance yet, they run on the test game
gops ($GAME, which the blocks read, as $REFEREE points them at this test's service)."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from referee.games import GAMES
from tests.docs.test_readme import section_block, shell_blocks, shell_env
from tests.support.docs import page

README = page("checking")   # the chance section moved to docs/checking.md

HEADING = "## Chance from outside"
DEFAULT_GAME = "yinzi-ming"


def _game_env() -> dict:
    """$GAME only when the README's default game does not take external chance yet."""
    if GAMES.get(DEFAULT_GAME).external_chance:
        return {}
    return {"GAME": "gops"}


def run_block(index: int, url: str) -> list[dict]:
    """Run the section's `index`th sh block with bash; its output lines that are JSON."""
    block = shell_blocks(README[README.index(HEADING):])[index]
    done = subprocess.run(["bash", "-c", block], capture_output=True, text=True, timeout=120,
                          env=shell_env(REFEREE=url, **_game_env()))
    assert done.returncode == 0, done.stdout + done.stderr
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


def test_the_readme_names_its_default_game_and_its_test():
    """The blocks default to DEFAULT_GAME, and the README says this test runs them."""
    assert f"GAME=${{GAME:-{DEFAULT_GAME}}}" in section_block(README, HEADING)
    assert "tests/docs/test_readme_chance.py" in README


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
def test_the_check_example_asks_for_chance_then_checks_an_outcome(served):
    """The first answer waits for the chance seat; the second applied its outcome, legally."""
    asked, checked = run_block(0, served)
    assert asked["pending"][0]["seat"] == "chance" and asked["applied"] == 0
    assert asked["pending"][0]["prompt"]["outcomes"][0]["probability"] > 0
    assert checked["legal"] is True and checked["applied"] == 1 and checked["error"] is None


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
def test_the_live_table_example_deals_the_first_outcome(served):
    """The dealer's prompt lists outcomes; entering the first one moves the match on."""
    prompt, accepted = run_block(1, served)
    assert prompt["seat"] == "chance" and prompt["must_act"] is True
    assert prompt["outcomes"] and accepted["version"] == 1 and accepted["status"] == "active"
