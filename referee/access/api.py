"""/v1/accounts: organisers create accounts; an account reads itself and rotates its key."""

from __future__ import annotations

from flask import current_app, g
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from referee.service.access import ORGANISER, PLAYER, ROLES, requires
from referee.service.schemas import ProblemSchema

blp = Blueprint("accounts", __name__, url_prefix="/v1/accounts",
                description="Accounts and their API keys (sent as 'Authorization: Bearer rk_…').")


class AccountCreateSchema(Schema):
    name = fields.String(required=True, validate=validate.Length(min=1, max=120))
    role = fields.String(load_default="player", validate=validate.OneOf(ROLES))


class AccountSchema(Schema):
    id = fields.String()
    name = fields.String()
    role = fields.String()
    created_at = fields.Float()


class AccountCreatedSchema(AccountSchema):
    key = fields.String(metadata={"description": "the account's API key; shown only here"})


class KeySchema(Schema):
    key = fields.String(metadata={"description": "the new API key; shown only here"})


def accounts():
    """The account store of this app's service."""
    return current_app.extensions["referee"].extensions["access"].accounts


@blp.route("")
class Accounts(MethodView):
    @requires(ORGANISER)
    @blp.arguments(AccountCreateSchema)
    @blp.response(201, AccountCreatedSchema)
    @blp.alt_response(401, schema=ProblemSchema, description="auth.key_missing, auth.key_invalid")
    @blp.alt_response(403, schema=ProblemSchema, description="auth.organiser_only")
    def post(self, body):
        """Create an account (organisers)

        Returns the account and its API key, shown only here (stored as a hash).
        """
        account, key = accounts().create(body["name"], body["role"])
        return {**account, "key": key}


@blp.route("/me")
class Me(MethodView):
    @requires(PLAYER)
    @blp.response(200, AccountSchema)
    @blp.alt_response(401, schema=ProblemSchema, description="auth.key_missing, auth.key_invalid")
    def get(self):
        """The calling account"""
        return accounts().get(g.caller.id)


@blp.route("/me/key")
class MyKey(MethodView):
    @requires(PLAYER)
    @blp.response(201, KeySchema)
    @blp.alt_response(401, schema=ProblemSchema, description="auth.key_missing, auth.key_invalid")
    def post(self):
        """Rotate the calling account's key: the old one stops working at once"""
        return {"key": accounts().rotate(g.caller.id)}


BLUEPRINTS = [blp]
