"""Issue 11, attacks 1, 2 and 5 as an outsider would try them (each failed on the code before
the fix), the replay of an aborted rated match, and the seat-details hook."""

from __future__ import annotations

import re

import pytest

from referee.core.rng import MAX_SEED, Rng
from referee.service.seeds import commitment
from tests.api.helpers import wait_until
from tests.arena.helpers import register
from tests.arena.trust import Gate, make_bot
from tests.support.bots import BotServer
from tests.conftest import account_client

ILLEGAL_CARD = re.compile(r"(?<![\w.])999(?![\w.])")
"""The illegal bot's card (999) as a JSON number of its own: not the digits inside a random
bot id, a timestamp or a latency (a clean-clone run failed on the id b999ea1a97248)."""


@pytest.fixture
def started():
    """Bot servers the test starts, stopped afterwards."""
    bots: list[BotServer] = []
    yield bots
    for bot in bots:
        try:
            bot.stop()
        except OSError:
            pass


def _candidate_seeds(client, tour: dict, from_record: bool = True) -> set:
    """Every seed an outsider can get at: the tournament's (its match seeds derive from it
    through the public Rng; `from_record`) and any match log's or match's published seed (a
    finished rotation shares its seed with the running ones)."""
    seeds = set()
    if from_record and tour.get("seed") is not None:
        rng = Rng(tour["seed"], "tournament-seeds")
        seeds |= {rng.below(MAX_SEED) for _ in range(tour["seeds_per_table"])}
    for match_id in tour["matches"]:
        log = client.get(f"/v1/matches/{match_id}/log").json
        match = client.get(f"/v1/matches/{match_id}").json
        for seed in (log.get("seed"), (match.get("seed_commitment") or {}).get("seed")):
            if seed is not None:
                seeds.add(seed)
    return seeds


def _rebuilt(client, game: str, log: dict, request: dict, seeds) -> bool:
    """Whether the check endpoint, fed a candidate seed and the public log up to the held
    request, gives exactly the private view that seat was sent."""
    entries = log["moves"][:request["version"]]
    if any(e.get("hidden") for e in entries):
        return False
    moves = [{"seat": e["seat"], "move": e["move"]} for e in entries]
    for seed in seeds:
        r = client.post(f"/v1/games/{game}/check", json={
            "players": log["players"], "options": log["options"], "seed": seed,
            "moves": moves, "view_seat": request["seat"]})
        if r.status_code == 200 and r.json["view"] == request["view"]:
            return True
    return False


def test_attack_1_a_running_tournament_gives_no_way_to_a_seats_private_view(client, started):
    """From the tournament record and the public logs (a finished rotation's included), the
    check endpoint cannot rebuild the held seat's view while the event runs; after it, the
    revealed seed does rebuild it and matches the commitment published at creation."""
    gate = Gate(seat=1)
    a = make_bot(started, gate, ["dschunke"])
    others = [make_bot(started, "good", ["dschunke"]) for _ in range(2)]
    ids = [register(client, bot, games=["dschunke"]) for bot in (a, *others)]
    tour = client.post("/v1/tournaments", json={
        "game": "dschunke", "entrants": ids, "players": 3, "seeds_per_table": 1,
        "limits": {"move_ms": 10_000, "bank_ms": 100_000}}).json
    try:
        # two rotations finish; in the third the gated bot holds seat 1's move
        wait_until(lambda: gate.held, timeout=60)
        held = gate.held[0]
        target = held["match"]
        wait_until(lambda: sum(client.get(f"/v1/matches/{m}").json["status"] == "over"
                               for m in tour["matches"]) == 2, timeout=120)
        running = client.get(f"/v1/tournaments/{tour['id']}").json
        assert running["status"] == "running"
        log = client.get(f"/v1/matches/{target}/log").json
        assert log["status"] == "active"
        twins = _candidate_seeds(client, running, from_record=False)
        assert not _rebuilt(client, "dschunke", log, held, twins)  # path 2: a finished twin
        seeds = _candidate_seeds(client, running)
        assert not _rebuilt(client, "dschunke", log, held, seeds)  # path 1: the record
        assert seeds == set() and running["seed"] is None
        published = {m: client.get(f"/v1/matches/{m}").json["seed_commitment"]["commitment"]
                     for m in running["matches"]}
    finally:
        gate.open()
    done = wait_until(lambda: (t := client.get(f"/v1/tournaments/{tour['id']}").json)
                      ["status"] == "finished" and t, timeout=180)
    log = client.get(f"/v1/matches/{target}/log").json
    revealed = log["seed_commitment"]
    assert revealed["revealed"] and revealed["seed"] == log["seed"]
    assert _rebuilt(client, "dschunke", log, held, {log["seed"]})  # the attack was real
    for match_id in done["matches"]:
        record = client.get(f"/v1/matches/{match_id}").json["seed_commitment"]
        assert record["commitment"] == published[match_id]
        assert commitment(record["seed"], record["salt"]) == published[match_id]


