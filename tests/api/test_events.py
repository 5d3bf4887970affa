"""Live events (GET /v1/matches/{id}/events) and held waits, over `referee serve` on the
embedded default, read by a real HTTP client (issue 12)."""

from __future__ import annotations

import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

from referee.core import engine
from referee.games import GAMES
from tests.support.http import serve_embedded, stop_process
from tests.support.threads import join_threads, start_threads


@pytest.fixture(scope="module")
def base():
    """The embedded default with a 1 s heartbeat (so a test sees one quickly), and room for
    60 waits from one seat (the caps have a test of their own)."""
    proc, url = serve_embedded(REFEREE_HEARTBEAT="1", REFEREE_WAITS_PER_CALLER="64")
    yield url
    stop_process(proc)


@pytest.fixture(scope="module")
def capped():
    """The embedded default holding at most 3 waits, 2 per caller."""
    proc, url = serve_embedded(REFEREE_HEARTBEAT="1", REFEREE_MAX_WAITS="3",
                       REFEREE_WAITS_PER_CALLER="2")
    yield url
    stop_process(proc)


def _auth(token):
    return {"Authorization": f"Bearer {token}"}


def _create(base, seats, seed=None, game="dschunke"):
    body = {"game": game, "seats": seats, **({"seed": seed} if seed is not None else {})}
    response = requests.post(f"{base}/v1/matches", json=body, timeout=10)
    assert response.status_code == 201, response.text
    return response.json()


def _read_events(response, comments=False):
    """The SSE messages of a streamed response, as dicts of their fields (until it ends)."""
    message = {}
    for line in response.iter_lines(chunk_size=None, decode_unicode=True):
        if line == "":
            if "event" in message:   # not the `retry:` advice
                yield message
            message = {}
        elif line.startswith(":"):
            if comments:
                yield {"comment": line[1:].strip()}
        else:
            name, _, value = line.partition(":")
            message[name] = value[1:] if value.startswith(" ") else value


def _collect(url, headers=None, into=None, first=None):
    """Read a whole stream (to its `over`) into a list of (event, id, data); `first` (an
    Event) is set when the first event is in."""
    into = [] if into is None else into
    with requests.get(url, headers=headers or {}, stream=True, timeout=(5, 60)) as response:
        assert response.status_code == 200, response.text
        assert response.headers["Content-Type"].startswith("text/event-stream")
        for message in _read_events(response):
            into.append((message["event"], int(message["id"]), json.loads(message["data"])))
            if first is not None:
                first.set()
    return into


def _play_seat(base, match_id, token):
    """Play one remote seat with the first legal move until the match ends."""
    while True:
        prompt = requests.get(f"{base}/v1/matches/{match_id}/prompt?wait=5",
                              headers=_auth(token), timeout=10).json()
        if prompt["status"] != "active":
            return
        if prompt["must_act"]:
            r = requests.post(f"{base}/v1/matches/{match_id}/moves", headers=_auth(token),
                              json={"move": prompt["legal_moves"][0],
                                    "expected_version": prompt["version"]}, timeout=10)
            assert r.status_code in (200, 409), r.text


def _over(base, match_id):
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        match = requests.get(f"{base}/v1/matches/{match_id}", timeout=10).json()
        if match["status"] != "active":
            return match
        time.sleep(0.05)
    raise AssertionError("the match did not end")


