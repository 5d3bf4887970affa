"""The rate limits the README states are the ones enforced (issue 40): its table's rates are
the settings' defaults, and keyless checks from this machine on the embedded default count
against the per-key limit, as the README now says (they were read as 1,200/min by address)."""

from __future__ import annotations

import re

from tests.conftest import unique_name
from tests.support.docs import page

README = page("deployment")   # the rate limits table, in docs/deployment.md


def test_the_readme_table_is_the_defaults(monkeypatch):
    """Each family's row names the settings and their default rates."""
    from referee.service.config import Settings

    monkeypatch.delenv("REFEREE_RATE_LIMITS", raising=False)
    settings = Settings()
    rows = re.findall(r"^\| (\w+) \| .*? \| `REFEREE_RATE_(\w+)` (\S+) \| "
                      r"`REFEREE_RATE_(\w+)_ADDR` (\S+) \|$", README, re.MULTILINE)
    assert {r[0] for r in rows} == {"matches", "moves", "checks", "bots", "events"}
    for family, key_name, key_rate, addr_name, addr_rate in rows:
        assert key_name == addr_name == family.upper()
        assert getattr(settings, f"rate_{family}") == key_rate
        assert getattr(settings, f"rate_{family}_addr") == addr_rate


def test_keyless_local_checks_meet_the_per_key_limit_the_readme_states(monkeypatch):
    """With the shipped defaults, the embedded default's keyless loopback checks pass 300 a
    minute, then 429 rate.limited "per API key or token"; the README says so."""
    from referee.root import create_app, stop_app

    assert "300\nchecks a minute, not the address's 1,200" in README or \
        "300 checks a minute, not the address's 1,200" in " ".join(README.split())
    monkeypatch.delenv("REFEREE_RATE_LIMITS", raising=False)
    app = create_app({"REDIS_URL": None, "KEY_PREFIX": unique_name("lim"),
                      "QUEUE_NAME": unique_name("limq")})
    try:
        client = app.test_client()
        body = {"players": 2, "seed": "1", "moves": []}
        codes = [client.post("/v1/games/gops/check", json=body).status_code
                 for _ in range(310)]
        # a fresh count: the first 300 pass; the sliding window may let one or two more
        assert codes[:300] == [200] * 300 and codes[-5:] == [429] * 5
        refused = client.post("/v1/games/gops/check", json=body).json
        assert refused["code"] == "rate.limited"
        assert "300/minute per API key or token" in refused["detail"]
    finally:
        stop_app(app)
