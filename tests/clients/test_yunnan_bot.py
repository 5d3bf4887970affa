"""The Yunnan heuristic bot (clients/python/examples/yunnan_bot.py) and the Yunnan renderer:
the bot as a real HTTP process in arena matches and a tournament against builtin:random, its
choice always one of the listed moves (and quick) in every kind of decision, its clear margin
over random in an offline tournament, and the board drawn from real views."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time

import pytest

from referee_client import Client
from referee_client.render import renderer_for
from tests.api.helpers import wait_until
from tests.clients.support import CLIENTS_PY
from tests.support.http import BIN

EXAMPLES = CLIENTS_PY / "examples"
YUNNAN_BOT = EXAMPLES / "yunnan_bot.py"
sys.path.insert(0, str(EXAMPLES))

import yunnan_bot  # noqa: E402  (the examples are scripts, found through the path above)


@pytest.fixture
def heuristic(processes, tmp_path):
    """Start the heuristic as its own process: registered with a service (id, url), or
    unregistered for the offline arena (None, url)."""
    def start(service_url: str | None = None, name: str = "yunnan-heuristic"):
        args = [sys.executable, str(YUNNAN_BOT), "--port", "0", "--name", name]
        if service_url:
            args += ["--games", "yunnan", "--register", service_url,
                     "--secret-file", str(tmp_path / f"{name}.secret")]
        reader = processes(args)
        url = reader.wait_for(r"serving (http://\S+)").group(1)
        bot_id = reader.wait_for(r"registered bot (\S+)").group(1) if service_url else None
        return bot_id, url
    return start


def test_the_heuristic_beats_random_in_arena_matches(service_url, api, heuristic):
    """Both seats of a rated 2-player match (with Dúlì) and the middle seat of a 3-player
    table against builtin:random: complete matches, no failure, and the heuristic first."""
    bot_id, _ = heuristic(service_url)
    me = f"bot:{bot_id}"
    seatings = [[me, "builtin:random"], ["builtin:random", me],
                ["builtin:random", me, "builtin:random"]]
    ids = [api.create_arena_match("yunnan", seats, seed=11 + i, rated=len(seats) == 2)["id"]
           for i, seats in enumerate(seatings)]
    for match_id, seats in zip(ids, seatings):
        final = api.wait_for_match(match_id, timeout=60)
        result = final["result"]
        assert result["termination"] == "rules", result
        assert result["ranks"][seats.index(me)] == 1, result
        log = api.log(match_id)
        assert not any(m.get("failure") for m in log["moves"])
    # a match counts on its bot's record when it is finished, which follows its last move
    # (inline or as a job): wait for it, as a caller reading the record after `over` must
    health = wait_until(lambda: (h := api.bot(bot_id)["health"])["matches"] == 3 and h)
    assert health["moves"] > 3 * 40
    assert sum(health[k] for k in ("timeouts", "crashes", "bad_responses", "illegal_moves")) == 0
    # its speed is a figure (health["latency_ms"]), not asserted: no timeout under the
    # match's move limit is what it must meet
    assert health["latency_ms"]["p50"] is not None


def test_the_heuristic_wins_a_tournament_on_worker_processes(cluster_url, heuristic):
    """A duplicate round robin against builtin:random played by `referee worker` processes:
    every match ends by the rules and the heuristic wins them all."""
    api = Client(cluster_url)
    bot_id, _ = heuristic(cluster_url, "yunnan-tour")
    tour = api.create_tournament("yunnan", [bot_id, "builtin:random"], players=2,
                                 seeds_per_table=2, seed=5)
    done = api.wait_for_tournament(tour["id"], timeout=90)
    assert done["status"] == "finished" and done["progress"]["finished"] == 4
    rows = {row["entrant"]: row for row in done["standings"]}
    assert rows[bot_id]["wins"] == 4 and rows[bot_id]["failure_rate"] == 0
    assert rows[bot_id]["average_score"] > 2 * rows["builtin:random"]["average_score"]
    assert done["standings"][0]["entrant"] == bot_id


TABLES = [  # (seats, options): every player count, every option, Dúlì's both overflows
    (2, {}),
    (2, {"duli_overflow": "supply", "double_bidding": True}),
    (3, {"market_exit_costs_pass": True}),
    (4, {"guards": True, "double_bidding": True}),
    (5, {}),
]


def _play_pull(api, players: int, options: dict, seed: int, seen: dict) -> dict:
    """One match with the heuristic in seat 0 (pull mode) and builtin:random elsewhere;
    every prompt answered by `choose`, checked against its legal moves and timed."""
    seats = ["remote"] + ["builtin:random"] * (players - 1)
    created = api.create_match("yunnan", seats, options=options, seed=seed)
    seat = api.seat(created["id"], created["tokens"]["0"])

    def checked(prompt):
        started = time.perf_counter()
        move = yunnan_bot.choose(prompt)
        seen["ms"].append((time.perf_counter() - started) * 1000)
        assert move in prompt["legal_moves"], (move, prompt["decision"])
        seen["kinds"].add(prompt["decision"]["kind"])
        seen["views"].append(prompt["view"])
        return move
    return seat.play(checked)


def test_choose_returns_a_listed_move_in_every_kind_of_decision(api):
    """Complete matches through the service's prompts at every player count and option:
    every answer is one of the listed moves and every kind of decision is met (speed is a
    figure, not asserted: the arena tests play the bot under the real move limits)."""
    seen = {"ms": [], "kinds": set(), "views": []}
    for n, (players, options) in enumerate(TABLES):
        final = _play_pull(api, players, options, 100 + n, seen)
        assert final["status"] == "over" and final["result"]["termination"] == "rules"
        assert final["result"]["ranks"][0] == 1
    assert {"bid", "resolve", "yard", "travel", "journey", "convert"} <= seen["kinds"]
    assert len(seen["ms"]) > 250


def test_choose_on_positions_from_the_check_endpoint(api):
    """Positions replayed by the stateless check endpoint, reached by a mix of random and
    heuristic play (so not only where the heuristic would go): the heuristic's move is
    always listed, and the endpoint confirms it legal."""
    rng = random.Random(4)
    kinds = set()
    for players, options in ((2, {"guards": True}), (3, {})):
        moves: list[dict] = []
        for step in range(150):
            # Yunnan is open information: the spectator's view is every seat's view
            report = api.check("yunnan", players=players, seed=9, moves=moves,
                               options=options, view_seat=-1)
            if report["over"]:
                break
            pending = report["pending"][0]
            seat = pending["seat"]
            request = {"seat": seat, "decision": pending, "view": report["view"],
                       "legal_moves": pending["legal_moves"]}
            move = yunnan_bot.choose(request)
            assert move in pending["legal_moves"], (move, pending)
            kinds.add(pending["kind"])
            if step % 10 == 0:
                verdict = api.check("yunnan", players=players, seed=9, moves=moves,
                                    options=options, candidate={"seat": seat, "move": move})
                assert verdict["legal"], verdict["candidate"]
            if rng.random() < 0.5:
                move = rng.choice(pending["legal_moves"])
            moves.append({"seat": seat, "move": move})
    assert {"bid", "travel", "journey", "convert"} <= kinds


def test_the_heuristic_beats_random_clearly_offline(tmp_path):
    """`referee tournament` (offline, duplicate format) between the heuristic served over
    HTTP and builtin:random: 6 seeds in both seat orders. A random bot would win about half
    of its 12 matches; winning 11 or more would happen to it with probability 0.3%."""
    out = tmp_path / "tour.json"
    proc = subprocess.Popen([sys.executable, str(YUNNAN_BOT), "--port", "0"],
                            stdout=subprocess.PIPE, text=True)
    try:
        url = proc.stdout.readline().split("serving ")[1].split()[0]
        run = subprocess.run([f"{BIN}/referee", "tournament", "--game", "yunnan", "--bot", url,
                              "--bot", "builtin:random", "--players", "2", "--seeds", "6",
                              "--seed", "1", "--out", str(out)],
                             capture_output=True, text=True, timeout=120)
    finally:
        proc.terminate()
        proc.wait(10)
    assert run.returncode == 0, run.stderr
    standings = json.loads(out.read_text())["tournament"]["standings"]
    rows = {row["name"]: row for row in standings}
    mine, theirs = rows["yunnan-heuristic"], rows["builtin:random"]
    assert mine["matches"] == 12 and mine["wins"] >= 11
    assert mine["average_rank"] < 1.1 and mine["average_score"] > 2 * theirs["average_score"]
    assert standings[0]["name"] == "yunnan-heuristic"


def test_the_renderer_draws_real_views(api):
    """Views from a real 2-player match, drawn at every step: the road with its provinces,
    the Market, the bids in Pu'er, every seat's tracks, Dúlì, the events, and the final
    breakdown; every legal move in words."""
    renderer = renderer_for("yunnan", api.game("yunnan"))
    seen = {"ms": [], "kinds": set(), "views": []}
    final = _play_pull(api, 2, {}, 7, seen)
    texts = [renderer.view(view, 0) for view in seen["views"]]
    first, last_view = texts[0], seen["views"][-1]
    for fact in ("The Tea Horse Road", "qinghai", "tibet", "kang", "sichuan", "yunnan",
                 "Market of Pu'er", "Horse Trader", "Temple", "Bank", "Duli (automaton)",
                 f"P0 (you): coins {seen['views'][0]['coins'][0]}", "round 1"):
        assert fact in first, fact
    assert any("=P0" in t for t in texts)  # a bid of ours on a space
    assert any("Inspector in" in t and "Income: P0" in t for t in texts)
    last = texts[-1]
    assert f"VP {last_view['vp'][0]}" in last and f"VP {last_view['vp'][1]}" in last
    spectator = renderer.view(api.match(final["id"])["view"], None)
    assert "game over" in spectator and "P0 final" in spectator and "P1 final" in spectator
    moves = [{"type": "bid", "building": "horse_trader", "space": 9, "from": "supply"},
             {"type": "step", "from": "market", "to": "yunnan"}, {"type": "done"},
             {"type": "convert", "points": 4}, {"type": "displace", "owner": 2}]
    assert [renderer.move(m) for m in moves] == [
        "bid 9 on Horse Trader (trader from supply)", "step market -> yunnan",
        "done (end the turn; traders with no route to Pu'er go to the Market)",
        "convert 4 into victory points (the rest as coins)", "displace a trader of Duli"]
    assert renderer.decision({"kind": "journey", "prompt": {"passes_left": 2, "at": "kang"}}) \
        == "decide: moves the trader under way on, or stops it (border passes left 2; " \
           "trader in kang)"
