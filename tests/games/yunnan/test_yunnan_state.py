"""Stored Yunnan states: from_dict refuses every broken one with the JSON path of the bad field,
accepts every state play reaches, and the listing shortcuts agree with the checks (audit)."""

from __future__ import annotations

import functools
import json

import pytest

from referee.core import InvalidState, Rng
from referee.core.kit import audit_listing
from referee.games.yunnan import GAME


def _playout(players: int, seed: int, options: dict | None = None, stop: int | None = None):
    """States of a random playout (every one, or up to `stop` moves)."""
    s = GAME.setup(players, GAME.spec.resolve_options(options or {}), seed)
    rng = Rng(seed, "test-state")
    out = [s]
    while GAME.pending(s) and (stop is None or len(out) <= stop):
        seat = GAME.pending(s)[0].seat
        s = GAME.apply(s, seat, rng.choice(GAME.legal_moves(s, seat)))
        out.append(s)
    return out


def _at(players: int, step: str, seed: int = 1, **options) -> dict:
    """A JSON copy of the first state of a playout pending `step` (a fresh copy each call)."""
    return json.loads(_first_at(players, step, seed, json.dumps(options, sort_keys=True)))


@functools.cache
def _first_at(players: int, step: str, seed: int, options: str) -> str:
    """The first state pending `step` as JSON text, computed once per module: the ~50
    broken-state cases each played the same whole playout to find it."""
    for s in _playout(players, seed, json.loads(options)):
        if s["step"] == step:
            return json.dumps(s)
    raise AssertionError(f"no {step} in the playout")


def _set(path, value):
    def change(d):
        *head, last = path
        for key in head:
            d = d[key]
        d[last] = value
    return change


# (player count, step to break, change, path InvalidState must name)
BROKEN = [
    # wrong type
    (3, "bid", _set(("coins", 0), "x"), "$.coins[0]"),
    (3, "bid", _set(("seed",), "7"), "$.seed"),
    (3, "bid", _set(("options", "guards"), "yes"), "$.options.guards"),
    (3, "bid", _set(("stock",), {}), "$.stock"),
    (3, "bid", _set(("bids", "temple"), None), "$.bids.temple"),
    (3, "bid", _set(("report", "duli"), None), "$.report.duli"),
    (2, "bid", _set(("duli_cards", "deck", 0), True), "$.duli_cards.deck[0]"),
    (3, "bid", _set(("income", 0), 1.5), "$.income[0]"),
    # out of range
    (3, "bid", _set(("influence", 0), 5), "$.influence[0]"),
    (3, "bid", _set(("passes", 1), 7), "$.passes[1]"),
    (3, "bid", _set(("horse", 2), 5), "$.horse[2]"),
    (3, "bid", _set(("posts", 0, 1), 2), "$.posts[0][1]"),
    (3, "bid", _set(("phase",), "auction"), "$.phase"),
    (3, "bid", _set(("blocker",), 9), "$.blocker"),
    (3, "bid", _set(("cursor",), 4), "$.cursor"),
    (3, "bid", _set(("bids", "temple", 0), 3), "$.bids.temple[0]"),
    (2, "bid", _set(("duli_cards", "deck", 0), 99), "$.duli_cards.deck[0]"),
    # missing and extra keys
    (3, "bid", lambda d: d.pop("phase"), "$.phase"),
    (3, "bid", lambda d: d["report"].pop("bank"), "$.report.bank"),
    (3, "bid", lambda d: d.__setitem__("extra", 1), "$.extra"),
    (3, "bid", lambda d: d["yard"][0].__setitem__("ship", 1), "$.yard[0].ship"),
    (3, "bid", lambda d: d["options"].pop("guards"), "$.options.guards"),
    # wrong lengths for the player count (seats; participants with Dúlì)
    (3, "bid", lambda d: d["coins"].append(3), "$.coins"),
    (4, "bid", lambda d: d["guards"].pop(), "$.guards"),
    (2, "bid", lambda d: d["traders"].pop(), "$.traders"),
    (2, "bid", lambda d: d["influence"].pop(), "$.influence"),
    (3, "bid", lambda d: d["traders"][0].append(0), "$.traders[0]"),
    (3, "bid", _set(("blue",), [0, 1, 1]), "$.blue"),
    # inconsistent with each other
    (3, "bid", lambda d: d["traders"][0].__setitem__(0, d["traders"][0][0] + 1), "$.supply[0]"),
    (3, "bid", lambda d: d["stock"][1].__setitem__("bridge", 1), "$.yard[1].bridge"),
    (3, "bid", lambda d: d["gifts"].__setitem__(0, 1), "$.gifts"),
    (3, "bid", _set(("presents", 1), 99), "$.presents[1]"),
    (2, "bid", _set(("duli",), None), "$.duli"),
    (3, "bid", _set(("duli",), 3), "$.duli"),
    (2, "bid", lambda d: d["duli_cards"]["deck"].pop(), "$.duli_cards"),
    (2, "bid", lambda d: d["posts"][2].__setitem__(4, 1), "$.posts[2]"),
    (3, "bid", _set(("step",), "convert"), "$.step"),
    (3, "bid", _set(("actor",), 3), "$.actor"),
    (3, "bid", _set(("final",), []), "$.final"),
    (3, "bid", _set(("displace_at",), 1), "$.displace_at"),
    (3, "bid", _set(("journey",), {"at": 1, "visited": [0, 1]}), "$.journey"),
    (3, "bid", _set(("yard_left",), 1), "$.yard_left"),
    (3, "bid", _set(("guards", 0), 1), "$.guard_spent[0]"),
    (3, "bid", _set(("bank",), [0, 0]), "$.bank"),
    (2, "bid", _set(("bank",), [2]), "$.bank[0]"),
    (3, "bid", _set(("bridges", 0), [1, 1]), "$.bridges[0]"),
    (3, "travel", _set(("passes_used",), 7), "$.passes_used"),
    (3, "convert", _set(("grey",), []), "$.grey"),
]