def test_spectator_and_seat_follow_every_version_and_only_the_seat_sees_its_hand(base):
    """Builtin bots and a remote seat play Dschunke: the spectator's stream and seat 0's
    stream each get one event per version, ending with `over`; every event is the summary
    as that viewer may see it (rebuilt versions included: each view matches a replay of the
    log); seat 0 sees its own hand, the spectator sees no hand."""
    created = _create(base, ["remote", "builtin:random", "builtin:random"], seed=11)
    match_id, token = created["id"], created["tokens"]["0"]
    url = f"{base}/v1/matches/{match_id}/events"
    spectator, seat, opened = [], [], [threading.Event(), threading.Event()]
    readers = start_threads(_collect, [(url, None, spectator, opened[0]),
                                       (url, _auth(token), seat, opened[1])])
    assert all(o.wait(15) for o in opened)   # both streams open while seat 0 is to act
    _play_seat(base, match_id, token)
    join_threads(readers, 60)
    final = _over(base, match_id)
    log = requests.get(f"{base}/v1/matches/{match_id}/log", timeout=10).json()
    game = GAMES.get("dschunke")
    _, state = engine.start(game, 3, log["options"], log["seed"])
    states = [state]
    for move in log["moves"]:
        states.append(game.apply(states[-1], move["seat"], move["move"]))
    for events, viewer in ((spectator, None), (seat, 0)):
        versions = [v for kind, v, _ in events if kind == "version"]
        assert versions == list(range(0, final["version"] + 1)) and len(versions) > 20
        assert events[-1][0] == "over" and events[-1][2]["result"] == final["result"]
        for kind, version, data in events[:-1]:
            assert data["version"] == version and data["you"] == viewer
            assert data["view"] == json.loads(json.dumps(game.view(states[version], viewer)))
    hands = lambda data: [s["hand"] for s in data["view"]["seats"]]  # noqa: E731
    running = lambda events: [d for _, _, d in events[:-1] if d["status"] == "active"]  # noqa
    assert len(running(spectator)) == len(spectator) - 2    # the last version ends the match
    assert all(h is None for d in running(spectator) for h in hands(d))
    assert all(hands(d)[0] is not None and hands(d)[1] is None for d in running(seat))
    now = requests.get(f"{base}/v1/matches/{match_id}", timeout=10).json()
    # the seed is revealed just after the last commit (when its seed group is marked ended),
    # so the last version's event may predate the reveal; the commitment itself never changes
    last = spectator[-2][2]
    assert last["seed_commitment"]["commitment"] == now["seed_commitment"]["commitment"]
    assert {k: v for k, v in last.items() if k != "seed_commitment"} == \
        {k: v for k, v in now.items() if k != "seed_commitment"}


def test_resume_with_last_event_id_sends_only_later_versions(base):
    """Last-Event-ID: the next version as it was; a longer gap gives each missed version in
    order (tests/api/test_event_replay.py has the views); at the end, only `over`; live,
    nothing at or before it."""
    created = _create(base, ["builtin:random"] * 3, seed=5)
    final = _over(base, created["id"])["version"]
    url = f"{base}/v1/matches/{created['id']}/events"
    resumed = _collect(url, {"Last-Event-ID": str(final - 1)})
    assert [(k, v) for k, v, _ in resumed] == [("version", final), ("over", final)]
    assert [(k, v) for k, v, _ in _collect(url, {"Last-Event-ID": str(final - 7)})] == \
        [("version", v) for v in range(final - 6, final + 1)] + [("over", final)]
    assert [k for k, _, _ in _collect(url, {"Last-Event-ID": str(final)})] == ["over"]

    created = _create(base, ["remote", "builtin:random", "builtin:random"], seed=12)
    match_id, token = created["id"], created["tokens"]["0"]
    url = f"{base}/v1/matches/{match_id}/events"
    with requests.get(url, stream=True, timeout=(5, 30)) as response:
        first = int(next(_read_events(response))["id"])
    prompt = requests.get(f"{base}/v1/matches/{match_id}/prompt", headers=_auth(token),
                          timeout=10).json()
    requests.post(f"{base}/v1/matches/{match_id}/moves", headers=_auth(token),
                  json={"move": prompt["legal_moves"][0]}, timeout=10).raise_for_status()
    with requests.get(url, headers={"Last-Event-ID": str(first)}, stream=True,
                      timeout=(5, 30)) as response:
        later = int(next(_read_events(response))["id"])
    assert later > first
    bad = requests.get(url, headers={"Last-Event-ID": "x1"}, timeout=10)
    assert bad.status_code == 400 and bad.json()["code"] == "request.invalid"


