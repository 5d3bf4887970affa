"""The per-version view cache (referee/service/states.py): a view computed once for a version
and a viewer is served again only to that viewer at that version.

A seat's move answer and its next prompt show the same view, so the process keeps it; a seat
must never get another seat's view (hidden hands), nor a view of a version the match left.
"""

from __future__ import annotations

import pytest

from referee.games import GAMES
from referee.service.states import StateCache
from tests.api.helpers import auth, create


def test_a_view_is_computed_once_per_version_and_viewer():
    cache, made = StateCache(), []

    def compute(tag):
        return lambda memo: made.append(tag) or {"tag": tag}

    cache.put("m", 3, state={"s": 3})
    assert cache.view("m", 3, 0, compute("v3 seat 0")) == {"tag": "v3 seat 0"}
    assert cache.view("m", 3, 0, compute("again")) == {"tag": "v3 seat 0"}
    assert cache.view("m", 3, 1, compute("v3 seat 1")) == {"tag": "v3 seat 1"}
    assert cache.view("m", 3, None, compute("v3 spectator")) == {"tag": "v3 spectator"}
    assert made == ["v3 seat 0", "v3 seat 1", "v3 spectator"]


def test_a_new_version_drops_the_views_and_an_uncached_version_keeps_none():
    cache, made = StateCache(), []

    def compute(tag):
        return lambda memo: made.append(tag) or tag

    cache.put("m", 3, state={"s": 3})
    cache.view("m", 3, 0, compute("v3"))
    cache.put("m", 3, live="live 3")          # the same version read again keeps its views
    assert cache.view("m", 3, 0, compute("v3 again")) == "v3"
    cache.put("m", 4, state={"s": 4})
    assert cache.view("m", 4, 0, compute("v4")) == "v4"
    assert cache.view("m", 3, 0, compute("v3 late")) == "v3 late"   # a reader behind
    assert cache.view("m", 3, 0, compute("v3 later")) == "v3 later"  # ...is not kept
    cache.put("m", 2, state={"s": 2})           # an older version never replaces a newer one
    assert cache.view("m", 4, 0, compute("v4 again")) == "v4"
    assert made == ["v3", "v4", "v3 late", "v3 later"]


def test_the_views_of_a_cached_version_share_one_memo_which_goes_with_the_version():
    """The memo a game builds the shared parts of a state's views into (Game.served_view)
    is the cached version's: every viewer of that version gets the same one; the next
    version starts a new one; a version not cached gets a fresh one each time, kept by none."""
    cache, memos = StateCache(), []

    def compute(memo):
        memos.append(memo)
        memo.setdefault("built", len(memos))
        return memo["built"]

    cache.put("m", 3, state={"s": 3})
    assert [cache.view("m", 3, v, compute) for v in (0, 1, None)] == [1, 1, 1]
    assert memos[0] is memos[1] is memos[2]
    cache.put("m", 3, live="live 3")          # the same version read again keeps its memo
    assert cache.view("m", 3, 2, compute) == 1
    cache.put("m", 4, state={"s": 4})
    assert cache.view("m", 4, 0, compute) == 5
    assert memos[4] is not memos[0]
    assert cache.view("m", 3, 0, compute) == 6 and cache.view("m", 3, 1, compute) == 7
    assert memos[5] == {"built": 6} and memos[5] is not memos[6]


def test_a_kept_views_json_is_written_once_and_goes_with_the_version():
    """The JSON of the view kept for a viewer at the cached version is written once and
    sent again; any other view object, viewer or version is written by the caller."""
    cache, writes = StateCache(), []

    def write(view):
        writes.append(view)
        return f"json {len(writes)}".encode()

    cache.put("m", 3, state={"s": 3})
    view = cache.view("m", 3, 0, lambda memo: {"seat": 0})
    assert cache.view_json("m", 3, 0, view, write) == b"json 1"
    assert cache.view_json("m", 3, 0, view, write) == b"json 1"
    assert cache.view_json("m", 3, 0, {"seat": 0}, write) is None   # an equal, other object
    assert cache.view_json("m", 3, 1, view, write) is None          # another viewer's slot
    assert cache.view_json("m", 2, 0, view, write) is None          # not the cached version
    cache.put("m", 4, state={"s": 4})
    assert cache.view_json("m", 3, 0, view, write) is None
    later = cache.view("m", 4, 0, lambda memo: {"seat": 0, "v": 4})
    assert cache.view_json("m", 4, 0, later, lambda v: None) is None  # not written: not kept
    assert cache.view_json("m", 4, 0, later, write) == b"json 2"
    assert writes == [view, later]


def test_a_seats_prompt_after_its_own_move_sends_the_views_json_its_answer_sent(
        embedded_app, monkeypatch):
    """Through the API: a seat that must act again after its move gets, in its prompt, the
    view its move's answer carried, copied in as written (one write for both answers)."""
    from referee.service import disclosure, fastjson

    client = embedded_app.test_client()
    writes = []

    class Counting:
        def __getattr__(self, name):
            return getattr(fastjson, name)

        @staticmethod
        def dumpb_orjson(value):
            writes.append(value)
            return fastjson.dumpb_orjson(value)

    monkeypatch.setattr(disclosure, "fastjson", Counting())
    created = create(client, game="dschunke", seats=["remote"] * 3, seed=11)
    match_id, tokens = created["id"], created["tokens"]
    again = 0
    for _ in range(120):
        prompt = None
        for seat, token in sorted(tokens.items()):
            prompt = client.get(f"/v1/matches/{match_id}/prompt", headers=auth(token)).json
            if prompt["must_act"]:
                break
        writes.clear()
        answer = client.post(f"/v1/matches/{match_id}/moves", headers=auth(token),
                             json={"move": prompt["legal_moves"][0],
                                   "expected_version": prompt["version"]})
        assert answer.status_code == 200 and len(writes) == 1
        assert answer.data == fastjson.dumpb(answer.json)   # spliced: the bytes written whole
        if any(str(a["seat"]) == seat for a in answer.json["to_act"]):
            follow = client.get(f"/v1/matches/{match_id}/prompt", headers=auth(token))
            assert len(writes) == 1, "the prompt wrote the view again"
            assert follow.json["view"] == answer.json["view"]
            assert follow.data.count(fastjson.dumpb(answer.json["view"])) == 1
            assert follow.data == fastjson.dumpb(follow.json)
            again += 1
    assert again > 10