@pytest.mark.parametrize("players, step, change, path", BROKEN,
                         ids=[f"{p}p-{path}-{i}" for i, (p, _, _, path) in enumerate(BROKEN)])
def test_broken_states_are_refused_with_the_path_of_the_bad_field(players, step, change, path):
    data = _at(players, step)
    GAME.from_dict(data)  # the unbroken state is fine
    change(data)
    with pytest.raises(InvalidState) as err:
        GAME.from_dict(data)
    assert err.value.details["path"] == path, err.value.message
    assert err.value.message.startswith("invalid yunnan state: " + path)


def test_a_state_that_is_not_an_object_is_refused():
    for data in (None, [], "state", 3):
        with pytest.raises(InvalidState) as err:
            GAME.from_dict(data)
        assert err.value.details["path"] == "$"


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_state_play_reaches_round_trips(players):
    for options in ({}, {"guards": True, "double_bidding": True}):
        for s in _playout(players, players, options):
            data = json.loads(json.dumps(GAME.to_dict(s)))
            assert GAME.to_dict(GAME.from_dict(data)) == s


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_listing_shortcuts_agree_with_the_checks_over_playouts(players):
    for seed in (1, 2):
        for s in _playout(players, seed, {"double_bidding": seed == 2}):
            for seat in range(players):
                assert audit_listing(GAME, s, seat) == []


def _every_move(s, seat, move_type):
    """Every well-formed move of `move_type` over the names and numbers the game uses."""
    from itertools import product

    from referee.games.yunnan.data import (BIDDABLE, BUILDABLE, GORGE_IDS, GUARD, MARKET,
                                           PROVINCES, SPACES, SUPPLY)
    sources, places = (SUPPLY, *PROVINCES), (*PROVINCES, *GORGE_IDS)
    values = sorted({v for row in SPACES.values() for v in row} | {0, 4, 13, 20})
    fields = {
        "bid": {"building": BIDDABLE, "space": values, "from": sources},
        "bank": {"from": sources}, "market": {"from": sources},
        "resolve": {"building": BIDDABLE}, "block": {"gorge": GORGE_IDS},
        "yard": {"structure": (*BUILDABLE, GUARD), "place": (None, *places)},
        "build": {"structure": BUILDABLE, "place": places},
        "step": {"from": (MARKET, *PROVINCES), "to": PROVINCES},
        "displace": {"owner": range(6)},
        "convert": {"points": range((s["income"][seat] or 0) + 3)},
    }.get(move_type, {})
    for combo in product(*fields.values()):
        move = {"type": move_type, **dict(zip(fields, combo))}
        yield {k: v for k, v in move.items() if v is not None}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_move_the_checks_accept_is_listed(players):
    from referee.core.kit import accepts
    for s in _playout(players, 7, {"double_bidding": players == 3, "guards": players == 4}):
        for decision in GAME.pending(s):
            seat = decision.seat
            accepted = [m for t in decision.move_types for m in _every_move(s, seat, t)
                        if accepts(GAME.rule_for(s, seat, m), s, seat, m)]
            key = lambda m: json.dumps(m, sort_keys=True)  # noqa: E731
            assert sorted(map(key, GAME.legal_moves(s, seat))) == sorted(map(key, accepted))


@pytest.mark.parametrize("players", [2, 3, 5])
def test_bid_destinations_are_every_space_bid_problem_allows(players):
    """The bid listing checks a building once for all its free spaces (bidding.destinations);
    it lists exactly the spaces that `bid_problem`, asked space by space, allows, in the same
    order, whatever a bid would be refused for."""
    from referee.games.yunnan.bidding import bid_problem, destinations
    from referee.games.yunnan.data import PROGRESS, SPACES, TEMPLE

    for seed in (1, 2):
        for s in _playout(players, seed, {"double_bidding": seed == 2}):
            for seat in range(players):
                every = [(b, v) for b in (*PROGRESS, TEMPLE) for v in SPACES[b]
                         if bid_problem(s, seat, b, v) is None]
                assert destinations(s, seat) == every
