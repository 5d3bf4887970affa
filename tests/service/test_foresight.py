"""Work done while a Redis round trip is in flight (scripts.run_meanwhile): a prompt works out
the answer for the version this process last saw while it reads the match's version, and a
move works out the mover's view of the new version while its commit is in flight
(disclosure.Foresight). Each guess is kept only when the reply confirms it: a version that
moved on elsewhere, or a commit that did not land, leaves no trace."""

from __future__ import annotations

import pytest

from referee.games import GAMES
from referee.root import create_app, stop_app
from referee.service import scripts
from referee.service.states import StateCache
from tests.api.helpers import auth, create
from tests.conftest import organiser_client, own_settings


@pytest.fixture
def in_flight(monkeypatch):
    """A list that records, per call of the wrapped game functions, whether a round trip was
    in flight then (inside its `meanwhile`)."""
    flight = {"now": False}
    calls: list = []
    real_meanwhile = scripts._meanwhile

    def meanwhile(work):
        flight["now"] = True
        try:
            real_meanwhile(work)
        finally:
            flight["now"] = False

    monkeypatch.setattr(scripts, "_meanwhile", meanwhile)
    game_class = type(GAMES.get("yinzi-ming"))
    for name in ("legal_moves", "served_view"):
        real = getattr(game_class, name)

        def wrapped(self, *args, _real=real, _name=name):
            calls.append((_name, flight["now"]))
            return _real(self, *args)
        monkeypatch.setattr(game_class, name, wrapped)
    return calls


@pytest.fixture
def two_apps(needs_real_redis):
    """Two service processes' apps on one Redis and key prefix (as gunicorn's workers):
    ([their organiser clients], [their services])."""
    with own_settings(needs_real_redis) as config:
        apps = [create_app(config), create_app(config)]
        try:
            yield [organiser_client(a) for a in apps], [a.extensions["referee"] for a in apps]
        finally:
            for a in apps:
                stop_app(a)


def _to_act(service, created) -> tuple[int, str]:
    """The seat to act in the created match, and its token."""
    seat = service.store.live(created["id"]).pending[0]
    return seat, created["tokens"][str(seat)]


def _prompt(client, match_id, token):
    answer = client.get(f"/v1/matches/{match_id}/prompt", headers=auth(token))
    assert answer.status_code == 200, answer.json
    return answer.json


def _move(client, match_id, token, prompt):
    answer = client.post(f"/v1/matches/{match_id}/moves", headers=auth(token), json={
        "move": prompt["legal_moves"][0], "expected_version": prompt["version"]})
    assert answer.status_code == 200, answer.json
    return answer.json


def test_a_prompt_and_a_moves_view_are_worked_out_while_the_round_trip_is_in_flight(
        two_apps, in_flight):
    (client, _), (service, _) = two_apps
    created = create(client, game="yinzi-ming", seats=["remote"] * 3, seed=4)
    match_id, (seat, token) = created["id"], _to_act(service, created)
    prompt = _prompt(client, match_id, token)
    in_flight.clear()
    answer = _move(client, match_id, token, prompt)
    # the mover's view of the new version, during the commit; its answer shows that one
    assert in_flight == [("served_view", True)]
    state = service.state(service.store.meta(match_id), service.store.live(match_id))
    game = service.games.get("yinzi-ming")
    assert answer["view"] == game.view(state, seat)
    assert answer["version"] == prompt["version"] + 1
    # the next prompt: its legal moves (and its view, unless it is the mover's, kept from
    # the move) while the version is read; the answer is the new version's
    in_flight.clear()
    seat, token = _to_act(service, created)
    after = _prompt(client, match_id, token)
    assert ("legal_moves", True) in in_flight and all(during for _, during in in_flight)
    assert after["version"] == answer["version"]
    assert after["legal_moves"] == game.legal_moves(state, seat)
    assert after["view"] == game.view(state, seat)


def test_a_prompt_for_a_version_that_moved_on_elsewhere_answers_the_new_one(two_apps):
    """Process A last saw version v; process B moves the match on; A's guess for v is
    dropped and A answers what B would."""
    (a, b), (service, _) = two_apps
    created = create(a, game="yinzi-ming", seats=["remote"] * 3, seed=6)
    match_id, (_, token) = created["id"], _to_act(service, created)
    seen = _prompt(a, match_id, token)
    _move(b, match_id, token, _prompt(b, match_id, token))
    after = _prompt(a, match_id, token)
    assert after["version"] == seen["version"] + 1
    assert after == _prompt(b, match_id, token)


def test_a_moves_foreseen_view_is_kept_only_if_its_commit_lands(two_apps, in_flight):
    """Process A moves on the version it last saw while process B has moved the match on:
    A's commit does not land, and the view it worked out for its own (never committed) next
    version is not kept; A then judges the move on B's version, as before."""
    (a, b), (service_a, _) = two_apps
    created = create(a, game="yinzi-ming", seats=["remote"] * 3, seed=6)
    match_id, (seat, token) = created["id"], _to_act(service_a, created)
    stale = _prompt(a, match_id, token)
    _move(b, match_id, token, _prompt(b, match_id, token))
    in_flight.clear()
    answer = a.post(f"/v1/matches/{match_id}/moves", headers=auth(token), json={
        "move": stale["legal_moves"][0], "expected_version": stale["version"]})
    assert in_flight == [("served_view", True)]   # A's own next version, foreseen
    # judged again on B's version: no longer this seat's turn, or a stale version
    assert answer.status_code == 409
    assert answer.json["code"] in ("turn.not_yours", "match.version_stale")
    fresh = _prompt(b, match_id, token)
    assert _prompt(a, match_id, token) == fresh   # B's version, B's view, in A too
    version = fresh["version"]
    assert service_a._states.view(match_id, version, seat, lambda memo: None) == fresh["view"]


def test_the_cache_keeps_foreseen_parts_with_a_new_version_only():
    cache = StateCache()
    cache.put("m", 3, state="s3", foreseen=({"shared": 1}, {0: "view 0"}, {0: b"json 0"}))
    assert cache.view("m", 3, 0, lambda memo: "computed") == "view 0"
    assert cache.view_json("m", 3, 0, "view 0", lambda v: b"written") == b"json 0"
    assert cache.view("m", 3, 1, lambda memo: memo["shared"]) == 1   # the foreseen memo
    # the same version cached already (read by another request meanwhile): its own stay
    cache.put("m", 3, state="s3 again", foreseen=({}, {0: "other"}, {0: b"other"}))
    assert cache.view("m", 3, 0, lambda memo: "computed") == "view 0"
