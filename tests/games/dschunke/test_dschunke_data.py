"""Data tables are tagged data; stored states are validated; the spec lists every option."""

from __future__ import annotations

import json

import pytest
from dschunke_helpers import GAME, at_poker, new

from referee.core import InvalidState
from referee.core.seeds import is_tagged, load_table

TABLES = ["board.json", "setup.json", "market.json", "special_cards.json", "scoring.json"]


def _all_tagged(node) -> bool:
    if is_tagged(node):
        return True
    if isinstance(node, dict):
        return all(_all_tagged(v) for k, v in node.items() if not k.startswith("$"))
    if isinstance(node, list):
        return all(_all_tagged(v) for v in node)
    return False


@pytest.mark.parametrize("table", TABLES)
def test_every_table_value_is_tagged_with_status_and_source(table):
    data = load_table("dschunke", table)
    assert _all_tagged(data)
    text = json.dumps(data)
    assert '"source": ""' not in text


def test_market_cards_found_in_the_rulebook_examples():
    cards = load_table("dschunke", "market.json")["cards"]
    assert cards[0]["status"] == "FOUND" and cards[1]["status"] == "FOUND"
    assert cards[1]["value"] == {"white": 4, "brown": "S", "lilac": 2, "orange": 1}
    assert all(sorted(map(str, c["value"].values())) == ["1", "2", "4", "S"] for c in cards)


def test_spec_options_defaults():
    options = {o.name: o.default for o in GAME.spec.options}
    assert options == {"two_player_variant": False, "setup_variant": False,
                       "load_single_last_strip": True, "s_tie_settles": True}


def _broken(mutate):
    data = GAME.to_dict(at_poker(3, 0, {0: {"white": 2}, 1: {"brown": 1}}))
    mutate(data)
    return data


@pytest.mark.parametrize("mutate", [
    pytest.param(lambda d: d.pop("stage"), id="missing key"),
    pytest.param(lambda d: d["supply"].__setitem__("white", 99), id="goods not conserved"),
    pytest.param(lambda d: d["stacks"][0].append("tie_breaker"), id="a 31st special card"),
    pytest.param(lambda d: d["seats"][0].__setitem__("strips", 3), id="strips not conserved"),
    pytest.param(lambda d: d["junks"]["grey"].__setitem__("layers", [[0], [1]]),
                 id="layer started before the one below is full"),
    pytest.param(lambda d: d["market"]["deck"].append(0), id="market card twice"),
    pytest.param(lambda d: d["seats"][1].__setitem__("hand", "lots"), id="malformed hand"),
    pytest.param(lambda d: d["stage"].__setitem__("kind", "lunch"), id="unknown stage"),
])
def test_from_dict_rejects_inconsistent_states(mutate):
    with pytest.raises(InvalidState):
        GAME.from_dict(_broken(mutate))


def test_from_dict_round_trips_through_json():
    state = new(4, 8)
    text = json.dumps(GAME.to_dict(state), sort_keys=True)
    assert json.dumps(GAME.to_dict(GAME.from_dict(json.loads(text))), sort_keys=True) == text


def test_the_board_serves_every_table_tagged_with_texts_for_cards_and_actions():
    """board(): each table described, every value tagged; a one-line effect per special card
    and per action; the track, events, market cards and scoring the engine reads."""
    from referee.games.dschunke.data import ACTIONS, CARDS, EVENTS, MARKET, SCORING, TRACKS
    from referee.core.seeds import untag
    board = GAME.board()
    for name, entry in board.items():
        assert set(entry) == {"description", "value"} and entry["description"], name
        assert _all_tagged(entry["value"]), name
    assert set(untag(board["special_card_effects"]["value"])) == set(CARDS)
    assert all(len(t) > 20 for t in untag(board["special_card_effects"]["value"]).values())
    assert set(untag(board["action_texts"]["value"])) == set(ACTIONS)
    assert untag(board["track"]["value"]) == TRACKS
    assert untag(board["events"]["value"]) == EVENTS
    assert untag(board["market_cards"]["value"]) == MARKET
    assert untag(board["scoring"]["value"]) == SCORING
    json.dumps(board)
