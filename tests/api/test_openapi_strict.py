"""The OpenAPI document is as strict as the server (issue 40): what the server refuses the
schema refuses, what it returns the schema allows, and generated TypeScript takes
`{game, seats}` for a match to create."""

from __future__ import annotations

import pytest


@pytest.fixture
def app(shared_app):
    """Reads the document and asks stateless routes: the module shares one app."""
    return shared_app


@pytest.fixture
def schemas(client):
    return client.get("/v1/openapi.json").json["components"]["schemas"]


def test_an_empty_seat_and_a_null_move_fail_the_schema(schemas, client):
    """`seats: [""]` and `move: null` are refused by the schema, as the server refuses them."""
    assert schemas["MatchCreate"]["properties"]["seats"]["items"]["minLength"] == 1
    move = schemas["MoveSubmit"]["properties"]["move"]
    assert move["type"] == "object" and not move.get("nullable")
    assert client.post("/v1/matches", json={"game": "yunnan", "seats": [""]}).status_code == 422


def test_views_the_server_may_leave_null_are_nullable(schemas):
    """A match waiting on a deal answers `"view": null`: Match.view is nullable, as is every
    view field the server may leave empty."""
    for name in ("Match", "Prompt", "MoveAccepted", "CheckResponse", "Session"):
        assert schemas[name]["properties"]["view"]["nullable"] is True, name


def _typescript_required(schema: dict) -> set[str]:
    """The properties openapi-typescript (7, default-non-nullable) makes required: those
    listed as required and those with a `default`."""
    props = schema.get("properties", {})
    return set(schema.get("required", ())) | {k for k, v in props.items() if "default" in v}


def test_generated_typescript_takes_game_and_seats(schemas):
    """No component property carries a `default` (said in its description instead), so a
    request type asks only for what the server requires."""
    assert _typescript_required(schemas["MatchCreate"]) == {"game", "seats"}
    assert _typescript_required(schemas["CheckRequest"]) == {"players"}
    assert _typescript_required(schemas["SessionCreate"]) == {"players", "game"}
    defaults = [(name, key) for name, schema in schemas.items()
                for key, prop in (schema.get("properties") or {}).items()
                if isinstance(prop, dict) and "default" in prop]
    assert defaults == []
    chance = schemas["MatchCreate"]["properties"]["chance"]["description"]
    assert chance.endswith('default "internal"')


@pytest.mark.parametrize("path, body", [
    ("/v1/games/yunnan/check", {"players": 0, "seed": "1"}),
    ("/v1/check-sessions", {"game": "yunnan", "players": 0, "seed": "1"}),
    ("/v1/verify", {"game": "yunnan", "players": 0, "seed": "1", "moves": []}),
    ("/v1/verify", {"game": "yunnan", "players": 2, "moves": []}),   # seed withheld
])
def test_validation_errors_are_422(client, path, body):
    """players: 0, and a record whose seed is withheld, are 422 like every other
    validation error (the documented status), never 400."""
    assert client.post(path, json=body).status_code == 422


def test_a_nullable_reference_is_it_or_null_and_a_move_is_an_open_object(schemas):
    """What openapi-typescript showed (tests/clients/test_openapi_typescript.py): apispec's
    null branch `{type: object, nullable}` let `{}` pass as a seated move or a commitment, a
    view's open `type: object` made `view.game` unknown, and a bare `type: object` move was
    `Record<string, never>`, which no move fits."""
    from referee.api.contract import NULL_BRANCH

    for name, prop in (("CheckRequest", "candidate"), ("CheckRequest", "seed_commitment"),
                       ("Match", "view"), ("CheckResponse", "error")):
        branches = schemas[name]["properties"][prop]["anyOf"]
        assert NULL_BRANCH in branches and len(branches) == 2, (name, prop)
        assert "type" not in schemas[name]["properties"][prop], (name, prop)
    move = schemas["MoveSubmit"]["properties"]["move"]
    assert move["required"] == ["type"] and move["additionalProperties"] is True
    assert schemas["CheckRequest"]["properties"]["max_moves"]["description"].count(
        "default 10000") == 1
