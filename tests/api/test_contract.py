"""The contract is true (issue 12): schemathesis generates requests from /v1/openapi.json
against a served app and checks every answer: no server error, and each status, content type,
header and body as documented. Errors are documented as application/problem+json.

A fixed seed and a budget of examples per operation keep the run reproducible and under a
minute per case (about 20 s here); the ids of a real match and tournament (and a seat token in every
request) let it reach past the 404s. Run with the limits off (every request reaches the
routes) and with the product's defaults on (its 429s must be as documented too)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.api.helpers import create
from tests.conftest import unique_name
from tests.support.http import serve_in_thread

SCHEMATHESIS = Path(sys.executable).parent / "schemathesis"
CHECKS = ("not_a_server_error,status_code_conformance,content_type_conformance,"
          "response_headers_conformance,response_schema_conformance")
EXAMPLES = 25
"""Examples per operation and phase (about 1,400 requests a run over every operation)."""


def test_every_error_is_documented_as_a_problem(embedded_app):
    """No operation documents an error (4xx, 5xx, default) as anything but problem+json."""
    spec = embedded_app.test_client().get("/v1/openapi.json").json
    responses = list(spec["components"]["responses"].items())
    responses += [(status, answer) for item in spec["paths"].values()
                  for operation in item.values() if isinstance(operation, dict)
                  for status, answer in operation["responses"].items()]
    wrong = [(status, list(answer.get("content", {}))) for status, answer in responses
             if (status == "default" or status[0] in "45" or status.isupper())
             and status not in ("OK", "CREATED") and answer.get("content")
             and list(answer["content"]) != ["application/problem+json"]]
    assert wrong == []
    assert "code" in spec["components"]["schemas"]["Problem"]["properties"]


@pytest.mark.parametrize("limits", [False, True], ids=["limits-off", "limits-on"])
def test_schemathesis_finds_nothing(tmp_path, limits):
    """0 server errors and 0 conformance failures in a seeded run."""
    from referee.root import create_app, stop_app

    app = create_app({"REDIS_URL": None, "KEY_PREFIX": unique_name("st"),
                      "QUEUE_NAME": unique_name("stq"), "RATE_LIMITS": limits,
                      # a long poll (prompt, chance with wait=N) still takes the held-wait
                      # path (wait slots, the change hub) but for 50 ms, not 60 s (nor 1 s:
                      # that was ~10 s idle a run)
                      "MAX_WAIT_SECONDS": 0.05})
    client = app.test_client()
    match = create(client, seed=3)
    tour = client.post("/v1/tournaments", json={"game": "gops", "format": "ladder",
                                                 "entrants": ["builtin:random"] * 2,
                                                 "max_matches": 1}).json
    config = tmp_path / "schemathesis.toml"
    config.write_text(f'[parameters]\nmatch_id = "{match["id"]}"\ntid = "{tour["id"]}"\n'
                      f'game = "gops"\n')
    try:
        with serve_in_thread(app) as url:
            done = subprocess.run(
                [str(SCHEMATHESIS), "--config-file", str(config), "--no-color", "run",
                 f"{url}/v1/openapi.json", "--checks", CHECKS, "--max-examples", str(EXAMPLES),
                 "--seed", "1", "--workers", "1", "--generation-database", "none",
                 "--phases", "examples,coverage,fuzzing", "--request-timeout", "30",
                 # the event stream is endless while the match runs: each case would hold
                 # until the timeout (5 minutes a run); it passed a full run once
                 "--exclude-path-regex", r"/events$",
                 "-H", f"Authorization: Bearer {match['tokens']['0']}"],
                cwd=tmp_path, capture_output=True, text=True, timeout=600)
    finally:
        stop_app(app)
    (tmp_path / "out.txt").write_text(done.stdout + done.stderr)
    from schemathesis import __version__ as version  # only to name it in a failure

    assert done.returncode == 0, (f"schemathesis {version}:\n"
                                  + done.stdout[-6000:] + done.stderr[-2000:])
    selected = re.search(r"(\d+) selected / (\d+) total", done.stdout)
    assert selected and int(selected[1]) >= 23, done.stdout
    assert re.search(r"\d+ generated, \d+ passed", done.stdout), done.stdout
