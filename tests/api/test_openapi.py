"""The OpenAPI document is the contract: every endpoint, the problem schema, the move schemas."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

from referee.api import contract
from referee.root import create_app, stop_app

EXPECTED_PATHS = {
    "/v1/health": {"get"}, "/v1/problems": {"get"}, "/v1/games": {"get"},
    "/v1/games/{game}": {"get"}, "/v1/games/{game}/check": {"post"},
    "/v1/matches": {"get", "post"}, "/v1/matches/{match_id}": {"get"},
    "/v1/matches/{match_id}/prompt": {"get"}, "/v1/matches/{match_id}/moves": {"post"},
    "/v1/matches/{match_id}/log": {"get"},
}


def test_openapi_lists_every_endpoint(client):
    """Served at /v1/openapi.json, OpenAPI 3, with each path and method."""
    spec = client.get("/v1/openapi.json").json
    assert spec["openapi"].startswith("3.")
    for path, methods in EXPECTED_PATHS.items():
        assert methods <= set(spec["paths"][path]), path


def test_openapi_documents_problems_and_tokens(client):
    """Errors are documented as problem details; seat endpoints need the bearer token."""
    spec = client.get("/v1/openapi.json").json
    moves = spec["paths"]["/v1/matches/{match_id}/moves"]["post"]
    assert {"400", "401", "403", "404", "409", "413", "422"} <= set(moves["responses"])
    assert moves["security"] == [{"seatToken": []}]
    assert spec["components"]["securitySchemes"]["seatToken"]["scheme"] == "bearer"
    assert "code" in spec["components"]["schemas"]["Problem"]["properties"]


def test_openapi_carries_each_games_move_schemas(client):
    """Every move kind of every game is a component, and each game has a oneOf of them."""
    spec = client.get("/v1/openapi.json").json
    schemas = spec["components"]["schemas"]
    for game in client.get("/v1/games").json["games"]:
        detail = client.get(f"/v1/games/{game['name']}").json
        refs = {r["$ref"].rsplit("/", 1)[1] for r in schemas[f"{game['name']}.Move"]["oneOf"]}
        assert refs == {f"{game['name']}.{m['type']}" for m in detail["moves"]}
        for move in detail["moves"]:
            assert schemas[f"{game['name']}.{move['type']}"]["properties"]["type"] == \
                {"type": "string", "enum": [move["type"]]}


def test_problem_catalogue(client):
    """/v1/problems explains the generic codes that problem details link to."""
    problems = client.get("/v1/problems").json["problems"]
    for code in ("move.malformed", "turn.not_yours", "match.over", "match.version_stale",
                 "game.unknown", "options.invalid", "request.too_large"):
        assert code in problems


def _subclasses(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def test_problem_catalogue_covers_every_code_the_service_emits(client):
    """Every error class, HTTP mapping and bot failure code is explained at /v1/problems."""
    from arena.bots import FAILURE_KINDS
    from referee.api.problems import HTTP_CODES
    from referee.core.errors import IllegalMove, RefereeError

    problems = client.get("/v1/problems").json["problems"]
    codes = {cls.code for cls in _subclasses(RefereeError) if cls is not IllegalMove}
    codes |= set(HTTP_CODES.values()) | set(FAILURE_KINDS)
    codes |= {"limits.invalid", "request.invalid", "request.malformed_json"}
    assert sorted(codes - set(problems)) == []
    assert "move.illegal.*" in problems


def _document(app) -> dict:
    return app.test_client().get("/v1/openapi.json").json


def test_the_document_written_on_demand_equals_the_one_written_eagerly(monkeypatch):
    """The document is written when first asked for (creating an app resolves no schema),
    once even when many ask at once, and it is the document written step by step as the
    blueprints are registered: same paths, components and order."""
    lazy = create_app({"TESTING": True})
    try:
        assert lazy.extensions["flask-smorest"]["apis"][""]["ext_obj"]._doc_steps
        with ThreadPoolExecutor(8) as pool:
            served = list(pool.map(lambda _: _document(lazy), range(8)))
        served.append(_document(lazy))
    finally:
        stop_app(lazy)
    monkeypatch.setattr(contract.RefereeApi, "later", lambda self, step: step())
    eager = create_app({"TESTING": True})
    try:
        written = _document(eager)
    finally:
        stop_app(eager)
    for document in served:
        assert json.dumps(document) == json.dumps(written)
