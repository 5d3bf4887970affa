"""The client library against the real app over HTTP: every endpoint of the REST API."""

from __future__ import annotations

import json
import random
import threading
import time

import pytest

from referee_client import Client
from tests.support.threads import run_threads


def test_service_endpoints(api):
    """Health, the problem catalogue, the OpenAPI document and the bot protocol document."""
    health = api.health()
    assert health["status"] == "ok" and "gops" in health["games"]
    assert api.problems()["move.malformed"].startswith("The move")
    paths = api.openapi()["paths"]
    assert {"/v1/matches", "/v1/matches/{match_id}/prompt", "/v1/tournaments"} <= set(paths)
    protocol = api.bot_protocol()
    assert protocol["info"]["version"] == "1" and "/move" in protocol["paths"]


def test_url_with_or_without_v1(service_url):
    """The service root and its /v1 base are the same client."""
    assert Client(service_url + "/v1/").url == Client(service_url).url == service_url + "/v1"


def test_games_game_and_check(api):
    """The game list, a game's vocabulary, and the stateless check (legal and illegal)."""
    assert "gops" in [g["name"] for g in api.games()]
    gops = api.game("gops")
    assert {m["type"] for m in gops["moves"]} == {"bid", "keep", "give"}
    report = api.check("gops", players=2, seed=1, options={"cards": 3},
                       moves=[{"seat": 0, "move": {"type": "bid", "card": 3}}], view_seat=0)
    assert report["legal"] and report["applied"] == 1 and report["view"]["my_bid"] == 3
    assert [p["seat"] for p in report["pending"]] == [1]
    assert report["pending"][0]["legal_moves"] == [{"type": "bid", "card": c} for c in (1, 2, 3)]
    bad = api.check("gops", players=2, seed=1, options={"cards": 3},
                    candidate={"seat": 1, "move": {"type": "bid", "card": 7}})
    assert not bad["legal"] and bad["candidate"]["code"] == "move.illegal.bid.not_in_hand"


def test_positions_and_the_state_schema(api):
    """A check answers the position reached; a check and a session go on from it."""
    doc = api.state_schema("yunnan")
    assert doc["position"]["prefix"] == "yunnan:" and doc["schema"]["properties"]["seed"]
    first = api.check("yunnan", players=2, seed="7374513755567299596")
    decision = first["pending"][0]
    move = {"seat": decision["seat"], "move": decision["legal_moves"][0]}
    whole = api.check("yunnan", players=2, seed="7374513755567299596", moves=[move])
    after = api.check("yunnan", players=2, position=first["position"], moves=[move])
    assert after["legal"] and after["position"] == whole["position"]
    session = api.open_check_session("yunnan", players=2, position=first["position"])
    played = api.session_move(session, move["move"], seat=move["seat"])
    assert played["position"] == whole["position"]
    api.close_check_session(session)


def test_a_seat_plays_a_whole_match_against_builtin_bots(api):
    """create, match, matches, prompt, move (via Seat.play), log and its JSON Lines form."""
    created = api.create_match("gops", ["remote", "builtin:random", "builtin:random"],
                               options={"cards": 4}, seed=11)
    assert created["seed"] == "11" and list(created["tokens"]) == ["0"]
    seat = api.seat(created["id"], created["tokens"]["0"])
    assert seat.match()["you"] == 0
    final = seat.play(lambda prompt: random.Random(prompt["version"]).choice(
        prompt["legal_moves"]))
    assert final["status"] == "over" and final["result"]["termination"] == "rules"
    assert created["id"] in [m["id"] for m in api.matches(limit=100)["matches"]]
    assert api.matches(limit=1)["total"] >= 1
    log = seat.log()
    assert log["seed"] == "11" and len(log["moves"]) == final["version"]
    assert {m["seat"] for m in log["moves"]} == {0, 1, 2}
    lines = [json.loads(line) for line in api.log_jsonl(created["id"]).splitlines()]
    assert lines[0]["type"] == "match" and lines[-1]["type"] == "result"
    assert [entry["move"] for entry in lines[1:-1]] == [m["move"] for m in log["moves"]]


def test_prompt_long_poll_wakes_when_the_match_changes(api):
    """A seat waiting on prompt(wait=10) hears of another seat's move at once."""
    created = api.create_match("gops", ["remote", "remote"], options={"cards": 4}, seed=2)
    s0, s1 = (api.seat(created["id"], created["tokens"][k]) for k in ("0", "1"))
    s0.move({"type": "bid", "card": 4})
    s1.move({"type": "bid", "card": 1})  # seat 0 won the prize and must award it
    woke = {}

    def wait():
        started = time.monotonic()
        woke["prompt"], woke["after"] = s1.prompt(wait=10), time.monotonic() - started

    waiter = threading.Thread(target=wait)
    waiter.start()
    time.sleep(0.3)
    accepted = s0.move({"type": "keep"}, expected_version=2)
    waiter.join(10)
    assert accepted["version"] == 3
    assert 0.25 <= woke["after"] < 5
    assert woke["prompt"]["version"] == 3 and woke["prompt"]["must_act"]


