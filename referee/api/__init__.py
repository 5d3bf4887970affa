"""The REST API: `make_app` builds the Flask app around a built service and its plug-ins.

The app is made by the composition root (`referee.root.create_app`), which builds the service
and names the plug-ins; this package knows no plug-in by name.
"""

from __future__ import annotations

from inspect import iscoroutinefunction

from flask import Flask
from flask.sessions import NullSession, SecureCookieSessionInterface
from werkzeug.middleware.proxy_fix import ProxyFix

from referee import __version__
from referee.api import (chance, checks, contract, events, games, guards, headers, matches, meta,
                         problems)
from referee.api.lifecycle import FOLLOWS_FLASK, AppHooks
from referee.api.routing import RoutingMap
from referee.service.described import game_view, view_schema

BLUEPRINTS = [meta.blp, games.blp, checks.blp, matches.blp, chance.blp, events.blp]
ASSETS = "/v1/assets"
"""Where the app's own static files are served (referee/api/static): the packaged Swagger UI
and ReDoc of /v1/docs and /v1/redoc (no CDN: the docs work offline), the favicon."""
SWAGGER_UI_URL = f"{ASSETS}/swagger-ui/"
REDOC_URL = f"{ASSETS}/redoc/redoc.standalone.js"


class NoCookieSessions(SecureCookieSessionInterface):
    """Flask's cookie sessions, but without a secret key (the service's case: it keeps no
    session) every request gets one shared empty NullSession instead of a new one.

    A NullSession refuses every write, and Flask saves none, so a shared one holds nothing
    between requests; making one per request cost ~2% of a prompt's instructions."""

    _NULL = NullSession()

    def open_session(self, app, request):
        """The shared NullSession without a secret key, else Flask's cookie session."""
        return self._NULL if not app.secret_key else super().open_session(app, request)


class RefereeFlask(AppHooks):
    """Flask, remembering which view functions and hooks are coroutines, without a session
    object per request (NoCookieSessions), its URL routing remembered per request line
    (routing.py) and its app-level hooks run without a walk of the blueprints (lifecycle.py).

    Flask asks `ensure_sync` before it calls any of them, and flask-smorest's decorators ask
    again at each layer (a prompt passes 13 times), each time through `inspect`: about 8 µs
    a request on the hot routes for an answer that never changes for a function."""

    _SYNC_LIMIT = 4096
    session_interface = NoCookieSessions()
    url_map_class = RoutingMap   # binding and matching once per request line (routing.py)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._coroutine: dict = {}

    def ensure_sync(self, func):
        """`func` itself when it is not a coroutine function, else Flask's sync wrapper."""
        key = getattr(func, "__func__", func)   # a bound method: its function decides
        try:
            coroutine = self._coroutine.get(key)
        except TypeError:   # an unhashable callable: Flask asks each time
            return super().ensure_sync(func)
        if coroutine is None:
            if len(self._coroutine) >= self._SYNC_LIMIT:  # callables made per call
                self._coroutine.clear()
            coroutine = self._coroutine[key] = iscoroutinefunction(func)
        return super().ensure_sync(func) if coroutine else func

    def create_url_adapter(self, request):
        """Flask's adapter for `request`, without reading its host first when no trusted
        hosts are configured: Flask reads it only to refuse an untrusted one, and
        `request.host` reads it the same way when asked (~17,000 instructions a request)."""
        if not FOLLOWS_FLASK or request is None or self.config["TRUSTED_HOSTS"] is not None \
                or self.url_map.host_matching or self.subdomain_matching:
            return super().create_url_adapter(request)
        return self.url_map.bind_to_environ(request.environ,
                                            server_name=self.config["SERVER_NAME"],
                                            subdomain=self.url_map.default_subdomain or "")


