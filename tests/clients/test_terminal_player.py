"""The terminal player driven through a pipe: numbered moves, a rejected move explained,
leaving and rejoining, hot seat, bots over HTTP."""

from __future__ import annotations

import re
import subprocess
import sys
import time

PLAY = [sys.executable, "-m", "referee_client.play"]


def play(args, stdin: str, timeout: float = 60) -> subprocess.CompletedProcess:
    """Run the terminal player with `stdin` piped in."""
    return subprocess.run(PLAY + args, input=stdin, capture_output=True, text=True,
                          timeout=timeout)


def test_a_match_against_a_builtin_bot_with_a_rejected_move(service_url, api):
    """Create a match, type an illegal move (its code and message are shown, the match is
    unchanged), a number out of range, then play by number to the end. (The illegal move is
    typed twice: if the bot's sealed bid lands while the first is on its way, that one is
    overtaken, match.version_stale, and only the second reaches the rules.)"""
    illegal = '{"type": "bid", "card": 99}\n'
    typed = illegal * 2 + "0\n" + "1\n" * 20
    done = play(["--url", service_url, "--game", "gops", "--seats", "remote,builtin:random",
                 "--options", '{"cards": 3}', "--seed", "4"], typed)
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    assert "rejected: move.illegal.bid.not_in_hand (HTTP 422)" in out
    assert "card 99 is not in your hand" in out
    assert "no move 0: choose 1-3" in out
    assert "  1. bid card=1    (bid one card from your hand)" in out
    assert re.search(r"seat 0 to play \(version [01]\)", out)
    assert "is over ===" in out and "result (rules):" in out and "(you)" in out
    match_id = re.search(r"match (\w+) created", out).group(1)
    assert api.match(match_id)["status"] == "over"
    mine = [m for m in api.log(match_id)["moves"] if m["seat"] == 0]
    assert [m["move"]["type"] for m in mine].count("bid") == 3  # one rejected, none lost
    assert all(m.get("by", "seat") == "seat" for m in mine)  # never played for us


def test_hot_seat_plays_two_seats_and_explains_a_malformed_move(service_url, api):
    """Both seats' tokens: each seat is asked in turn (hot seat); a malformed move is
    explained and the same seat asked again."""
    created = api.create_match("gops", ["remote", "remote"], options={"cards": 3}, seed=6)
    tokens = [created["tokens"]["0"], created["tokens"]["1"]]
    done = play(["--url", service_url, "--match", created["id"], f"--token={tokens[0]}",
                 f"--token={tokens[1]}"], '"keep"\n' + "1\n" * 30)
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    assert "rejected: move.malformed (HTTP 400)" in out
    assert "seat 0 to play" in out and "seat 1 to play" in out and "is over ===" in out
    assert api.match(created["id"])["status"] == "over"


def test_leave_and_rejoin(service_url, api):
    """Input that ends at our turn leaves the match (exit 2, with how to rejoin); rejoining
    with the token plays on from where the match is."""
    created = api.create_match("gops", ["remote", "builtin:random"], options={"cards": 3}, seed=6)
    _until(lambda: api.match(created["id"])["version"] == 1)  # the bot's sealed bid is in
    args = ["--url", service_url, "--match", created["id"], f"--token={created['tokens']['0']}"]
    left = play(args, "1\n")
    assert left.returncode == 2, left.stdout + left.stderr
    assert "played: bid" in left.stdout
    assert f"--match {created['id']} --token={created['tokens']['0']}" in left.stdout
    assert api.match(created["id"])["status"] == "active"
    rejoined = play(args, "1\n" * 20)
    assert rejoined.returncode == 0, rejoined.stdout + rejoined.stderr
    assert "played: bid card=1" not in rejoined.stdout  # card 1 was bid before leaving
    assert api.match(created["id"])["status"] == "over"


def test_against_an_http_bot(service_url, api, kit_bots):
    """A `bot:<id>` seat makes it an (unrated) arena match; the bot answers over HTTP."""
    from referee_client.botkit import register

    bot = kit_bots(lambda request: request["legal_moves"][-1], name="last-move", games=["gops"])
    bot_id = register(bot, service_url)["id"]
    done = play(["--url", service_url, "--game", "gops", "--seats", f"remote,bot:{bot_id}",
                 "--options", '{"cards": 2}', "--limits", '{"move_ms": 2000}'], "1\n" * 10)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "last-move" in done.stdout and "result (rules):" in done.stdout
    assert bot.refused == []


def test_usage_errors_are_reported(service_url, api):
    """An unknown game or a wrong token is the service's problem code (a token may begin
    with '-' when given as --token=...); no game and no match is a usage error."""
    unknown = play(["--url", service_url, "--game", "chess"], "")
    assert unknown.returncode == 1 and "game.unknown" in unknown.stderr
    match_id = api.create_match("gops", ["remote", "remote"])["id"]
    wrong = play(["--url", service_url, "--match", match_id, "--token=-not-a-token"], "")
    assert wrong.returncode == 1 and "auth.token_invalid" in wrong.stderr
    neither = play(["--url", service_url], "")
    assert neither.returncode == 1 and "--game" in neither.stderr


def test_a_move_overtaken_by_another_seat_is_asked_again(service_url, api, processes):
    """The person chooses on version 0, another seat's sealed bid lands first: the player
    says the match moved on, shows the new position, and the next answer plays."""
    created = api.create_match("gops", ["remote", "remote"], options={"cards": 3}, seed=6)
    player = processes(PLAY + ["--url", service_url, "--match", created["id"],
                               f"--token={created['tokens']['0']}"], stdin=subprocess.PIPE)
    player.wait_for(r"seat 0 to play \(version 0\)")
    player.wait_for(r"^\s+3\. bid card=3$")  # the moves are listed: it now waits for input
    api.move(created["id"], created["tokens"]["1"], {"type": "bid", "card": 1})
    player.proc.stdin.write("3\n")
    player.proc.stdin.flush()
    player.wait_for("the match moved on while you chose")
    player.wait_for(r"seat 0 to play \(version 1\)")
    player.proc.stdin.write("3\n")
    player.proc.stdin.flush()
    player.wait_for(r"played: bid card=3")
    assert api.match(created["id"])["version"] == 2


def _until(predicate, timeout=10.0):
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.02)
