"""What the bot thought (issue 43): a bot's debug text with each move is kept apart, shown
to its owner only (and to everyone after the match if the owner allows), never to the other
bots or in public views; at most 1 KiB, a longer one cut and marked."""

from __future__ import annotations

import json

import pytest

from arena.botdebug import DEBUG_BYTES, debug_text
from tests.arena.helpers import finished, register
from tests.conftest import account_client
from tests.support.bots import BotServer, deterministic_choice

THOUGHT = "THOUGHT-q7x"


def _thinker(request: dict):
    """Plays like the good bot; says what it thought (3,000 bytes on its first move)."""
    debug = "é" * 1500 if request["version"] == 0 else f"{THOUGHT} at {request['version']}"
    body = {"move": deterministic_choice(request), "debug": debug}
    return 200, json.dumps(body).encode()


def test_the_size_bound():
    assert debug_text({"move": {}, "debug": "hi"}) == {"text": "hi", "truncated": False,
                                                       "bytes": 2}
    cut = debug_text({"debug": "é" * 1500})     # 3,000 bytes: cut at 1,024, whole characters
    assert cut["truncated"] and cut["bytes"] == 3000 and cut["text"] == "é" * 512
    assert len(cut["text"].encode()) <= DEBUG_BYTES
    assert debug_text({"debug": 5}) is None and debug_text({"move": {}}) is None


@pytest.fixture
def players(app):
    alice, _ = account_client(app, "alice")
    bob, _ = account_client(app, "bob")
    thinker, other = BotServer(_thinker, "thinker"), BotServer("good", "other")
    yield alice, bob, thinker, other, app.test_client()
    thinker.stop()
    other.stop()


def test_debug_text_is_the_owners_only_until_the_owner_opens_it(players):
    alice, bob, thinker, other, anonymous = players
    mine = register(alice, thinker)
    theirs = register(bob, other)
    assert bob.patch(f"/v1/bots/{theirs}", json={"open": True}).status_code == 200
    r = alice.post("/v1/arena/matches", json={"game": "gops", "seats": [f"bot:{mine}",
                   f"bot:{theirs}"], "options": {"cards": 4}, "seed": 3})
    assert r.status_code == 201, r.json
    match = finished(alice, r.json["id"])
    assert match["status"] == "over"
    url = f"/v1/arena/matches/{match['id']}/debug"
    seen = alice.get(url).json["debug"]
    assert len(seen) == thinker.paths().count("/move") > 1     # one a move it was asked
    assert {e["seat"] for e in seen} == {0} and seen[0]["truncated"]
    assert THOUGHT in seen[1]["text"] and seen[0]["bytes"] == 3000
    assert bob.get(url).json["debug"] == [] and anonymous.get(url).json["debug"] == []
    # never sent to the other bot, never in the public match, its log or the replay page
    assert THOUGHT not in json.dumps(other.requests) and "éé" not in json.dumps(other.requests)
    for path in (f"/v1/matches/{match['id']}", f"/v1/matches/{match['id']}/log",
                 f"/matches/{match['id']}"):
        assert THOUGHT not in anonymous.get(path).get_data(as_text=True), path
    page = f"/matches/{match['id']}/debug"
    replay = anonymous.get(f"/matches/{match['id']}").get_data(as_text=True)
    assert f'id="debuglink" href="{page}"' in replay   # the replay links its debug page
    assert THOUGHT in alice.get(page).get_data(as_text=True)
    assert "cut at 1 KiB of 3000 bytes" in alice.get(page).get_data(as_text=True)
    assert THOUGHT not in bob.get(page).get_data(as_text=True)
    assert THOUGHT not in anonymous.get(page).get_data(as_text=True)
    # the owner lets everyone read it once the match is over
    assert alice.patch(f"/v1/bots/{mine}", json={"debug_public": True}).status_code == 200
    assert anonymous.get(url).json["debug"] == seen
    assert THOUGHT in bob.get(page).get_data(as_text=True)


def test_while_a_match_runs_a_public_bot_s_text_is_still_its_owner_s_only(needs_real_redis):
    """debug_public opens a bot's texts only once the match is over."""
    import redis

    from arena.botdebug import DebugTexts
    from tests.conftest import delete_keys, unique_name

    prefix = unique_name("dbg")
    texts = DebugTexts(redis.Redis.from_url(needs_real_redis, decode_responses=True), prefix)
    texts.keep("m1", 0, 0, "b1", {"move": {}, "debug": "plan A"})
    texts.keep("m1", 1, 1, "b2", {"move": {}, "debug": "plan B"})
    texts.set_public("b1", True)
    owners = {"b1": "alice", "b2": "bob"}.get
    assert [e["text"] for e in texts.visible("m1", False, "bob", owners)] == ["plan B"]
    assert texts.visible("m1", False, None, owners) == []
    assert [e["text"] for e in texts.visible("m1", True, "bob", owners)] == ["plan A", "plan B"]
    assert [e["text"] for e in texts.visible("m1", True, None, owners)] == ["plan A"]
    delete_keys(needs_real_redis, prefix, unique_name("none"))


def test_the_owner_form_fetches_the_table_alone(players):
    """The page's form fetches `?part=1` with the key: the table, without the page around."""
    alice, bob, thinker, other, anonymous = players
    mine = register(alice, thinker)
    r = alice.post("/v1/arena/matches", json={"game": "gops", "seats": [f"bot:{mine}",
                   "builtin:random"], "options": {"cards": 3}, "seed": 4})
    match = finished(alice, r.json["id"])
    part = alice.get(f"/matches/{match['id']}/debug?part=1").get_data(as_text=True)
    assert THOUGHT in part and "<html" not in part.lower()
    page = anonymous.get(f"/matches/{match['id']}/debug").get_data(as_text=True)
    assert 'id="ownerform"' in page and "part=1" in page and THOUGHT not in page