def make_app(service, plugins=(), test_config: dict | None = None) -> Flask:
    """The app over `service`: our blueprints, then each plug-in's API, pages, request hooks
    and problem codes."""
    app = RefereeFlask(__name__, static_url_path=ASSETS)
    settings = service.settings
    app.config.from_mapping(
        API_TITLE="Referee", API_VERSION=__version__, OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/v1", OPENAPI_JSON_PATH="openapi.json",
        MAX_CONTENT_LENGTH=settings.max_body_bytes, JSON_SORT_KEYS=False,
        API_SPEC_OPTIONS={"info": {"description": _DESCRIPTION}},
        # flask-smorest's API docs pages, /v1/docs and /v1/redoc, from packaged assets and
        # our own templates (referee/api/templates: no inline script, a raw-document link)
        OPENAPI_SWAGGER_UI_PATH="docs", OPENAPI_SWAGGER_UI_URL=SWAGGER_UI_URL,
        OPENAPI_REDOC_PATH="redoc", OPENAPI_REDOC_URL=REDOC_URL,
    )
    app.config.update(test_config or {})
    if settings.proxy_hops:  # the client's address from the trusted proxies' X-Forwarded-For
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=settings.proxy_hops)
    app.json.sort_keys = False
    app.json.compact = True
    app.extensions["referee"] = service
    app.extensions["referee.problems"] = dict(problems.CATALOGUE)
    api = contract.RefereeApi(app)
    api.spec.components.security_scheme("seatToken", {
        "type": "http", "scheme": "bearer",
        "description": "A seat token (`st_…`), returned when the match is created: acts for "
                       "one seat of one match."})
    api.spec.components.security_scheme("accountKey", {
        "type": "http", "scheme": "bearer",
        "description": "An account's API key (`rk_…`): a player's or an organiser's "
                       "(`referee keys create`, POST /v1/accounts). In the embedded default a "
                       "keyless request from this machine acts as the local organiser."})
    for blueprint in BLUEPRINTS:
        api.register_blueprint(blueprint)
    for plugin in plugins:
        _install(app, api, plugin)
    for plugin in plugins:  # after every request hook, before the body guard
        if plugin.install is not None:
            plugin.install(app, service)
    guards.init_app(app)  # after the plug-ins' request hooks: who calls is known first
    api.later(lambda: _document_moves(api, service.games))
    problems.init_app(app)
    headers.init_app(app)
    contract.init_app(app, api)
    return app


def _install(app: Flask, api, plugin) -> None:
    """One plug-in's contributions to the app."""
    catalogue = app.extensions["referee.problems"]
    taken = sorted(set(plugin.problems) & set(catalogue))
    if taken:
        raise ValueError(f"plug-in {plugin.name!r} redefines problem codes {taken}")
    catalogue.update(plugin.problems)
    for blueprint in plugin.api():
        api.register_blueprint(blueprint)
    for blueprint in plugin.pages():
        app.register_blueprint(blueprint)
    for hook in plugin.request_hooks():
        app.before_request(hook)


def _document_moves(api, registry) -> None:
    """Each game's moves as OpenAPI components (`<game>.Move` = oneOf its move kinds)."""
    for game in registry:
        refs = []
        for kind in game.spec.moves:
            name = f"{game.spec.name}.{kind.type}"
            api.spec.components.schema(name, {**kind.schema(), "description": kind.description,
                                              "example": kind.to_dict()["example"]})
            refs.append({"$ref": f"#/components/schemas/{name}"})
        api.spec.components.schema(f"{game.spec.name}.Move", {"oneOf": refs})
    _document_views(api, registry)


def _document_views(api, registry) -> None:
    """Each game's view schemas as components; `View` is any of them (what `view` fields hold)."""
    mapping = {}
    for game in registry:
        name = game.spec.name
        for suffix, spectator in (("SeatView", False), ("SpectatorView", True)):
            api.spec.components.schema(f"{name}.{suffix}", view_schema(game, spectator))
        api.spec.components.schema(f"{name}.View", game_view(name, ["SeatView", "SpectatorView"]))
        mapping[name] = f"#/components/schemas/{name}.View"
    api.spec.components.schema("View", {
        "oneOf": [{"$ref": ref} for ref in mapping.values()],
        "discriminator": {"propertyName": "game", "mapping": mapping},
        "description": "what one seat (or a spectator) may see of a match, in the schema of "
                       "its game (GET /v1/games/{game}), which its `game` field names"})


_DESCRIPTION = (
    "A referee for Yunnan, Dschunke and Yinzi: Ming. Every move is checked against the rules; "
    "every rejection is an RFC 9457 problem detail with a stable `code` (see /v1/problems). "
    "Seats act with the bearer token returned when the match is created (`st_…`); accounts "
    "act with their API key (`rk_…`). Each operation's `security` says which it needs "
    "(`[]`: anyone; `x-caller: organiser`: an organiser's key).")
