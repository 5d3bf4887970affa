"""The access plug-in's request hook: who calls, and may they call this route (before the body
is parsed, so a stranger learns nothing from validation errors)."""

from __future__ import annotations

import ipaddress

from flask import current_app, g, request

from referee.service.access import (LOCAL_ACCOUNT, ORGANISER, PLAYER, SEAT, Caller, Forbidden,
                                    check_organiser, is_account_key, level_of, need_caller)
from referee.service.credentials import parse_bearer
from referee.service.errors import MissingToken

READS = ("GET", "HEAD", "OPTIONS")
LOCAL_HOSTS = ("localhost", "127.0.0.1", "[::1]", "::1")
LOCAL_CALLER = Caller(LOCAL_ACCOUNT, "local organiser", "organiser")


def view_level(app, endpoint: str | None, method: str) -> str | None:
    """The level the view of `endpoint` declared for `method` (None: no declaration)."""
    view = app.view_functions.get(endpoint) if endpoint else None
    if view is None:
        return None
    view_class = getattr(view, "view_class", None)
    if view_class is not None:
        name = "get" if method == "HEAD" else method.lower()
        view = getattr(view_class, name, None)
    return level_of(view) if view is not None else None


def _is_local_request() -> bool:
    """A request from this machine to a loopback name (the Host check keeps a web page that
    rebinds its own DNS name to 127.0.0.1 out)."""
    try:
        loopback = ipaddress.ip_address(request.remote_addr or "").is_loopback
    except ValueError:
        return False
    host = request.host.rsplit(":", 1)[0] if not request.host.endswith("]") else request.host
    return loopback and host.lower() in LOCAL_HOSTS


def caller_of_request(service, token: str | None) -> Caller | None:
    """The account calling, given the request's bearer `token`: by its key, or the local
    organiser for a keyless request from this machine in the embedded default; None
    otherwise. Raises KeyInvalid."""
    if is_account_key(token):
        return service.extensions["access"].accounts.caller_of(token)
    if service.settings.embedded and _is_local_request():
        return LOCAL_CALLER
    return None


def authenticate():
    """Set `g.caller`, then refuse a caller the route does not take (401/403 problems)."""
    req = request._get_current_object()   # read a dozen times: one context lookup
    endpoint, method = req.endpoint, req.method
    if endpoint is None or method == "OPTIONS":
        return None  # a 404/405 or a pre-flight: nothing of ours runs
    app = current_app._get_current_object()
    # the header read once, from the environ (what werkzeug's headers.get reads, unwrapped)
    token = parse_bearer(req.environ.get("HTTP_AUTHORIZATION"))
    g.caller = caller = caller_of_request(app.extensions["referee"], token)
    level = _level(app, endpoint, method)
    if level is None and method not in READS:
        # fail closed: a write route that states no caller is refused, never open
        raise Forbidden(f"{method} {req.path} declares no caller")
    if level == PLAYER:
        need_caller(caller)
    elif level == ORGANISER:
        check_organiser(caller, f"call {method} {req.url_rule}")
    elif level == SEAT:
        if token is None or is_account_key(token):
            raise MissingToken("this request needs a seat token: 'Authorization: Bearer st_…' "
                               "(an account key is not a seat token)")
    return None


def _level(app, endpoint: str, method: str) -> str | None:
    """`view_level`, remembered per app, endpoint and method (views are not replaced once
    the app serves; a request asks on every call)."""
    levels = app.extensions.setdefault("referee.access_levels", {})
    try:
        return levels[endpoint, method]
    except KeyError:
        level = levels[endpoint, method] = view_level(app, endpoint, method)
        return level