@pytest.mark.parametrize("name", GAMES.names())
def test_every_answer_shows_its_own_seats_view_of_its_own_version(embedded_app, name):
    """Prompts and move answers through the API, each compared with the game's view of the
    stored state computed afresh for that seat; seats' views differ (hidden hands, and
    `you` at least), so a view served to the wrong seat would show."""
    client, service = embedded_app.test_client(), embedded_app.extensions["referee"]
    game = GAMES.get(name)
    created = create(client, game=name, seats=["remote"] * 3, seed=11, max_moves=40)
    match_id, tokens = created["id"], created["tokens"]

    def fresh(seat: int) -> dict:
        state = game.from_dict(service.store.live(match_id).state)
        return game.view(state, seat)

    differ, moves = False, 0
    while moves < 40:
        acting = None
        for seat, token in sorted(tokens.items()):
            prompt = client.get(f"/v1/matches/{match_id}/prompt", headers=auth(token)).json
            assert prompt["view"] == fresh(int(seat)), (seat, prompt["version"])
            differ = differ or prompt["view"] != fresh((int(seat) + 1) % 3)
            if prompt["must_act"] and acting is None:
                acting = (seat, token, prompt)
        if acting is None:
            break
        seat, token, prompt = acting
        answer = client.post(f"/v1/matches/{match_id}/moves", headers=auth(token),
                             json={"move": prompt["legal_moves"][-1],
                                   "expected_version": prompt["version"]}).json
        assert answer["version"] == prompt["version"] + 1
        assert answer["view"] == fresh(int(seat))   # the new version's, not the prompt's
        moves += 1
    assert moves > 5
    assert differ, "no two seats ever saw different views: the test would miss a leak"


@pytest.mark.parametrize("name", GAMES.names())
def test_a_live_record_sharing_its_state_never_changes_after_its_commit(embedded_app, name):
    """The live record holds the committed state itself (`Game.stored`, no copy): the moves
    after it, each judged and played on that state, leave it as it was committed."""
    from referee.service import fastjson

    client, service = embedded_app.test_client(), embedded_app.extensions["referee"]
    created = create(client, game=name, seats=["remote"] * 3, seed=5, max_moves=30)
    match_id, tokens = created["id"], created["tokens"]
    kept = []
    for _ in range(30):
        live = service.store.live(match_id)
        if live.status != "active":
            break
        kept.append((service._states.live(match_id), fastjson.dumps(live.state)))
        seat = str(live.pending[0])
        prompt = client.get(f"/v1/matches/{match_id}/prompt", headers=auth(tokens[seat])).json
        answer = client.post(f"/v1/matches/{match_id}/moves", headers=auth(tokens[seat]),
                             json={"move": prompt["legal_moves"][0]})
        assert answer.status_code == 200, answer.json
    assert len(kept) > 5
    for live, committed in kept:
        assert fastjson.dumps(live.state) == committed, live.version


@pytest.mark.parametrize("name", GAMES.names())
def test_the_served_view_is_the_view_and_serving_it_changes_nothing(name):
    """`Game.served_view` (no independent copy) equals `view` at every step of a playout,
    for every seat and the spectator, alone and with one memo shared by the state's viewers
    (as the service serves them), and serialising it leaves the state as it was."""
    import random

    from referee.core import engine
    from referee.service import fastjson

    game, rng = GAMES.get(name), random.Random(7)
    _, state = engine.start(game, 3, None, 7)
    for version in range(60):
        before = fastjson.dumps(game.to_dict(state))
        memo = {}
        for viewer in (0, 1, 2, None):
            served = game.served_view(state, viewer)
            assert served == game.view(state, viewer)
            assert game.served_view(state, viewer, memo) == served
            fastjson.dumpb(served)
        assert fastjson.dumps(game.to_dict(state)) == before
        decisions = game.pending(state)
        if not decisions:
            break
        seat = decisions[0].seat
        state, _ = engine.play(game, state, version, seat,
                               rng.choice(game.legal_moves(state, seat)))


@pytest.mark.parametrize("name", GAMES.names())
def test_a_set_up_waiting_for_chance_serves_the_same_view(name):
    """External chance: a set-up still waiting serves what `view` shows (None for a set-up
    that waits for its chance, guarded like `view`)."""
    from referee.core import engine, suspend

    game = GAMES.get(name)
    _, state = engine.start(game, 3, None, 1, "external")
    assert game.served_view(state, 0) == game.view(state, 0)
    if suspend.setting_up(state):
        assert game.served_view(state, 0) is None


def test_the_meta_cache_is_bounded_for_a_process_that_only_creates(app, monkeypatch):
    """Creating matches caches their metas (the runner reads them next); past
    META_CACHE_SIZE the cache starts again, creations included."""
    from referee.service import store as store_module

    monkeypatch.setattr(store_module, "META_CACHE_SIZE", 5)
    service = app.extensions["referee"]
    for seed in range(12):
        service.create("gops", ["remote", "remote"], None, seed)
        assert len(service.store._meta_cache) <= 5
