"""Credentials carried by requests: the bearer token of an Authorization header.

Kept below the API (no Flask) so plug-ins' endpoints read tokens the same way the core's do.
"""

from __future__ import annotations


def parse_bearer(header: str | None) -> str | None:
    """The token of an `Authorization: Bearer <token>` header value, or None."""
    scheme, _, token = (header or "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()