def test_a_ticket_opens_the_seat_stream_without_the_token_in_the_url(base):
    """POST …/events/ticket (seat token) gives a ticket; ?ticket= opens that seat's stream;
    a forged, foreign or missing credential does not."""
    created = _create(base, ["remote", "remote", "builtin:random"], seed=3)
    match_id, token = created["id"], created["tokens"]["1"]
    answer = requests.post(f"{base}/v1/matches/{match_id}/events/ticket", headers=_auth(token),
                           timeout=10)
    assert answer.status_code == 201, answer.text
    ticket = answer.json()["ticket"]
    assert token not in ticket and answer.json()["expires_in"] == 60
    url = f"{base}/v1/matches/{match_id}/events"
    with requests.get(url, params={"ticket": ticket}, stream=True, timeout=(5, 30)) as response:
        data = json.loads(next(_read_events(response))["data"])
    assert data["you"] == 1 and data["view"]["seats"][1]["hand"] is not None
    assert data["view"]["seats"][0]["hand"] is None
    forged = ticket[:-4] + ("AAAA" if not ticket.endswith("AAAA") else "BBBB")
    other = _create(base, ["remote", "remote", "remote"])["id"]
    for url_, params in ((url, {"ticket": forged}), (f"{base}/v1/matches/{other}/events",
                                                       {"ticket": ticket})):
        refused = requests.get(url_, params=params, timeout=10)
        assert refused.status_code == 403 and refused.json()["code"] == "auth.ticket_invalid"
    assert requests.post(f"{base}/v1/matches/{match_id}/events/ticket",
                         timeout=10).json()["code"] == "auth.token_missing"
    refused = requests.get(url, headers=_auth("st_not-a-token"), timeout=10)
    assert refused.status_code == 403 and refused.json()["code"] == "auth.token_invalid"


def test_an_idle_stream_gets_heartbeats(base):
    """While nobody moves, the stream sends comments (every REFEREE_HEARTBEAT s)."""
    match_id = _create(base, ["remote", "remote", "remote"])["id"]
    with requests.get(f"{base}/v1/matches/{match_id}/events", stream=True,
                      timeout=(5, 30)) as response:
        seen = []
        for message in _read_events(response, comments=True):
            seen.append(message)
            if len([m for m in seen if "comment" in m]) == 2:
                break
    assert seen[0]["event"] == "version" and seen[1] == seen[2] == {"comment": "keep-alive"}


def test_sixty_held_long_polls_all_answer_when_the_match_changes(base):
    """60 held GET /prompt?wait= on one match on the embedded default (the two seats not to
    act, 30 each): when the match changes, all 60 answer 200 with the new version (10
    answered 500 MaxConnectionsError: each waiter held a pub/sub connection and took a
    second one from the pool of 100 to read the match)."""
    created = _create(base, ["remote", "remote", "remote"], seed=11)   # seat 0 starts
    match_id, tokens = created["id"], created["tokens"]
    polls = [tokens[str(1 + i % 2)] for i in range(60)]

    def poll(token):
        return requests.get(f"{base}/v1/matches/{match_id}/prompt?wait=20",
                            headers=_auth(token), timeout=30)

    with ThreadPoolExecutor(len(polls)) as pool:
        futures = [pool.submit(poll, p) for p in polls]
        time.sleep(1.5)   # all held
        assert not any(f.done() for f in futures)
        prompt = requests.get(f"{base}/v1/matches/{match_id}/prompt", headers=_auth(tokens["0"]),
                              timeout=10).json()
        requests.post(f"{base}/v1/matches/{match_id}/moves", headers=_auth(tokens["0"]),
                      json={"move": prompt["legal_moves"][0]}, timeout=10).raise_for_status()
        answers = [f.result() for f in futures]
    assert [a.status_code for a in answers] == [200] * 60
    assert {a.json()["version"] for a in answers} == {1}


