"""What every arena endpoint module shares: the service and arena an app serves, the caller, and
the words for the key refusals (arena/api.py and arena/api_bots.py route; api_check.py too)."""

from __future__ import annotations

from flask import current_app, g

KEY_REFUSALS = "auth.key_missing, auth.key_invalid"


def service():
    """The MatchService this app serves (the root keeps it in `app.extensions`)."""
    return current_app.extensions["referee"]


def arena():
    """The arena attached to this app's service."""
    return service().extensions["arena"]


def caller():
    """The account calling (the access plug-in's request hook sets it), or None."""
    return g.get("caller")
