"""The game described for clients: view schemas hold every view produced, every property is
described, and board() serves the seeds tables with the texts the renderer shows."""

from __future__ import annotations

import json

import pytest

from referee.core.bots import random_move
from referee.core.schema import check_schema, schema_errors
from referee.core.seeds import is_tagged
from referee.games.yinzi_ming import data
from tests.games.yinzi_ming.yinzi_helpers import GAME, new

OPTIONS = [{}, {"exclusive_trade_slots": True, "supply_ignores_transport": False,
                "ships_sail": "full"}]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_view_of_random_playouts_fits_its_schema(players):
    """Every seat's view and the spectator's, at every step of two playouts, fit the schemas."""
    seat_schema, spectator_schema = GAME.view_schema(False), GAME.view_schema(True)
    checked = 0
    for seed, options in enumerate(OPTIONS):
        s = new(players, seed + 7, **options)
        for version in range(5000):
            if version % 3 == 0 or not GAME.pending(s):
                for seat in (None, *range(players)):
                    view = json.loads(json.dumps(GAME.view(s, seat)))
                    schema = spectator_schema if seat is None else seat_schema
                    assert schema_errors(view, schema, "$", "view") == [], (seat, version)
                    checked += 1
            if not GAME.pending(s):
                break
            seat = GAME.pending(s)[0].seat
            s = GAME.apply(s, seat, random_move(GAME, s, seat, seed, version))
        assert s["phase"] == "over"
    assert checked > 100


def test_the_spectator_schema_refuses_a_seat_view():
    """The two schemas differ where the views do: `you`."""
    s = new(2, 3)
    assert schema_errors(GAME.view(s, 0), GAME.view_schema(True), "$", "view")
    assert schema_errors(GAME.view(s, None), GAME.view_schema(False), "$", "view")


def _undescribed(schema, path="$"):
    """Paths of properties without a description, and of objects left open."""
    found = []
    if not isinstance(schema, dict):
        return found
    if schema.get("type") == "object" and "additionalProperties" not in schema:
        found.append(f"{path}: open object")
    for name, sub in schema.get("properties", {}).items():
        if "description" not in sub:
            found.append(f"{path}.{name}")
        found += _undescribed(sub, f"{path}.{name}")
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), dict):
            found += _undescribed(schema[key], f"{path}[{key}]")
    for i, sub in enumerate(schema.get("oneOf", [])):
        found += _undescribed(sub, f"{path}|{i}")
    return found


@pytest.mark.parametrize("spectator", [False, True])
def test_every_property_is_described_and_every_object_closed(spectator):
    """Descriptions everywhere, in the subset the schema checker knows."""
    schema = GAME.view_schema(spectator)
    check_schema(schema, "yinzi-ming view")
    assert _undescribed(schema) == []


def test_board_serves_every_table_tagged_and_the_texts():
    """Every seeds table with its description; values keep FOUND/DERIVED/PROPOSAL tags; each
    Bonus slot and Administration space says what it does, with its own amount."""
    board = GAME.board()
    for name in data.TABLES:
        table = board[name.removesuffix(".json")]
        assert table["description"] and all(
            is_tagged(v) or all(is_tagged(x) for x in v.values())
            for v in table["value"].values()), name
    slots = board["bonus_slots"]["value"]["value"]
    assert [s["slot"] for s in slots] == [1, 2, 3, 4, 5, 6]  # rules 5: Kiln Licence
    for slot in slots:
        assert str(slot["effect"]["amount"]) in slot["text"]
    assert slots[4]["text"] == "no tax for 1 of your Workshops in this round's Regulation"
    assert slots[5]["text"] == "your first Workshop, if you build it this round, needs 1 Stone less"
    spaces = board["administration_spaces"]["value"]["value"]
    assert [s["id"] for s in spaces] == data.BENEFIT_IDS
    for space in spaces:
        assert space["text"]
        if "amount" in space["effect"]:
            assert str(space["effect"]["amount"]) in space["text"]
    json.dumps(board)
