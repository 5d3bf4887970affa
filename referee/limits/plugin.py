"""The limits as a plug-in of the root: its attached object keeps the active-match sets, and
its `install` puts flask-limiter and the ceiling on the app.

A plug-in rather than code in make_app: the service hears of every created and finished match
only through a plug-in's attached hooks (the ceiling needs both), and the deployment can run
without it. `install` is the one contribution that needs the Flask app itself: flask-limiter
registers its own before-request check and error path; make_app calls it after every
plug-in's request hooks (so the access plug-in has said who calls) and before the body guard
(so a flood is refused before its body is read).
"""

from __future__ import annotations

from referee.limits.quotas import ActiveMatches
from referee.service.plugins import Plugin

PROBLEMS = {
    "quota.active_matches": "Too many unfinished matches were created by this API key (or "
                            "token), or from this address (REFEREE_MAX_ACTIVE_MATCHES); create "
                            "more when some have ended (Retry-After).",
}


def _install(app, service) -> None:
    from referee.limits.web import install  # Flask and flask-limiter only for an app
    install(app, service, service.extensions["limits"])


def limits_plugin() -> Plugin:
    """Rate limits per key and per address, and the active-match ceiling."""
    return Plugin(name="limits", attach=lambda service, _settings: ActiveMatches(service),
                  install=_install, problems=PROBLEMS)