def test_wait_caps_answer_their_coded_problems_and_free_their_slots(capped):
    """3 waits per process, 2 per caller: a caller's third is 429 wait.too_many, the
    process's fourth 503 wait.capacity, both with Retry-After; closed streams free theirs."""
    created = _create(capped, ["remote", "remote", "remote"], seed=11)   # seat 0 starts
    match_id, tokens = created["id"], created["tokens"]
    prompt = f"{capped}/v1/matches/{match_id}/prompt?wait=20"
    events = f"{capped}/v1/matches/{match_id}/events"
    with ThreadPoolExecutor(4) as pool:
        # three at once from one token: whichever comes last is refused, two stay held
        polls = [pool.submit(requests.get, prompt, headers=_auth(tokens["1"]), timeout=30)
                 for _ in range(3)]
        deadline = time.monotonic() + 15
        while not any(p.done() for p in polls) and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.2)
        third = [p for p in polls if p.done()]
        held = [p for p in polls if not p.done()]
        assert len(third) == 1 and len(held) == 2
        third = third[0].result()
        assert third.status_code == 429 and third.json()["code"] == "wait.too_many"
        assert third.headers["Retry-After"].isdigit()
        assert third.headers["Content-Type"].startswith("application/problem+json")
        stream = requests.get(events, stream=True, timeout=(5, 30))   # the process's third
        assert stream.status_code == 200
        full = requests.get(prompt, headers=_auth(tokens["2"]), timeout=10)
        assert full.status_code == 503 and full.json()["code"] == "wait.capacity"
        assert full.headers["Retry-After"].isdigit()
        first = requests.get(f"{capped}/v1/matches/{match_id}/prompt", headers=_auth(tokens["0"]),
                             timeout=10).json()
        requests.post(f"{capped}/v1/matches/{match_id}/moves", headers=_auth(tokens["0"]),
                      json={"move": first["legal_moves"][0]}, timeout=10).raise_for_status()
        assert [h.result().status_code for h in held] == [200, 200]
    stream.close()   # the server notices at its next heartbeat and frees the slot
    deadline = time.monotonic() + 20
    while True:
        with ThreadPoolExecutor(3) as pool:
            opened = [pool.submit(requests.get, events, stream=True, timeout=(5, 30))
                      for _ in range(2)]
            answers = [o.result() for o in opened]
        codes = sorted(a.status_code for a in answers)
        for a in answers:
            a.close()
        if codes == [200, 200] or time.monotonic() > deadline:
            break
        # a probe's own streams hold their slots too until a heartbeat (1 s here; a write
        # to a closed connection may fail only at the second) finds them closed: probing
        # again sooner can meet them, as a loaded machine did once with 0.5 s
        time.sleep(2.5)
    assert codes == [200, 200]


def test_the_stream_is_documented_with_who_may_call_it(base):
    """OpenAPI: the stream answers text/event-stream, to anyone or a seat (token or ticket),
    with its coded refusals; the ticket route needs the seat token."""
    spec = requests.get(f"{base}/v1/openapi.json", timeout=10).json()
    stream = spec["paths"]["/v1/matches/{match_id}/events"]["get"]
    assert "text/event-stream" in stream["responses"]["200"]["content"]
    assert {"429", "503", "403", "404"} <= set(stream["responses"])
    assert stream["security"] == [{}, {"seatToken": []}]
    assert {p["name"] for p in stream["parameters"]} >= {"Last-Event-ID", "ticket"}
    assert "Anyone" in stream["description"]
    ticket = spec["paths"]["/v1/matches/{match_id}/events/ticket"]["post"]
    assert ticket["security"] == [{"seatToken": []}]
    codes = requests.get(f"{base}/v1/problems", timeout=10).text
    assert all(c in codes for c in ("wait.too_many", "wait.capacity", "auth.ticket_invalid"))
