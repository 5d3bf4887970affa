"""The web pages: home, rules summaries, matches (live, replay, a seat's own view).

Server-rendered HTML and SVG (one drawing module per game under `referee.web.boards`) with a
little plain JavaScript for live updates and replay stepping; no build step. The pages come
into the app as a plug-in (`web_plugin()`, named by the composition root, referee/root.py);
they read matches through the match service only, and know nothing of the arena: the arena
plug-in contributes its own pages (arena/web.py), which the home page links to when present.
"""

from __future__ import annotations

from referee.service.plugins import Plugin


def _pages() -> list:
    from referee.web import controls, docs  # noqa: F401  (their routes join the blueprint)
    from referee.web.pages import blp  # Flask: only when an app is built

    return [blp]


def _install(app, service) -> None:
    from referee.web import errors  # Flask: only when an app is built

    errors.install(app, service)


def web_plugin() -> Plugin:
    """The house's pages as a plug-in: blueprints outside /v1, and HTML 404 pages."""
    return Plugin(name="web", pages=_pages, install=_install)
