"""The starter bots in Go, TypeScript and Java as real processes: each one's own unit tests
(the shared signature vectors), then built, registered with a real service, refusing forged
requests on its socket, and playing an arena match of every game against builtin:random."""

from __future__ import annotations

import concurrent.futures
import fcntl
import http.client
import json
import subprocess
import sys
import time
from urllib.parse import urlsplit

import pytest

from referee.games import GAMES
from referee_client.signing import sign
from tests.clients.starters import STARTERS, VECTORS
from tests.clients.support import END_REQUEST, MOVE_REQUEST, START_REQUEST, LineReader
from tests.support.http import local_client, start_process

GAME_NAMES = GAMES.names()
BODY = json.dumps(MOVE_REQUEST).encode()


@pytest.fixture(scope="module")
def cache(request):
    """Build products kept between runs (pytest's cache folder)."""
    return request.config.cache.mkdir("starters")


@pytest.fixture(scope="module", params=sorted(STARTERS))
def starter(request, cache, shared_service_url, tmp_path_factory):
    """One starter: unit-tested, built, serving on a free loopback port, registered for
    every game; (language, unit test output, bot id, secret, url, reader)."""
    language = request.param
    # one preparation of a cache at a time, should two processes share it
    with open(cache / f"{language}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        kit = STARTERS[language](cache)
        command = kit.build()
    unit_output = kit.unit_tests()
    secret_file = tmp_path_factory.mktemp(f"starter-{language}") / "bot.secret"
    reader = LineReader(start_process(command + [
        "--port", "0", "--name", f"{language}-starter", "--games", ",".join(GAME_NAMES),
        "--secret-file", str(secret_file), "--register", shared_service_url]))
    try:
        url = reader.wait_for(r"serving (http://\S+)").group(1)
        bot_id = reader.wait_for(r"registered bot (\S+)").group(1)
        yield language, unit_output, bot_id, secret_file.read_text().strip(), url, reader, command
    finally:
        reader.stop()


def test_unit_tests_check_the_shared_vectors(starter):
    """The starter's own test ran every vector of the shared file (it says how many)."""
    _, output, *_ = starter
    count = len(json.loads(VECTORS.read_text())["vectors"])
    assert f"checked {count} signature vectors from signature-vectors.json" in output, output


def test_the_starter_refuses_forged_requests_on_one_connection(starter):
    """GET / is unsigned; a signed /move is answered with a legal move; unsigned, wrong-secret,
    stale and replayed requests get 401: all on one kept-alive HTTP/1.1 connection."""
    _, _, _, secret, url, _, _ = starter
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=5)

    def ask(method, path, body=None, headers=None):
        conn.request(method, path, body=body, headers={"Content-Type": "application/json",
                                                       **(headers or {})})
        response = conn.getresponse()
        assert response.version == 11 and response.getheader("Content-Length") is not None
        return response.status, json.loads(response.read() or b"{}")

    conn.connect()
    sock = conn.sock
    status, info = ask("GET", "/")
    assert status == 200 and info["apiversion"] == "1" and set(info["games"]) == set(GAME_NAMES)
    good = sign(secret, BODY)
    assert ask("POST", "/move", BODY, good) == (200, {"move": MOVE_REQUEST["legal_moves"][0]})
    assert ask("POST", "/move", BODY, good)[0] == 401                       # replayed nonce
    assert ask("POST", "/move", BODY)[0] == 401                             # unsigned
    assert ask("POST", "/move", BODY, sign("wrong", BODY))[0] == 401        # bad signature
    assert ask("POST", "/move", BODY, sign(secret, BODY, now=time.time() - 3600))[0] == 401
    start = json.dumps(START_REQUEST).encode()   # a real /start: match is the id string
    assert ask("POST", "/start", start, sign(secret, start)) == (200, {})
    end = json.dumps(END_REQUEST).encode()
    assert ask("POST", "/end", end, sign(secret, end)) == (200, {})
    assert ask("POST", "/nowhere", b"{}", sign(secret, b"{}"))[0] == 404
    assert conn.sock is sock  # no answer closed the connection


def test_the_starter_plays_every_game(starter, shared_service_url):
    """An arena match of each game (smallest table) against builtin:random, all at once:
    each ended by the rules, the starter never failed nor forfeited, and it made moves."""
    _, _, bot_id, _, _, reader, _ = starter
    api = local_client(shared_service_url)
    ids = {}
    for game in GAME_NAMES:
        seats = [f"bot:{bot_id}"] + ["builtin:random"] * (GAMES.get(game).spec.min_players - 1)
        ids[game] = api.create_arena_match(game, seats, seed=7, rated=False)["id"]
    with concurrent.futures.ThreadPoolExecutor(len(ids)) as pool:
        finals = dict(zip(ids, pool.map(lambda m: api.wait_for_match(m, timeout=120),
                                        ids.values())))
    for game, final in finals.items():
        assert final["status"] == "over", (game, final)
        assert final["result"]["termination"] == "rules", (game, final["result"], reader.text())
        moves = api.log(ids[game])["moves"]
        assert not any(m.get("failure") for m in moves), game
        assert sum(1 for m in moves if m["seat"] == 0 and m["by"] == "seat") > 3, game


def test_without_a_secret_the_starter_accepts_no_post(starter, tmp_path):
    """Started with no secret anywhere (no file, no $REFEREE_BOT_SECRET), it still answers
    GET / (registration needs it) but refuses every POST with 401, signed or not."""
    command = starter[-1]
    reader = LineReader(start_process(
        command + ["--port", "0", "--secret-file", str(tmp_path / "none.secret")],
        env_extra={"REFEREE_BOT_SECRET": ""}))
    try:
        url = reader.wait_for(r"serving (http://\S+)").group(1)
        reader.wait_for(r"no secret in .* yet")
        parts = urlsplit(url)
        conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=5)
        conn.request("GET", "/")
        response = conn.getresponse()
        assert (response.status, json.loads(response.read())["apiversion"]) == (200, "1")
        for headers in ({}, sign("anything", BODY)):
            conn.request("POST", "/move", body=BODY, headers=headers)
            response = conn.getresponse()
            assert (response.status, json.loads(response.read())) == (401, {"error": "no secret yet"})
    finally:
        reader.stop()


def test_the_starter_passes_botcheck(starter):
    """`referee botcheck URL --secret S` (issue 39): every line PASS, one /move per decision
    kind of every game, exit 0. The output is printed (pytest -s shows it)."""
    language, _, _, secret, url, reader, _ = starter
    done = subprocess.run([sys.executable, "-m", "referee.cli", "botcheck", url, "--secret",
                           secret], capture_output=True, text=True, timeout=300)
    print(done.stdout)
    assert done.returncode == 0, done.stdout + done.stderr + reader.text()
    lines = done.stdout.splitlines()
    assert all(line.startswith("PASS") for line in lines[:-1]) and lines[-1].endswith(" 0 failed")
    kinds = sum(len(GAMES.get(g).decision_kinds()) for g in GAME_NAMES)
    assert sum(1 for line in lines if line.split("  ")[1:2] and
               line.split("  ")[1].split(" ")[:2][1:] == ["/move"] and
               line.split("  ")[1].split(" ")[0] in GAME_NAMES) == kinds
