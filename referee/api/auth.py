"""Seat tokens from the Authorization header."""

from __future__ import annotations

from flask import g, request

from referee.service.credentials import parse_bearer


def bearer_token() -> str | None:
    """The bearer token of this request, or None when there is none."""
    return parse_bearer(request.headers.get("Authorization"))


def principal():
    """Who calls, as an access plug-in's request hook set it in `flask.g.principal` (None
    without one); the service's `may_see_seat` hooks receive it as `Caller.principal`."""
    return g.get("principal")
