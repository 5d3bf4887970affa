"""`referee bench http` (issue 17): the README's command runs as written, small, and prints
the ratio it holds to its target; its clients go on with their matches from turn to turn, so
cutting a round into turns adds no match creations to the service's figures (at 32 clients
and 4 turns a round, the creations had been 2.6% of the requests, each costing about 3.8
prompt-or-move requests' CPU)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.request

from referee.bench.http import run
from referee.gunicorn_conf import default_workers
from tests.support.http import serve_in_thread


def _get(base: str, path: str) -> dict:
    with urllib.request.urlopen(f"{base}{path}", timeout=10) as answer:
        return json.loads(answer.read())


def test_a_client_goes_on_with_the_match_of_its_last_turn(app):
    """A turn hands back the match its client was playing; the next turn's client plays on
    in it (same id, later version) and creates none. Turns are short and a loaded machine
    may fit no move into one: later turns go on until one has played in the carried match
    (Yunnan: some 400 moves a match, far more than a few short turns play)."""
    with serve_in_thread(app) as base:
        target = {"kind": "service", "base": base, "measured": {}}
        turn = run(target, 1, 0.1, "yunnan", 3)
        [carried] = turn["carried"]
        for _ in range(50):
            before = _get(base, f"/v1/matches/{carried['id']}")["version"]
            turn = run(target, 1, 0.1, "yunnan", 3, turn["carried"])
            assert turn["rejected"] == 0 and _get(base, "/v1/matches")["total"] == 1
            assert turn["carried"][0]["id"] == carried["id"]   # still that match at the end
            if turn["moves"]:
                break
        assert turn["moves"], "no turn played a move"
        assert _get(base, f"/v1/matches/{carried['id']}")["version"] > before


def test_the_readme_command_prints_both_servers_and_the_ratio():
    """`.venv/bin/referee bench http` as the README gives it, made small: the README's
    deployment (gunicorn, a gevent worker per CPU) on the real Redis and the floor beside it, every
    move validated, and the ratio line with each round's figure."""
    done = subprocess.run([sys.executable, "-m", "referee.cli", "bench", "http", "--clients",
                           "2", "--seconds", "1", "--slices", "2"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    workers = default_workers()
    assert re.search(rf"referee: http://127\.0\.0\.1:\d+ \(gunicorn, {workers} workers", out), out
    assert re.search(rf"floor: http://127\.0\.0\.1:\d+ \(gunicorn, {workers} workers", out), out
    summary = out[out.index("medians over 1 round(s)"):]
    assert re.search(r"2 clients referee +\d+\.\d moves/s .* \(\d+ requests, 0 moves refused\)",
                     summary), out
    ratio = re.search(r"2 clients: server CPU per request (\d+\.\d\d)x the floor's", summary)
    assert ratio and float(ratio.group(1)) > 0, out