def test_attack_2_an_illegal_moves_message_stays_with_its_seat_while_the_match_runs(
        client, started):
    """The rules' message about a bot's illegal move names its hand; strangers see the
    failure's code only (log, match, bot health) until the match is over."""
    gate = Gate(seat=1)
    bad = make_bot(started, "illegal", ["gops"])
    held = make_bot(started, gate, ["gops"])
    bad_id, held_id = register(client, bad), register(client, held)
    body = client.post("/v1/arena/matches", json={
        "game": "gops", "seats": [f"bot:{bad_id}", f"bot:{held_id}"], "options": {"cards": 4},
        "limits": {"move_ms": 10_000, "bank_ms": 100_000, "strikes": 1}}).json
    match_id = body["id"]
    try:
        wait_until(lambda: any(m.get("failure") for m in
                               client.get(f"/v1/matches/{match_id}/log").json["moves"]),
                   timeout=30)
        wait_until(lambda: gate.held, timeout=30)
        arena = client.application.extensions["referee"].extensions["arena"]
        private = arena.bots.private(bad_id)["last_error"]
        message = private["error"]["message"]
        assert "is not in your hand" in message  # what the attack read
        stranger = client.application.test_client()  # no key: reads are open to anyone
        seen = [stranger.get(f"/v1/matches/{match_id}/log").get_data(as_text=True),
                stranger.get(f"/v1/matches/{match_id}/log?format=jsonl").get_data(as_text=True),
                stranger.get(f"/v1/matches/{match_id}").get_data(as_text=True),
                stranger.get(f"/v1/bots/{bad_id}").get_data(as_text=True),
                stranger.get("/v1/bots").get_data(as_text=True)]
        assert client.get(f"/v1/matches/{match_id}").json["status"] == "active"
        for text in seen:
            assert message not in text and not ILLEGAL_CARD.search(text)
        failure = next(m["failure"] for m in stranger.get(f"/v1/matches/{match_id}/log").json
                       ["moves"] if m.get("failure"))
        assert failure == {"code": "bot.illegal_move"}
        other, _ = account_client(client.application, "another player")
        failure = next(m["failure"] for m in other.get(f"/v1/matches/{match_id}/log").json
                       ["moves"] if m.get("failure"))
        assert failure == {"code": "bot.illegal_move"}
        # the bot's owner (the account that registered it) sees the details while it runs
        owned = next(m["failure"] for m in client.get(f"/v1/matches/{match_id}/log").json
                     ["moves"] if m.get("failure"))
        assert owned["error"]["message"] == message and owned["move"]["card"] == 999
        last = stranger.get(f"/v1/bots/{bad_id}").json["health"]["last_error"]
        assert set(last) == {"code", "match", "version", "at", "log"}
    finally:
        gate.open()
    wait_until(lambda: client.get(f"/v1/matches/{match_id}").json["status"] == "over",
               timeout=60)
    after = client.get(f"/v1/matches/{match_id}/log").json
    failure = next(m["failure"] for m in after["moves"] if m.get("failure"))
    assert failure["error"]["message"] == message and failure["move"]["card"] == 999


