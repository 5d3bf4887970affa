"""Issue 11, the leak test: while a tournament runs, nothing a stranger can read is enough to
rebuild a seat's view (no seed, salt or failure detail in any answer, no view or move of any
match sharing a running match's seed, and the check endpoint fed every large number seen
rebuilds nothing); after it, everything is shown and every seed matches its commitment."""

from __future__ import annotations

import json

import pytest

from referee.games import GAMES
from referee.service.seeds import commitment
from tests.api.helpers import wait_until
from tests.arena.helpers import register
from tests.arena.trust import Gate, IllegalFirst, ints_in, make_bot, stranger_get_urls


@pytest.fixture
def started():
    """Bot servers the test starts, stopped afterwards."""
    bots = []
    yield bots
    for bot in bots:
        try:
            bot.stop()
        except OSError:
            pass


def _marker(request: dict) -> dict:
    """An illegal move naming its match, so its details can be looked for in every answer."""
    return {"type": f"leak-marker-{request['match']}"}


def _stranger_reads(client, app, game: str, tour: dict, bot_ids: list) -> list[tuple]:
    """(url, status, text) of every GET a stranger can make, plus list and jsonl variants."""
    ids = {"game": [g.spec.name for g in GAMES], "match_id": tour["matches"],
           "bot_id": bot_ids, "tid": [tour["id"]], "step": [0, 6],   # step: replay frames
           "session_id": ["cs-of-nobody"],   # a stranger has no session of the match's
           "name": ["bots", "security"],     # the docs pages: nothing of any match
           "perspective": ["spectator", "all", "seat0", "seat1"]}   # replay frames: 409 now
    urls = stranger_get_urls(app, ids)
    urls += ["/v1/matches?limit=100"] + \
        [f"/v1/matches/{m}/log?format=jsonl" for m in tour["matches"]]
    reads = []
    for url in urls:
        if url.endswith("/events"):  # a stream never ends while the match runs: its first event
            reads.append((url, *_first_event(client, url)))
            continue
        r = client.get(url)
        reads.append((url, r.status_code, r.get_data(as_text=True)))
    return reads


def _first_event(client, url: str) -> tuple[int, str]:
    """The status and the first event of an event stream (the current state, as the stream
    shows it to this caller), read without waiting for the stream's end."""
    response = client.get(url, buffered=False)
    text = ""
    try:
        for chunk in response.response:
            text += chunk.decode() if isinstance(chunk, bytes) else chunk
            if "\n\n" in text and "data:" in text:
                break
    finally:
        response.close()
    return response.status_code, text


def _large_numbers(reads) -> set:
    found = set()
    for _url, _status, text in reads:
        for line in text.splitlines() or [text]:  # JSON, or JSON Lines
            try:
                found |= {n for n in ints_in(json.loads(line)) if n >= 2**32}
            except ValueError:
                continue
    return found


@pytest.mark.parametrize("game", [g.spec.name for g in GAMES])
def test_a_running_tournament_leaks_no_seed_and_no_failure_detail(client, app, started, game):
    spec = next(g for g in GAMES if g.spec.name == game).spec
    players = spec.min_players
    gate = Gate(seat=1, from_version=6 * players)  # every seat has moved by then
    bots = [make_bot(started, gate, [game]), make_bot(started, IllegalFirst(_marker), [game])]
    bots += [make_bot(started, "good", [game]) for _ in range(players - 2)]
    bot_ids = [register(client, bot, games=[game]) for bot in bots]
    tour = client.post("/v1/tournaments", json={
        "game": game, "entrants": bot_ids, "players": players, "seeds_per_table": 1,
        "limits": {"move_ms": 10_000, "bank_ms": 100_000, "strikes": 1}}).json
    service = app.extensions["referee"]
    metas = {m: service.store.meta(m) for m in tour["matches"]}
    try:
        wait_until(lambda: gate.held, timeout=60)
        held = gate.held[0]
        wait_until(lambda: sum(client.get(f"/v1/matches/{m}").json["status"] == "over"
                               for m in tour["matches"]) == len(tour["matches"]) - 1,
                   timeout=240)
        running = [m for m in tour["matches"]
                   if client.get(f"/v1/matches/{m}").json["status"] == "active"]
        assert running == [held["match"]]
        wait_until(lambda: any(e.get("failure") for e in service.store.log(held["match"])),
                   timeout=30)
        stranger = app.test_client()  # no key: what anyone may read (the client owns the bots)
        reads = _stranger_reads(stranger, app, game, tour, bot_ids)
        secrets_ = {str(meta.seed) for meta in metas.values()} | \
            {getattr(meta, "seed_salt", "") for meta in metas.values()} - {""}
        # a finished twin tells as much as a running one: failure details of every match
        details = {f"leak-marker-{m}" for m in tour["matches"]}
        for match_id in tour["matches"]:
            for entry in service.store.log(match_id):
                if entry.get("failure", {}).get("error"):
                    details.add(entry["failure"]["error"]["message"])
        assert len(details) > len(tour["matches"]), "no failure detail to look for"
        # nor does a bot get a finished twin's final view (/end) while a twin runs
        assert not any(path == "/end" for bot in bots for path in bot.paths())
        for match_id in tour["matches"]:  # no view, no move of any twin
            assert client.get(f"/v1/matches/{match_id}").json["view"] is None
            assert all(e["move"] is None and e["hidden"] for e in
                       client.get(f"/v1/matches/{match_id}/log").json["moves"])
        for url, _status, text in reads:
            for secret in secrets_ | details:
                assert secret not in text, (url, secret)
            if url.startswith("/v1/tournaments"):  # the event's own seed is none of theirs
                body = json.loads(text)
                for record in body.get("tournaments", [body]):
                    assert record.get("seed") is None, url
        # the check endpoint, fed every large number a stranger saw, rebuilds no view
        log = client.get(f"/v1/matches/{held['match']}/log").json
        moves = [{"seat": e["seat"], "move": e["move"]} for e in log["moves"][:held["version"]]]
        for number in sorted(_large_numbers(reads))[:40]:
            r = client.post(f"/v1/games/{game}/check", json={
                "players": players, "options": log["options"], "seed": number % 2**63,
                "moves": moves, "view_seat": held["seat"]})
            assert r.status_code != 200 or r.json["view"] != held["view"], number
        published = {m: client.get(f"/v1/matches/{m}").json["seed_commitment"]["commitment"]
                     for m in tour["matches"]}
        assert all(published.values())
    finally:
        gate.open()
    wait_until(lambda: client.get(f"/v1/tournaments/{tour['id']}").json["status"]
               == "finished", timeout=240)
    for match_id, meta in metas.items():
        log = client.get(f"/v1/matches/{match_id}/log").json
        assert client.get(f"/v1/matches/{match_id}").json["view"] is not None
        assert not any(e.get("hidden") for e in log["moves"])
        assert any(e.get("failure", {}).get("error") for e in log["moves"])
        record = log["seed_commitment"]
        assert record["revealed"] and record["seed"] == str(meta.seed)
        assert commitment(record["seed"], record["salt"]) == published[match_id]
    assert client.get(f"/v1/tournaments/{tour['id']}").json["seed"] is None  # none was given
    wait_until(lambda: all(bot.paths().count("/end") == len(tour["matches"]) for bot in bots),
               timeout=30)
