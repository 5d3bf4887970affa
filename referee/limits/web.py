"""The request side of the limits: flask-limiter on the route families, the active-match
ceiling, and the 429 problem with Retry-After (imported only when an app is built).

Who a request is: its API key when the access plug-in has identified the caller
(`flask.g.caller`), else a hash of its bearer token (a seat token, a bot secret); and,
separately, its address. A family has a limit per key (skipped for a request without one) and
a larger one per address. The limiter's storage is the service's Redis (REDIS_URL), so every
gunicorn worker and API process shares one count; the embedded default keeps counts in this
process's memory (`memory://`), which is exactly the scope of its in-process store.
"""

from __future__ import annotations

import hashlib
import math
import re
import time

from flask import current_app, has_request_context, request
from flask_limiter import Limit, Limiter, RateLimitExceeded
from limits import parse_many

from referee.api.auth import account_identity, address_identity
from referee.service.access import is_account_key
from referee.service.credentials import parse_bearer

FAMILIES = {
    ("matches.Matches", "POST"): "matches",
    ("matches.Moves", "POST"): "moves",
    ("matches.Resign", "POST"): "moves",
    ("games.Check", "POST"): "checks",
    ("checks.Verify", "POST"): "checks",
    ("checks.Sessions", "POST"): "checks",
    ("checks.SessionMoves", "POST"): "moves",
    ("bots.Bots", "POST"): "bots",
    ("tournaments.Tournaments", "POST"): "events",
    ("arena.ArenaMatches", "POST"): "events",
}
"""Rate-limited routes by (endpoint, method); an endpoint missing from this app (no arena)
never matches. Kept here, in one table, so that the route modules stay the routes."""

CREATES_MATCHES = ("matches", "events")
"""Families whose requests count against the active-match ceiling."""

STRATEGY = "sliding-window-counter"
"""Two counters per key: close to a moving window's precision at a fixed window's cost."""


def family() -> str | None:
    """The rate-limit family of this request, or None."""
    return FAMILIES.get((request.endpoint, request.method))


def key_identity() -> str | None:
    """The calling account (the access plug-in's `g.caller`) when it acts by its API key or
    keyless (the embedded default's local organiser), else a hash of the bearer token (a
    seat token counts per seat, a bot secret per bot), else None."""
    account, token = account_identity(), parse_bearer(request.headers.get("Authorization"))
    if account is not None and (token is None or is_account_key(token)):
        return account
    if token:
        return "key:" + hashlib.sha256(token.encode()).hexdigest()[:32]
    return None


def identities() -> list[str]:
    """Who this request counts as, for quotas: its key (if any) and its address."""
    key = key_identity()
    return [key, address_identity()] if key else [address_identity()]


def _limits(settings) -> list[Limit]:
    """One Limit per (family, key or address), each exempt outside its own family."""
    found = []
    for name in ("matches", "moves", "checks", "bots", "events"):
        for per, key_func in (("key", key_identity), ("addr", address_identity)):
            setting = f"rate_{name}" + ("_addr" if per == "addr" else "")
            rate = getattr(settings, setting)
            try:  # a typo in a setting fails start-up, not every request later
                parse_many(rate)
            except ValueError as err:
                raise ValueError(f"REFEREE_{setting.upper()}={rate!r} is not a rate limit "
                                 f"such as '60/minute': {err}") from None

            def exempt(name=name, per=per) -> bool:
                return family() != name or (per == "key" and key_identity() is None)

            who = "API key or token" if per == "key" else "address"
            found.append(Limit(rate, key_function=key_func, scope=f"{name}:{per}",
                               shared=True, exempt_when=exempt,
                               error_message=f"over the {name} limit of {rate} per {who}"))
    return found


def _creators() -> list[str]:
    """The identities a match committed now is created by: none outside a request (a worker,
    a ladder's matchmaker after a match ended) or outside the creating families."""
    if not has_request_context() or family() not in CREATES_MATCHES:
        return []
    return identities()


