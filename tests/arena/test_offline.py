"""`referee play` and `referee tournament` run offline, with no Redis and no server."""

from __future__ import annotations

import json
import subprocess

from tests.support.bots import BotServer
from tests.support.http import BIN


def test_referee_play_writes_the_service_log_format(tmp_path):
    """Two loopback bots and a builtin; the JSON Lines log has the same shape as the API's."""
    a, b = BotServer("good", "alpha"), BotServer("good", "beta")
    out = tmp_path / "match.jsonl"
    try:
        proc = subprocess.run([f"{BIN}/referee", "play", "--game", "gops", "--bot", a.url,
                               "--bot", b.url, "--bot", "builtin:random", "--seed", "7",
                               "--options", '{"cards": 5}', "--out", str(out)],
                              capture_output=True, text=True, timeout=60, env={
                                  **__import__("os").environ, "REDIS_URL": ""})
    finally:
        a.stop(), b.stop()
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert lines[0]["type"] == "match" and lines[0]["seed"] == "7" and lines[0]["game"] == "gops"
    assert lines[-1]["type"] == "result" and lines[-1]["termination"] == "rules"
    moves = [line for line in lines if line["type"] == "move"]
    assert [m["version"] for m in moves] == list(range(len(moves)))
    assert {m["seat"] for m in moves} == {0, 1, 2}
    assert "seat 0 alpha: rank" in proc.stderr and "seat 2 builtin:random: rank" in proc.stderr
    assert a.paths()[0] == "/start" and "/end" in a.paths()


def test_referee_play_replays_identically(tmp_path):
    """The same bots and seed give the same log, move for move."""
    a, b = BotServer("good", "alpha"), BotServer("good", "beta")
    logs = []
    try:
        for run in range(2):
            out = tmp_path / f"m{run}.jsonl"
            subprocess.run([f"{BIN}/referee", "play", "--game", "gops", "--bot", a.url, "--bot",
                            b.url, "--seed", "3", "--out", str(out)], check=True, timeout=60,
                           capture_output=True)
            logs.append([(m["seat"], m["move"]) for m in map(json.loads, out.read_text().splitlines())
                         if m["type"] == "move"])
    finally:
        a.stop(), b.stop()
    assert logs[0] == logs[1]


def test_referee_tournament_prints_standings(tmp_path):
    """A round robin offline: every rotation played; a progress line per match with the
    standings so far; standings printed and written beside every match's log (issue 15 item
    4), and a log replayed through the engine gives the match's own result."""
    bots = [BotServer("good", f"t{i}") for i in range(2)]
    out = tmp_path / "tour"
    try:
        proc = subprocess.run([f"{BIN}/referee", "tournament", "--game", "gops",
                               *sum((["--bot", b.url] for b in bots), []),
                               "--bot", "builtin:random", "--players", "2", "--seeds", "2",
                               "--options", '{"cards": 3}', "--out", str(out)],
                              capture_output=True, text=True, timeout=120)
    finally:
        for bot in bots:
            bot.stop()
    assert proc.returncode == 0, proc.stderr
    data = json.loads((out / "standings.json").read_text())
    assert data["tournament"]["progress"]["finished"] == 12  # 3 tables x 2 seeds x 2 rotations
    assert len(data["results"]) == 12
    assert "builtin:random" in proc.stdout and "ordinal" in proc.stdout
    assert sorted(r["matches"] for r in data["tournament"]["standings"]) == [8, 8, 8]
    progress = [line for line in proc.stderr.splitlines() if line.startswith("[")]
    assert [line.split("]")[0] for line in progress] == [f"[{i:>2}/12" for i in range(1, 13)]
    assert all(" | " in line for line in progress)
    last = progress[-1].split(" | ordinal: ")[1]
    assert all(name in last for name in ("t0", "t1", "builtin:random"))
    assert sorted(p.name for p in (out / "matches").iterdir()) == sorted(
        f"{i:02d}-{m}.jsonl" for i, m in enumerate(data["tournament"]["matches"]))
    assert data["logs"][0] == f"matches/00-{data['tournament']['matches'][0]}.jsonl"
    for index in (0, 11):
        _assert_replays(out / data["logs"][index], data["results"][index])


