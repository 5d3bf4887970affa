"""`referee botcheck` (issue 39) against bots on loopback: a good one passes every line; one that
accepts forged requests, one that speaks HTTP/1.0 only and one that plays an illegal move each
get the matching FAIL line and a non-zero exit."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from arena.botpositions import missing, positions
from referee.games import GAMES
from tests.support.bots import BotServer

SECRET = "bs_botcheck-test-secret"
ALL = GAMES.names()


def botcheck(url, *extra, secret=SECRET):
    """Run the command as an author would; (exit status, stdout lines)."""
    done = subprocess.run([sys.executable, "-m", "referee.cli", "botcheck", url,
                           "--secret", secret, *extra], capture_output=True, text=True,
                          timeout=300)
    return done.returncode, done.stdout.splitlines(), done.stderr


@pytest.fixture
def bot(request):
    """A loopback test bot (its behaviour: the test's parameter), knowing SECRET."""
    made = []

    def make(behaviour="good", **kw):
        server = BotServer(behaviour, games=ALL, **kw)
        server.secret = SECRET
        made.append(server)
        return server
    yield make
    for server in made:
        server.stop()


def _line(lines, name):
    found = [line for line in lines if line.split("  ")[1:2] == [name]]
    assert found, (name, lines)
    return found[0]


def test_positions_reach_every_decision_kind_deterministically():
    """The engine's matches reach every declared decision kind of every game, the same
    positions for the same seed."""
    for name in ALL:
        game = GAMES.get(name)
        found = positions(game, 1)
        assert missing(game, found) == [], name
        again = positions.__wrapped__(game, 1)
        assert [(p.kind, p.players, p.seed, p.version) for p in found] == \
               [(p.kind, p.players, p.seed, p.version) for p in again]


def test_a_good_bot_passes_every_line(bot):
    """Every line PASS, one /move line per decision kind of each game, exit 0."""
    good = bot()
    status, lines, err = botcheck(good.url)
    assert status == 0, "\n".join(lines) + err
    assert lines[-1].endswith(" 0 failed") and all(l.startswith("PASS") for l in lines[:-1])
    kinds = sum(len(GAMES.get(g).decision_kinds()) for g in ALL)
    assert sum(1 for l in lines[:-1] if l.split("  ")[1].split(" ")[1:2] == ["/move"]
               and l.split("  ")[1].split(" ")[0] in ALL) == kinds
    for name in ("GET /", "keep-alive", "forged /move: unsigned", "forged /move: replayed nonce",
                 "forged /move: stale timestamp", "forged /move: bad signature",
                 "latency /move", "dschunke /start", "yunnan /end"):
        assert _line(lines, name).startswith("PASS")
    assert sorted(good.refused) == ["bad signature", "replayed nonce", "stale timestamp",
                                    "unsigned request"]


def test_one_game_only_and_json(bot):
    """--game checks that game alone; --json prints the same checks as data."""
    good = bot()
    status, lines, _ = botcheck(good.url, "--game", "yunnan", "--json")
    result = json.loads(lines[0])
    assert status == 0 and result["passed"] and result["failed"] == 0
    names = [l["name"] for l in result["lines"]]
    assert "yunnan /move bid" in names and not any(n.startswith("dschunke") for n in names)


def _accepts_everything(bot):
    server = bot()
    server.secret = None   # verifies nothing: takes unsigned and forged requests
    return server


def test_a_bot_that_accepts_forged_requests_fails_those_lines(bot):
    status, lines, _ = botcheck(_accepts_everything(bot).url, "--game", "yinzi-ming")
    assert status == 1
    for what in ("unsigned", "bad signature", "stale timestamp", "replayed nonce"):
        line = _line(lines, f"forged /move: {what}")
        assert line.startswith("FAIL") and line.endswith("got: 2xx: the bot accepted it"), line
    assert _line(lines, "yinzi-ming /move merchant").startswith("PASS")


def test_an_http_1_0_bot_fails_keep_alive(bot):
    server = bot()
    server._server.RequestHandlerClass.protocol_version = "HTTP/1.0"
    status, lines, _ = botcheck(server.url, "--game", "yunnan")
    assert status == 1
    line = _line(lines, "keep-alive")
    assert line.startswith("FAIL") and "HTTP/1.0" in line and "new connection" in line, line
    assert [l for l in lines if l.startswith("FAIL")] == [line]


def test_a_bot_that_plays_an_illegal_move_fails_that_kind(bot):
    def illegal(request):
        if request["decision"]["kind"] == "bid":
            return 200, json.dumps({"move": {"type": "bid", "amount": -5}}).encode()
        return 200, json.dumps({"move": request["legal_moves"][0]}).encode()
    status, lines, _ = botcheck(bot(illegal).url, "--game", "yunnan")
    assert status == 1
    line = _line(lines, "yunnan /move bid")
    assert line.startswith("FAIL") and ": illegal (" in line, line
    assert _line(lines, "yunnan /move travel").startswith("PASS")


def test_no_secret_is_a_usage_error(bot):
    done = subprocess.run([sys.executable, "-m", "referee.cli", "botcheck", bot().url],
                          capture_output=True, text=True, timeout=60,
                          env={"PATH": "/usr/bin:/bin"})
    assert done.returncode != 0 and "secret is needed" in done.stderr
