"""The web pages: home, rules summaries, matches (live, replay, a seat's own view).

Server-rendered HTML and SVG (one drawing module per game under `referee.web.boards`) with a
little plain JavaScript for live updates and replay stepping; no build step. The package is a
plain Flask blueprint, `referee.web.pages.blp`, installed by the app factory.
"""

from __future__ import annotations


def blueprints() -> list:
    """The house's page blueprints (Flask is imported only when an app asks for them)."""
    from referee.web.pages import blp

    return [blp]
