"""The Yinzi: Ming heuristic bot (clients/python/examples/yinzi_ming_bot.py) as a real HTTP
process: arena matches and a tournament through the running service, every move it picks is
a listed one, its turns always reach `done`, it beats builtin:random offline by a margin a
random bot could not reach, and the terminal renderer draws real views."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from referee_client.render import renderer_for
from tests.clients.support import CLIENTS_PY, LineReader, RANDOM_BOT
from tests.support.http import BIN, local_client, start_process

GAME = "yinzi-ming"
BOT = CLIENTS_PY / "examples" / "yinzi_ming_bot.py"
sys.path.insert(0, str(BOT.parent))  # the example's own modules, as the bot process finds them
import yinzi_ming_bot  # noqa: E402


def _serve(readers: list, program: Path, *extra: str) -> tuple[str, LineReader]:
    reader = LineReader(start_process([sys.executable, str(program), "--port", "0", *extra]))
    readers.append(reader)
    return reader.wait_for(r"serving (http://\S+)").group(1), reader


@pytest.fixture(scope="module")
def processes():
    """Bot processes started by this module's tests; all stopped at the end."""
    readers: list[LineReader] = []
    yield readers
    for reader in readers:
        reader.stop()


@pytest.fixture(scope="module")
def heuristic(shared_service_url, processes, tmp_path_factory):
    """The heuristic bot registered with the served app: its bot id."""
    secret = tmp_path_factory.mktemp("yinzi") / "secret"
    _, reader = _serve(processes, BOT, "--name", "yinzi-heuristic", "--games", GAME,
                       "--register", shared_service_url, "--secret-file", str(secret))
    return reader.wait_for(r"registered bot (\S+)").group(1)


def test_the_bot_plays_arena_matches_and_wins(shared_service_url, heuristic):
    """In both seats against builtin:random and at a three-seat table: complete matches ended
    by the rules, no failure on its record, and it finishes first."""
    api = local_client(shared_service_url)
    bot = f"bot:{heuristic}"
    seatings = [[bot, "builtin:random"], ["builtin:random", bot],
                ["builtin:random", "builtin:random", bot]]
    ids = [(api.create_arena_match(GAME, seats, seed=40 + i, rated=len(seats) == 2)["id"],
            seats.index(bot)) for i, seats in enumerate(seatings)]
    for match_id, seat in ids:
        final = api.wait_for_match(match_id, timeout=60)
        assert final["result"]["termination"] == "rules", final["result"]
        assert final["result"]["ranks"][seat] == 1, final["result"]
        moves = api.log(match_id)["moves"]
        assert not any(m.get("failure") for m in moves)
        assert sum(1 for m in moves if m["seat"] == seat and m["by"] == "seat") > 50
    health = api.bot(heuristic)["health"]
    assert sum(health[k] for k in ("timeouts", "crashes", "bad_responses", "illegal_moves")) == 0
    # its speed is a figure (health["latency_ms"]), not asserted: no timeout under the
    # match's move limit is what it must meet
    assert health["latency_ms"]["p50"] is not None


def test_the_bot_tops_a_tournament_through_the_service(shared_service_url, heuristic):
    """A duplicate round robin against builtin:random (both seat orders, 3 seeds): first
    place, every match won, no failures."""
    api = local_client(shared_service_url)
    tour = api.create_tournament(GAME, [heuristic, "builtin:random"], players=2,
                                 seeds_per_table=3, seed=9)
    done = api.wait_for_tournament(tour["id"], timeout=120)
    assert done["status"] == "finished" and done["progress"]["finished"] == 6
    top = done["standings"][0]
    assert top["entrant"] == heuristic and top["place"] == 1
    assert top["wins"] == 6 and top["failure_rate"] == 0 and top["average_rank"] == 1


OPTIONS = [({}, 3), ({"exchange_in_bonus_turn": True, "exclusive_trade_slots": True,
                      "supply_ignores_transport": False, "command_after_trade": False}, 2)]


@pytest.fixture(scope="module")
def prompts(shared_service_url):
    """Every prompt of two hot-seat matches through the REST API (seat 0 plays the bot's
    choice, the others random legal moves, so the states vary), with the bot's choice and
    its time, and each match's final state as seat 0 sees it."""
    api, rng, seen, finals = local_client(shared_service_url), random.Random(5), [], []
    for options, players in OPTIONS:
        created = api.create_match(GAME, ["remote"] * players, options=options, seed=17)
        match_id, tokens = created["id"], created["tokens"]
        to_act = api.match(match_id)["to_act"]
        while to_act:  # each move's answer says who acts next: empty once the match is over
            seat = to_act[0]["seat"]
            prompt = api.prompt(match_id, tokens[str(seat)])
            started = time.perf_counter()
            move = yinzi_ming_bot.choose(prompt)
            seen.append((prompt, move, time.perf_counter() - started))
            play = move if seat == 0 else rng.choice(prompt["legal_moves"])
            to_act = api.move(match_id, tokens[str(seat)], play,
                              expected_version=prompt["version"])["to_act"]
        finals.append(api.match(match_id, tokens["0"]))
    return seen, finals


def test_choose_always_returns_a_listed_move(prompts):
    """Over every state of both matches (every decision kind, options off their defaults
    too): a listed move each time. (Its speed is not asserted here: timings are figures,
    and the arena tests play it under the real move limits with no timeout.)"""
    seen, finals = prompts
    assert len(seen) > 400 and all(f["status"] == "over" for f in finals)
    kinds = {p["decision"]["kind"].split(":")[0] for p, _, _ in seen}
    assert kinds == {"start_peasants", "merchant", "crop_tile", "directive", "command",
                     "trade", "regulation"}
    for prompt, move, _ in seen:
        assert move in prompt["legal_moves"], (prompt["decision"], move)


