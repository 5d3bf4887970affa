"""/v1/health and /v1/problems: is the service up, and what do the error codes mean."""

from __future__ import annotations

from flask import current_app
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields

from referee import __version__
from referee.api.context import service
from referee.service.access import ANYONE, requires

blp = Blueprint("meta", __name__, url_prefix="/v1", description="Service health and the error catalogue.")


class HealthSchema(Schema):
    status = fields.String()
    version = fields.String()
    store = fields.String(metadata={"description": "embedded or redis"})
    games = fields.List(fields.String())


class ProblemCatalogueSchema(Schema):
    problems = fields.Dict(keys=fields.String(), values=fields.String())


@blp.route("/health")
class Health(MethodView):
    @requires(ANYONE)
    @blp.response(200, HealthSchema)
    def get(self):
        """Service health: answers when the store answers"""
        svc = service()
        svc.store.redis.ping()
        return {"status": "ok", "version": __version__,
                "store": "embedded" if svc.settings.embedded else "redis",
                "games": svc.games.names()}


@blp.route("/problems")
class Problems(MethodView):
    @requires(ANYONE)
    @blp.response(200, ProblemCatalogueSchema)
    def get(self):
        """The generic error codes and what they mean

        Problem details link here with `type: /v1/problems#<code>`. Rules errors add
        `move.illegal.<rule>` codes named by each game.
        """
        return {"problems": current_app.extensions["referee.problems"]}
