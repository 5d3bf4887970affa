"""The REST API: `create_app` builds the Flask app around the match service."""

from __future__ import annotations

from flask import Flask
from flask_smorest import Api

from referee import __version__, web
from referee.api import games, matches, meta, problems
from referee.service.config import Settings
from referee.service.context import get_service

BLUEPRINTS = [meta.blp, games.blp, matches.blp]
SWAGGER_UI_CDN = "https://cdn.jsdelivr.net/npm/swagger-ui-dist@5/"
REDOC_CDN = "https://cdn.jsdelivr.net/npm/redoc@2/bundles/redoc.standalone.js"


def create_app(test_config: dict | None = None) -> Flask:
    """The app: settings from the environment, overridden by `test_config`."""
    app = Flask(__name__)
    settings = _settings(test_config or {})
    app.config.from_mapping(
        API_TITLE="Referee", API_VERSION=__version__, OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/v1", OPENAPI_JSON_PATH="openapi.json",
        MAX_CONTENT_LENGTH=settings.max_body_bytes, JSON_SORT_KEYS=False,
        API_SPEC_OPTIONS={"info": {"description": _DESCRIPTION}},
        # flask-smorest's own API docs pages, /v1/docs and /v1/redoc (their assets: a CDN)
        OPENAPI_SWAGGER_UI_PATH="docs", OPENAPI_SWAGGER_UI_URL=SWAGGER_UI_CDN,
        OPENAPI_REDOC_PATH="redoc", OPENAPI_REDOC_URL=REDOC_CDN,
    )
    app.config.update(test_config or {})
    app.json.sort_keys = False
    app.json.compact = True
    service = get_service(settings)
    app.extensions["referee"] = service
    api = Api(app)
    api.spec.components.security_scheme("seatToken", {"type": "http", "scheme": "bearer"})
    for blueprint in BLUEPRINTS + _plugin_blueprints():
        api.register_blueprint(blueprint)
    _document_moves(api, service.games)
    problems.init_app(app)
    for blueprint in web.blueprints() + _plugin_pages():
        app.register_blueprint(blueprint)
    if settings.embedded or settings.inline_workers:
        from referee.service.worker import start_embedded

        start_embedded(settings, settings.inline_workers or None)
    return app


def _settings(config: dict) -> Settings:
    overrides = {k.lower(): v for k, v in config.items()
                 if k.lower() in Settings.__dataclass_fields__}
    return Settings(**overrides)


def _plugin_blueprints() -> list:
    try:
        from arena.api import BLUEPRINTS as ARENA
    except ImportError:
        return []
    return list(ARENA)


def _plugin_pages() -> list:
    try:
        from arena.web import blp
    except ImportError:
        return []
    return [blp]


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


_DESCRIPTION = (
    "A referee for Yunnan, Dschunke and Yinzi: Ming. Every move is checked against the rules; "
    "every rejection is an RFC 9457 problem detail with a stable `code` (see /v1/problems). "
    "Seats act with the bearer token returned when the match is created.")
