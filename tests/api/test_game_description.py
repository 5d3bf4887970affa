"""GET /v1/games/{game} describes views (schema + example) and the printed tables; the
OpenAPI documents refer to the view schemas instead of a bare object (issue 13)."""

from __future__ import annotations

import pytest

from referee.core.schema import schema_errors
from referee.service.described import UNDESCRIBED
from tests.conftest import ALL_GAMES

NAMES = [g.spec.name for g in ALL_GAMES]


@pytest.mark.parametrize("name", NAMES)
def test_a_game_describes_both_views_with_an_example_that_fits(embedded_app, name):
    body = embedded_app.test_client().get(f"/v1/games/{name}").json
    assert set(body["views"]) == {"seat", "spectator"}
    for who, described in body["views"].items():
        assert described["example"]["game"] == name, who   # every view names its game
        assert isinstance(described["example"], dict) and described["example"], who
        if described["schema"] != UNDESCRIBED:
            assert schema_errors(described["example"], described["schema"], "view") == [], who
    assert isinstance(body["board"], dict)


def test_openapi_refers_view_fields_to_each_games_view_schema(embedded_app):
    client = embedded_app.test_client()
    doc = client.get("/v1/openapi.json").json
    schemas = doc["components"]["schemas"]
    for name in NAMES:
        assert f"{name}.SeatView" in schemas and f"{name}.SpectatorView" in schemas
    # per game anyOf, not oneOf: a seat's view may also fit its game's spectator view schema;
    # the games' views are one of them, told apart by the `game` every view names
    assert {"$ref": f"#/components/schemas/{NAMES[0]}.SeatView"} in \
        schemas[f"{NAMES[0]}.View"]["anyOf"]
    assert schemas["View"]["discriminator"] == {"propertyName": "game", "mapping": {
        name: f"#/components/schemas/{name}.View" for name in NAMES}}
    assert '"#/components/schemas/View"' in client.get("/v1/openapi.json").get_data(True)
    protocol = client.get("/v1/bot-protocol/openapi.json").json["components"]["schemas"]
    assert protocol["MoveRequest"]["discriminator"]["propertyName"] == "game"
    assert protocol["dschunke.MoveRequest"]["properties"]["view"] == {
        "$ref": "#/components/schemas/dschunke.SeatView"}
    assert set(NAMES) <= {k.split(".")[0] for k in protocol if k.endswith(".SeatView")}
