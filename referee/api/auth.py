"""Seat tokens from the Authorization header."""

from __future__ import annotations

from flask import request


def bearer_token() -> str | None:
    """The bearer token of this request, or None when there is none."""
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()
