"""Apps with the rate limits on and tiny limits, and the checks of a 429, for the limits and
quota tests (the suite's own apps run without limits, tests/conftest.py; the `make_app`
fixture is in tests/api/conftest.py)."""

from __future__ import annotations

from tests.conftest import unique_name

TINY = {"RATE_LIMITS": True, **{f"RATE_{f}": "1000/minute" for f in
                                ("MATCHES", "MOVES", "CHECKS", "BOTS", "EVENTS")},
        **{f"RATE_{f}_ADDR": "1000/minute" for f in
           ("MATCHES", "MOVES", "CHECKS", "BOTS", "EVENTS")}}
"""Every limit out of the way; each test sets the one it tries."""


def limited_app(**config):
    """An embedded app with the limits on, `config` over TINY."""
    from referee.root import create_app

    return create_app({"REDIS_URL": None, "KEY_PREFIX": unique_name("lim"),
                       "QUEUE_NAME": unique_name("limq"), **TINY, **config})


def assert_limited(response, code="rate.limited"):
    """A 429 problem with the code and a Retry-After of whole seconds."""
    assert response.status_code == 429, response.json
    assert response.mimetype == "application/problem+json"
    assert response.json["code"] == code
    assert int(response.headers["Retry-After"]) >= 1


MATCH = {"game": "gops", "seats": ["remote", "remote"]}
