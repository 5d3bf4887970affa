"""The service of the current app."""

from __future__ import annotations

from flask import current_app


def service():
    """The MatchService this app serves."""
    return current_app._get_current_object().extensions["referee"]   # one proxy lookup
