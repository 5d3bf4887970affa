"""Seat tokens and the calling account, as the routes read them."""

from __future__ import annotations

from flask import g, request

from referee.service.access import Caller, is_account_key
from referee.service.credentials import parse_bearer


def bearer_token() -> str | None:
    """The seat token of this request, or None when there is none (an account key is not one)."""
    # from the WSGI environ: what request.headers.get("Authorization") reads, without the
    # proxy and header lookups (a hot route reads it on every request)
    token = parse_bearer(request._get_current_object().environ.get("HTTP_AUTHORIZATION"))
    return None if is_account_key(token) else token


def caller() -> Caller | None:
    """The account calling (set by the access plug-in's request hook), or None."""
    return g.get("caller")


def principal():
    """Who calls, as the access plug-in's request hook set it (`flask.g.caller`, None
    without one); the service's `may_see_seat` hooks receive it as `Caller.principal`."""
    return g.get("caller")


def account_identity() -> str | None:
    """`key:<account id>` of the account calling (set by the access plug-in), else None: whom
    quotas, rate limits and check sessions count a request against, besides its address."""
    account = g.get("caller")
    return f"key:{account.id}" if account is not None and getattr(account, "id", None) else None


def address_identity() -> str:
    """`addr:<address>` of the request (behind a proxy, configure it to pass the client's)."""
    return f"addr:{request.remote_addr or 'unknown'}"
