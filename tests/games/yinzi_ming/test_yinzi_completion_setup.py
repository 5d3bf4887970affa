"""Completion 5.1-5.3 and the data tables: components, set-up, the map, tags on every value."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from referee.core.seeds import is_tagged, load_table
from referee.games.yinzi_ming import board, data
from tests.games.yinzi_ming.yinzi_helpers import (FRAGMENT, GAME, act, at_directives, clear_board,
                                                  legal, new, occupy)

FRAGMENT_FILE = Path("/work/shared/seeds/003_dd5e903c61ad66d0.txt")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_holdings_and_displays(players):
    """5.2: 10 Sapeques, 1 Yinzi, 1 Stone, Ambassador 1; dial 3; 4 markets, 3 Workshops,
    3 Ships, 5 Crop tiles; 3 Order cards revealed of 12."""
    s = new(players, seed=4)
    for st in s["seats"]:
        assert (st["sapeques"], st["yinzi"], st["stone"], st["ambassador"]) == (10, 1, 0, 1)
        assert (st["peasants"], st["overseers"]) == (12, 8)
        assert len(st["cards"]) == 3 and len(st["deck"]) == 9
    assert s["dial"] == 3
    assert len({m["tile"] for m in s["markets"].values()}) == 4
    assert None not in s["display"] and len(s["display"]) == 3
    assert len(s["port"]) == 3 and all(r["tile"] for r in s["register"])


def test_seating_is_random_and_setup_deterministic():
    """5.2 step 1: the first turn order comes from the seed; the same seed, the same set-up."""
    orders = {tuple(new(4, seed)["order"]) for seed in range(30)}
    assert len(orders) > 5
    assert GAME.to_dict(new(3, 11)) == GAME.to_dict(new(3, 11))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_starting_peasants_in_reverse_order_on_rice_maize_or_salt(players):
    """5.2 step 5: reverse turn order, 2 Peasants each on an unattended Rice/Maize/Salt space."""
    s = new(players, seed=2)
    seen = []
    while s["phase"] == "placement":
        seen.append(s["active"])
        spaces = {m["space"] for m in legal(s)}
        assert spaces == {sid for sid in data.SPACE_IDS if data.SPACES[sid]["crop"] in
                          ("rice", "maize", "salt") and sid not in s["occupants"]}
        s = act(s, legal(s)[-1])
    assert seen == list(reversed(s["order"]))
    assert sorted(h["count"] for h in s["occupants"].values()) == [2] * players


def test_map_provinces_fields_and_salt():
    """5.3: four Provinces of 8 Fields; each crop on 4 Fields; Salt Mines 1, 2, 0, 0."""
    assert len(data.PROVINCES) == 4
    assert all(len(data.FIELDS_BY_PROVINCE[p]) == 8 for p in data.PROVINCES)
    crops = Counter(data.SPACES[f]["crop"] for f in data.FIELD_IDS)
    assert set(crops.values()) == {4} and len(crops) == 8
    salt = Counter(data.SPACES[s]["province"] for s in data.SPACE_IDS
                   if data.SPACES[s]["kind"] == "salt")
    assert salt == {"yangzhou": 1, "tongzhou": 2}


def test_every_pair_of_provinces_shares_a_border():
    """5.3: orthogonal and diagonal borders make all Provinces neighbours."""
    for p in data.PROVINCES:
        for q in data.PROVINCES:
            assert data.LAND[p][q] == (0 if p == q else 1)


def test_unattended_means_no_peasant_and_no_workshop():
    """5.3: a space with any Peasant (even 1 left of 2) or under a Workshop is attended."""
    s = at_directives()
    clear_board(s)
    occupy(s, "YZ1", 0, 1)
    s["covered"]["SZ1"] = "W01"
    assert not board.unattended(s, "YZ1") and not board.unattended(s, "SZ1")
    assert board.unattended(s, "YZ2") and board.unattended(s, "YZM1")


def _untagged_leaves(node, path=""):
    if is_tagged(node):
        return []
    if isinstance(node, dict):
        return [leaf for k, v in node.items() if not k.startswith("$")
                for leaf in _untagged_leaves(v, f"{path}.{k}")]
    return [path]


@pytest.mark.parametrize("name", data.TABLES)
def test_every_table_value_is_tagged(name):
    """Every value of every table sits under a FOUND/DERIVED/PROPOSAL tag with a source."""
    table = load_table(data.GAME, name)
    assert _untagged_leaves(table) == []
    tags = _tags(table)
    assert tags and all(t["source"] for t in tags)


def _tags(node):
    if is_tagged(node):
        return [node]
    if isinstance(node, dict):
        return [t for k, v in node.items() if not k.startswith("$") for t in _tags(v)]
    return []


@pytest.mark.skipif(not FRAGMENT_FILE.exists(), reason="the shared fragment is not mounted")
def test_fragment_sentences_and_quotes_are_verbatim():
    """The sentences the tests cite, and every quote in a FOUND fragment source, are verbatim."""
    text = " ".join(FRAGMENT_FILE.read_text().split())
    for sid, sentence in FRAGMENT.items():
        assert sentence in text, sid
    for name in data.TABLES:
        for tag in _tags(load_table(data.GAME, name)):
            source = tag["source"]
            if tag["status"] == "FOUND" and source.startswith("fragment 003") and "'" in source:
                quote = source.split("'")[1].replace("1-3", "1–3")
                assert quote in text, (name, quote)