def test_attack_5_a_slow_rated_match_does_not_freeze_later_results(client, started):
    """A rated match held past the deadline no longer holds back a later one's result; its
    own result is applied when it arrives, marked late, and the table folds again exactly."""
    arena = client.application.extensions["referee"].extensions["arena"]
    arena.leaderboards.deadline_s = 0.5
    gate = Gate(seat=0)
    slow, fast = make_bot(started, gate, ["gops"]), make_bot(started, "good", ["gops"])
    slow_id, fast_id = register(client, slow), register(client, fast)
    limits = {"move_ms": 10_000, "bank_ms": 100_000}
    first = client.post("/v1/arena/matches", json={
        "game": "gops", "seats": [f"bot:{slow_id}", "builtin:random"], "options": {"cards": 3},
        "limits": limits}).json
    try:
        wait_until(lambda: gate.held, timeout=30)
        second = client.post("/v1/arena/matches", json={
            "game": "gops", "seats": [f"bot:{fast_id}", "builtin:random"],
            "options": {"cards": 3}, "limits": limits}).json
        wait_until(lambda: client.get(f"/v1/matches/{second['id']}").json["status"] == "over",
                   timeout=30)
        board = wait_until(lambda: (b := client.get("/v1/leaderboards/gops").json)
                           ["status"]["applied_through"] >= 2 and b, timeout=10)
        assert client.get(f"/v1/matches/{first['id']}").json["status"] == "active"
        assert {r["entrant"] for r in board["standings"]} == {fast_id, "builtin:random"}
        assert board["status"]["late"] == 1
    finally:
        gate.open()
    wait_until(lambda: client.get(f"/v1/matches/{first['id']}").json["status"] == "over",
               timeout=30)
    board = wait_until(lambda: (b := client.get("/v1/leaderboards/gops").json)
                       ["status"]["late"] == 0 and b, timeout=10)
    assert slow_id in {r["entrant"] for r in board["standings"]}
    applied = arena.leaderboards.applied_results("gops")
    assert [r["match"] for r in applied] == [second["id"], first["id"]]
    assert applied[1]["late"] is True and "late" not in applied[0]
    assert arena.leaderboards.recompute("gops") == arena.leaderboards.table("gops")


def test_rated_matches_keep_their_limits_under_the_ceilings(client):
    """A rated match cannot ask for the schema's two minutes a move (limits.invalid); an
    unrated one still can."""
    from arena.limits import resolve

    r = client.post("/v1/arena/matches", json={
        "game": "gops", "seats": ["builtin:random", "remote"], "rated": True,
        "limits": {"move_ms": 120_000}})
    assert r.status_code == 422 and r.json["code"] == "limits.invalid"
    with pytest.raises(Exception, match="rated match allows bank_ms"):
        resolve({"bank_ms": 3_600_000}, rated=True)
    assert resolve({"bank_ms": 3_600_000})["bank_ms"] == 3_600_000
    unrated = client.post("/v1/arena/matches", json={
        "game": "gops", "seats": ["builtin:random", "remote"], "rated": False,
        "limits": {"move_ms": 120_000}})
    assert unrated.status_code == 201


def test_the_commitment_formula_is_the_documented_one():
    """sha256 of the decimal seed, a colon and the salt: anyone can recompute it, and a wrong
    seed or salt does not verify."""
    import hashlib

    from referee.service.seeds import FORMULA, new_salt, verify

    salt = new_salt()
    assert len(salt) == 32 and int(salt, 16) >= 0
    published = hashlib.sha256(f"12345:{salt}".encode("ascii")).hexdigest()
    assert commitment(12345, salt) == published and verify(published, 12345, salt)
    assert not verify(published, 12346, salt) and not verify(published, 12345, new_salt())
    assert FORMULA == ('lowercase hex SHA-256 of the ASCII bytes of seed + ":" + salt '
                       '(seed: its decimal digits)')
