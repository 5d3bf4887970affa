"""Seat tokens from the Authorization header."""

from __future__ import annotations

from flask import request

from referee.service.credentials import parse_bearer


def bearer_token() -> str | None:
    """The bearer token of this request, or None when there is none."""
    return parse_bearer(request.headers.get("Authorization"))