def _assert_replays(path, result):
    """Replaying a JSON Lines log's moves through the engine ends as the match ended."""
    from referee.core import engine
    from referee.service.config import Settings
    from referee.service.context import registry_for

    lines = [json.loads(line) for line in path.read_text().splitlines()]
    header, moves, end = lines[0], [m for m in lines if m["type"] == "move"], lines[-1]
    game = registry_for(Settings(redis_url=None)).get(header["game"])
    state = engine.replay(game, header["players"], header["options"], header["seed"],
                          [(m["seat"], m["move"]) for m in moves])
    outcome = game.outcome(state)
    assert list(outcome.ranks) == end["ranks"] == result["ranks"]
    assert list(outcome.scores) == end["scores"] == result["scores"]


def test_tournament_out_as_a_json_path_keeps_logs_beside_it(tmp_path):
    """`--out t.json`: the standings there, the logs in t.matches/ beside it."""
    out = tmp_path / "t.json"
    proc = subprocess.run([f"{BIN}/referee", "tournament", "--game", "gops", "--bot",
                           "builtin:random", "--bot", "builtin:random", "--seeds", "1",
                           "--options", '{"cards": 3}', "--out", str(out), "--quiet"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(out.read_text())
    assert [tmp_path / p for p in data["logs"]] == sorted((tmp_path / "t.matches").iterdir())
    assert len(data["logs"]) == 2 and not any(l.startswith("[") for l in proc.stderr.splitlines())
    assert data["tournament"]["unrated_matches"] == 2 and "note: " in proc.stdout


def test_round_robin_plans_rotations_or_permutations():
    """Rotations: each table in its n cyclic orders; permutations: in all n! orders."""
    from arena.tournaments import round_robin_plan

    rotations = round_robin_plan(["a", "b", "c"], 3, [1, 2])
    assert [p["entrants"] for p in rotations[:3]] == [["a", "b", "c"], ["b", "c", "a"],
                                                       ["c", "a", "b"]]
    assert len(rotations) == 6 and {p["seed"] for p in rotations} == {1, 2}
    orders = round_robin_plan(["a", "b", "c", "d"], 3, [7], "permutations")
    assert len(orders) == 4 * 6
    first_table = [tuple(p["entrants"]) for p in orders if p["table"] == 0]
    assert len(set(first_table)) == 6 and ("a", "c", "b") in first_table


def test_an_unknown_game_is_refused_before_any_bot_is_called():
    """Issue 15 item 2: without REFEREE_EXTRA_GAMES, gops (a test game) is unknown; the refusal
    is the game's own (game.unknown, naming the games there are), and the bot is never called."""
    bot = BotServer("good", "alpha")
    env = {k: v for k, v in __import__("os").environ.items() if k != "REFEREE_EXTRA_GAMES"}
    try:
        for command in (["play", "--seed", "1"], ["tournament"]):
            proc = subprocess.run([f"{BIN}/referee", *command, "--game", "gops", "--bot",
                                   bot.url, "--bot", "builtin:random"], capture_output=True,
                                  text=True, timeout=60, env=env)
            assert proc.returncode == 1
            assert "game.unknown" in proc.stderr and "bot.rejected" not in proc.stderr
            assert "'dschunke'" in proc.stderr and "'yunnan'" in proc.stderr
    finally:
        bot.stop()
    assert bot.paths() == []


def test_referee_play_says_how_far_a_long_match_is(tmp_path):
    """A progress line every --progress-every seconds while the match runs; --quiet: none."""
    args = [f"{BIN}/referee", "play", "--game", "dschunke", "--bot", "builtin:random", "--bot",
            "builtin:random", "--bot", "builtin:random", "--seed", "4", "--out",
            str(tmp_path / "m.jsonl")]
    proc = subprocess.run(args + ["--progress-every", "0.000001"], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    counts = [int(line.split()[1]) for line in proc.stderr.splitlines()
              if line.startswith("... ")]
    assert len(counts) > 10 and counts == sorted(counts)
    quiet = subprocess.run(args + ["--quiet"], capture_output=True, text=True, timeout=120)
    assert quiet.returncode == 0 and "... " not in quiet.stderr