def _on_limited(err: RateLimitExceeded):
    """429 rate.limited, with Retry-After from the breached window's reset."""
    from referee.api.problems import problem  # the app's problem format

    limiter = current_app.extensions["referee.limiter"]
    current = limiter.current_limit
    wait = max(1, math.ceil(current.reset_at - time.time())) if current else 1
    response = problem(429, "rate.limited", f"{err.description}; retry after {wait} s",
                       retry_after=wait)
    response.headers["Retry-After"] = str(wait)
    return response


def _on_over_quota(err):
    """429 quota.active_matches, with a Retry-After (matches end over minutes)."""
    from referee.api.problems import problem
    from referee.limits.quotas import RETRY_AFTER_QUOTA_S

    response = problem(err.status, err.code, err.message, details=err.details,
                       retry_after=RETRY_AFTER_QUOTA_S)
    response.headers["Retry-After"] = str(RETRY_AFTER_QUOTA_S)
    return response


def _openapi_path(rule: str) -> str:
    """A Flask rule as an OpenAPI path (`<match_id>` -> `{match_id}`)."""
    return re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule)


def document_429(app):
    """A spec step: each limited operation documents its 429 (and the ceiling's)."""
    paths = {rule.endpoint: _openapi_path(rule.rule) for rule in app.url_map.iter_rules()}

    def step(spec: dict) -> None:
        for (endpoint, method), name in FAMILIES.items():
            operation = spec["paths"].get(paths.get(endpoint, ""), {}).get(method.lower())
            if operation is None:
                continue
            codes = "rate.limited" + (", quota.active_matches" if name in CREATES_MATCHES
                                      else "")
            operation["responses"]["429"] = {
                "description": f"{codes} (the {name} family's limits); wait Retry-After "
                               f"seconds",
                "headers": {"Retry-After": {"description": "seconds to wait",
                                            "schema": {"type": "integer"}}},
                "content": {"application/problem+json": {
                    "schema": {"$ref": "#/components/schemas/Problem"}}}}
    return step


def counter_prefix(key_prefix: str) -> str:
    """Where a deployment's rate-limit counters live in Redis: `<REFEREE_PREFIX>:rl:…`."""
    return f"{key_prefix}:rl"


def storage_options(settings) -> dict:
    """The limits library's storage options: on Redis, its keys under the deployment's
    prefix. The library puts its own `LIMITS:` before every key by default, so a
    deployment's cleanup (`<prefix>:*`) or a second deployment on the same Redis never saw
    the counters; its RedisStorage (and the Sentinel and Cluster ones) take `key_prefix`.
    The memory storage of the embedded default is this process's own: nothing to name."""
    return {"key_prefix": counter_prefix(settings.key_prefix)} if settings.redis_url else {}


def install(app, service, quotas) -> Limiter | None:
    """The limiter and the active-match ceiling on `app` (call after the hooks that identify
    the caller, before any that reads the body); None when REFEREE_RATE_LIMITS is off."""
    from referee.limits.quotas import OverQuota

    settings = service.settings
    if not settings.rate_limits:
        return None
    limiter = Limiter(address_identity, default_limits=_limits(settings),
                      storage_uri=settings.redis_url or "memory://",
                      storage_options=storage_options(settings), strategy=STRATEGY,
                      headers_enabled=False)
    limiter.init_app(app)
    app.extensions["referee.limiter"] = limiter
    app.extensions.setdefault("referee.spec_steps", []).append(document_429(app))
    app.register_error_handler(RateLimitExceeded, _on_limited)
    app.register_error_handler(OverQuota, _on_over_quota)
    quotas.who = _creators

    @app.before_request
    def active_match_ceiling():
        """Refuse creating matches or events over the active-match ceiling."""
        if family() in CREATES_MATCHES:
            quotas.check(identities(), settings.max_active_matches)
    return limiter