def test_two_seats_played_at_once_by_threads(api):
    """Two Seat.play loops race on sealed bids; stale versions are asked again, not fatal."""
    created = api.create_match("gops", ["remote", "remote"], options={"cards": 6}, seed=5)
    seats = [api.seat(created["id"], created["tokens"][k]) for k in ("0", "1")]
    finals = [None, None]

    def play(i):
        finals[i] = seats[i].play(lambda prompt: prompt["legal_moves"][-1], wait=5)

    run_threads(play, [(0,), (1,)], timeout=30)
    assert [f["status"] for f in finals] == ["over", "over"]
    assert [f["you"] for f in finals] == [0, 1]


def test_bots_arena_tournaments_and_leaderboard(api, service_url, kit_bots):
    """register_bot, bots, bot, create_arena_match, tournaments (create, get, list, stop),
    and the leaderboard, with a bot-kit bot the worker threads call over HTTP."""
    from referee_client.botkit import register

    bot = kit_bots(lambda request: request["legal_moves"][0], name="first-move",
                   games=["gops"])
    record = register(bot, service_url, owner="tests")
    assert record["secret"] == bot.secret and record["games"] == ["gops"]
    assert [b["id"] for b in api.bots()] == [record["id"]] and "secret" not in api.bots()[0]
    assert api.bot(record["id"])["name"] == "first-move"

    match = api.create_arena_match("gops", [f"bot:{record['id']}", "builtin:random"],
                                   options={"cards": 3}, seed=4, limits={"move_ms": 2000})
    final = api.wait_for_match(match["id"], timeout=30)
    assert final["status"] == "over" and "failures" not in final["result"]
    assert bot.refused == []  # every request was signed with the secret it was given
    # read the board after one rated match: when two finish at once, Leaderboards.catch_up
    # can leave the later result unapplied until the next one (its lock holder had looked)
    board = _poll(lambda: api.leaderboard("gops"), lambda b: b["status"]["applied_through"] == 1)
    rows = {row["entrant"]: row for row in board["standings"]}
    assert set(rows) == {record["id"], "builtin:random"}
    assert rows[record["id"]]["name"] == "first-move" and rows[record["id"]]["matches"] == 1

    tour = api.create_tournament("gops", [record["id"], "builtin:random"], players=2,
                                 seeds_per_table=1, seed=9, options={"cards": 3})
    done = api.wait_for_tournament(tour["id"], timeout=60)
    assert done["status"] == "finished" and done["progress"]["finished"] == 2
    assert {row["entrant"]: row["matches"] for row in done["standings"]} == \
        {record["id"]: 2, "builtin:random": 2}
    assert tour["id"] in [t["id"] for t in api.tournaments()]
    assert api.tournament(tour["id"])["matches"] == done["matches"]

    ladder = api.create_tournament("gops", [record["id"], "builtin:random"], format="ladder",
                                   players=2, max_matches=1_000, options={"cards": 2},
                                   rated=False)
    stopped = api.stop_tournament(ladder["id"])
    assert stopped["status"] == "stopped" and stopped["finished_at"]


def _poll(fetch, done, timeout=20.0):
    deadline = time.monotonic() + timeout
    while not done(value := fetch()):
        assert time.monotonic() < deadline, value
        time.sleep(0.05)
    return value


def test_a_client_without_a_key_is_refused_and_with_one_acts_for_its_account(service_url, api):
    """Against a deployment (real Redis) a keyless client cannot create a match (AuthError
    auth.key_missing, 401); a player's key, from an organiser's create_account, acts for that
    account, and seats still act with their own tokens."""
    from referee_client import AuthError

    anonymous = Client(service_url, key="")  # "" sends no key, whatever $REFEREE_KEY says
    with pytest.raises(AuthError) as refused:
        anonymous.create_match("gops", ["remote", "remote"])
    assert (refused.value.code, refused.value.status) == ("auth.key_missing", 401)
    made = api.create_account("carol")
    carol = Client(service_url, key=made["key"])
    assert carol.me() == {k: made[k] for k in ("id", "name", "role", "created_at")}
    created = carol.create_match("gops", ["remote", "remote"])
    assert carol.prompt(created["id"], created["tokens"]["0"])["seat"] == 0
    with pytest.raises(AuthError) as not_organiser:
        carol.create_account("dave")
    assert not_organiser.value.code == "auth.organiser_only"