def test_every_turn_of_the_bot_heads_for_done(prompts):
    """Seat 0 (the bot) ends each Directive turn: no exchange ping-pong, a bounded number of
    moves a turn, and its exchanges never undo one another within a turn."""
    seen, _ = prompts
    turn: list[dict] = []
    turns = []
    for prompt, move, _ in seen:
        if prompt["seat"] != 0 or prompt["decision"]["kind"].split(":")[0] not in (
                "command", "trade", "regulation"):
            continue
        turn.append(move)
        if move["type"] == "done":
            turns.append(turn)
            turn = []
    assert not turn and len(turns) >= 2 * (6 * 4 + 4)  # 24 Directives, 4 Regulations a match
    for moves in turns:
        swaps = [m["direction"] for m in moves if m["type"] in ("exchange", "mint")]
        assert len(moves) <= 16 and len(set(swaps)) <= 1, moves


def _tournament(tmp_path, *bots: str, players: int, seeds: int) -> tuple[list, list]:
    out = tmp_path / f"t{players}.json"
    args = [f"{BIN}/referee", "tournament", "--game", GAME, "--players", str(players),
            "--seeds", str(seeds), "--seed", "21", "--out", str(out)]
    for bot in bots:
        args += ["--bot", bot]
    done = subprocess.run(args, capture_output=True, text=True, timeout=120, env=os.environ)
    assert done.returncode == 0, done.stderr
    results = json.loads(out.read_text())["results"]
    return results, done.stdout.splitlines()


def test_the_bot_beats_random_offline(processes, tmp_path):
    """`referee tournament` offline with the bot served over HTTP: 2-player tables (both seat
    orders, 10 seeds) and 3-player tables with two random bots (every rotation). A bot no
    better than random would win about half, and a third, of these matches."""
    url, _ = _serve(processes, BOT, "--name", "yinzi-offline")
    random_url, _ = _serve(processes, RANDOM_BOT, "--name", "random-offline")
    for bots, players, seeds, least in (([url, "builtin:random"], 2, 10, 18),
                                        ([url, "builtin:random", random_url], 3, 3, 8)):
        results, printed = _tournament(tmp_path, *bots, players=players, seeds=seeds)
        assert len(results) == players * seeds and not any(r["failed"] for r in results)
        me = results[0]["entrants"][0]  # the first rotation seats the bots as named
        ours = [(r["ranks"][i], r["scores"][i], max(s for j, s in enumerate(r["scores"])
                                                    if j != i))
                for r in results for i, e in enumerate(r["entrants"]) if e == me]
        assert len(ours) == len(results)
        wins = sum(rank == 1 for rank, _, _ in ours)
        margin = sum(score - best for _, score, best in ours) / len(ours)
        assert wins >= least and margin >= 10, (wins, margin, printed)
        assert "yinzi-offline" in printed[2]  # first place in the printed standings


def test_the_renderer_draws_real_views(prompts):
    """Views from both matches: the round, the rate, every Province and market, each seat's
    Sapeques, the Workshops built with their Goods, the decision and the numbered moves; the
    final view adds the scoring, totals as in the result."""
    seen, finals = prompts
    r = renderer_for(GAME)
    assert type(r).__name__ == "YinziMingRenderer"
    for prompt, _, _ in seen[::7]:
        view = prompt["view"]
        text = r.view(view, prompt["seat"])
        assert f"round {view['round']} of 4" in text
        assert f"R = {view['exchange']['rate']} Sapeques" in text
        for prov in view["markets"]:
            assert prov.capitalize() in text and f"  {prov:<10} 0:" in text
        for line, seat in zip(text.split("seat  Sapeques")[1].splitlines()[1:], view["seats"]):
            assert line.split()[1] == str(seat["sapeques"])
        for wid, shop in view["workshops"].items():
            assert f"{wid} " in text and f"level {'I' * shop['level']}" in text
        decision = r.decision(prompt["decision"])
        assert decision.startswith(f"decide: {prompt['decision']['kind']}")
        numbered = [line for line in r.moves(prompt["legal_moves"]).splitlines()
                    if re.match(r" *\d+\. ", line)]  # long help is wrapped on lines of its own
        assert len(numbered) == len(prompt["legal_moves"])
    for final in finals:
        text = r.view(final["view"], 0)
        assert "final scoring" in text
        for seat, score in enumerate(final["result"]["scores"]):
            who = "you" if seat == 0 else f"s{seat}"
            assert f" {who}: {score} VP (" in text
    assert "spirits <- maize" in r.move({"type": "build", "tile": "W15", "fields": ["a"]})
    assert "Imperial Commendation" in r.move({"type": "corrupt", "benefit": "B6"})


def test_the_bot_and_renderer_import_nothing_of_the_service():
    """With only clients/python on the path, the bot, its strategy and the renderer load
    neither referee nor arena (bots depend on the wire format only)."""
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import yinzi_ming_bot, "
            "referee_client.render.yinzi_ming; "
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('referee', 'arena')); "
            "assert not bad, bad")
    env = {**os.environ, "PYTHONPATH": str(CLIENTS_PY)}
    done = subprocess.run([sys.executable, "-c", code, str(BOT.parent)], cwd="/", env=env,
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
