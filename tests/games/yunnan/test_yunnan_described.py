"""Yunnan's views against their schemas over random playouts, every field described, and the
board tables served with their provenance tags."""

from __future__ import annotations

import pytest

from referee.core import Rng
from referee.core.schema import check_schema, schema_errors
from referee.games.yunnan import GAME


def _walk(schema, path="$"):
    """(path, property schema) for every property declared anywhere in `schema`."""
    for name, sub in schema.get("properties", {}).items():
        yield f"{path}.{name}", sub
        yield from _walk(sub, f"{path}.{name}")
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), dict):
            yield from _walk(schema[key], f"{path}[]")
    for i, sub in enumerate(schema.get("oneOf", [])):
        yield from _walk(sub, f"{path}<{i}>")


@pytest.mark.parametrize("spectator", [False, True])
def test_every_property_has_a_description_and_objects_are_closed(spectator):
    schema = GAME.view_schema(spectator)
    check_schema(schema, "yunnan view")
    props = list(_walk(schema))
    assert len(props) > 60
    for path, sub in props:
        assert sub.get("description"), path
    for path, sub in [("$", schema), *props]:
        for node in [sub, sub.get("items") or {}, *sub.get("oneOf", [])]:
            if "properties" in node:
                assert node.get("additionalProperties") is False, path


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_view_of_random_playouts_fits_its_schema(players):
    seat_schema, spectator_schema = GAME.view_schema(False), GAME.view_schema(True)
    for seed, options in ((1, {}), (2, {"guards": True, "double_bidding": True})):
        s = GAME.setup(players, GAME.spec.resolve_options(options), seed)
        rng = Rng(seed, "views")
        while True:
            for seat in range(players):
                assert schema_errors(GAME.view(s, seat), seat_schema, "view") == []
            assert schema_errors(GAME.view(s, None), spectator_schema, "view") == []
            pending = GAME.pending(s)
            if not pending:
                break
            seat = pending[0].seat
            s = GAME.apply(s, seat, rng.choice(GAME.legal_moves(s, seat)))


def _tagged(node) -> bool:
    from referee.core.seeds import is_tagged
    return is_tagged(node) or (isinstance(node, dict) and bool(node)
                               and all(_tagged(v) for v in node.values()))


def test_board_serves_every_table_tagged_with_its_source():
    board = GAME.board()
    for name in ("province_income", "bid_spaces", "bank_bands", "temple_spaces", "gorges",
                 "building_effects", "duli"):
        assert name in board
    for name, table in board.items():
        assert table["description"], name
        assert _tagged(table["value"]), name
        for tag in _leaves(table["value"]):
            assert tag["status"] in ("FOUND", "DERIVED", "PROPOSAL") and tag["source"], name


def _leaves(node):
    from referee.core.seeds import is_tagged
    if is_tagged(node):
        yield node
    elif isinstance(node, dict):
        for v in node.values():
            yield from _leaves(v)


def test_board_holds_the_numbers_the_engine_plays_with():
    from referee.games.yunnan.data import BANK_PAYOUT, INCOME, PROVINCES, SPACES
    board = GAME.board()
    assert [board["province_income"]["value"][p]["value"] for p in PROVINCES] == list(INCOME)
    assert tuple(board["temple_spaces"]["value"]["value"]) == SPACES["temple"]
    assert [(b["min"], b["coins"]) for b in board["bank_bands"]["value"]["value"]] == \
        list(BANK_PAYOUT)
    cards = board["duli"]["value"]["cards"]
    assert cards["status"] == "PROPOSAL" and len(cards["value"]) == 16
    assert cards["value"][0]["effect"] == ("bids: traders guild > horse trader > building yard "
                                           "> trading school > customs office; travel: "
                                           "traders 2 yunnan, 2 sichuan, 1 kang, 1 tibet, "
                                           "1 qinghai")
    assert board["building_effects"]["value"]["temple"]["status"] == "FOUND"
