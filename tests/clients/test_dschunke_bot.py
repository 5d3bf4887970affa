"""The Dschunke heuristic bot and renderer: the bot as a real HTTP process in arena matches
and a tournament on the service, every move it picks legal over states from real match
prompts, its margin over builtin:random in offline matches, and the board drawn from real
views."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time

import pytest

from referee_client.render import registered, renderer_for
from tests.clients.support import CLIENTS_PY, RANDOM_BOT, LineReader
from tests.support.http import local_client, start_process

EXAMPLES = CLIENTS_PY / "examples"
BOT = EXAMPLES / "dschunke_bot.py"
sys.path.insert(0, str(EXAMPLES))

import dschunke_bot  # noqa: E402
import dschunke_strategy  # noqa: E402

SEATINGS = [  # (options, seats: H = the heuristic's choose, R = a random legal move)
    ({}, "HHR"),
    ({"two_player_variant": True, "setup_variant": True}, "HR"),
    ({"setup_variant": True, "s_tie_settles": False, "load_single_last_strip": False}, "RHHR"),
]


def _start_bot(script, name: str, service_url: str, secret_file) -> tuple[LineReader, str]:
    """A bot script served as its own process and registered for dschunke: (reader, id)."""
    reader = LineReader(start_process([sys.executable, str(script), "--port", "0", "--name",
                                       name, "--games", "dschunke", "--register", service_url,
                                       "--secret-file", str(secret_file)]))
    reader.wait_for(r"serving (http://\S+)")
    return reader, reader.wait_for(r"registered bot (\S+)").group(1)


@pytest.fixture(scope="module")
def bots(shared_service_url, tmp_path_factory):
    """The heuristic bot and the Python random bot as processes, registered: their ids."""
    folder = tmp_path_factory.mktemp("dschunke-bots")
    readers = []
    try:
        heuristic, h_id = _start_bot(BOT, "dschunke-heuristic", shared_service_url,
                                     folder / "h.secret")
        readers.append(heuristic)
        rnd, r_id = _start_bot(RANDOM_BOT, "py-random", shared_service_url,
                               folder / "r.secret")
        readers.append(rnd)
        yield {"heuristic": h_id, "random": r_id}
    finally:
        for reader in readers:
            reader.stop()


@pytest.fixture(scope="module")
def prompts(shared_service_url):
    """Every decision of three matches played through the service by remote seats, the
    heuristic's choose at some seats and random moves at the others (3, 2 and 4 players,
    variants on): (prompts answered by choose, seconds per choose, final match records)."""
    api = local_client(shared_service_url)
    rng = random.Random(7)
    asked, seconds, finals = [], [], []
    for seed, (options, seats) in enumerate(SEATINGS):
        created = api.create_match("dschunke", ["remote"] * len(seats), options=options,
                                   seed=seed)
        tokens = [created["tokens"][str(s)] for s in range(len(seats))]
        to_act = api.match(created["id"])["to_act"]
        while to_act:  # each move's answer says who acts next: empty once the match is over
            seat = to_act[0]["seat"]
            prompt = api.prompt(created["id"], tokens[seat])
            assert prompt["must_act"], (seat, to_act)
            if seats[seat] == "H":
                started = time.perf_counter()
                move = dschunke_bot.choose(prompt)
                seconds.append(time.perf_counter() - started)
                asked.append((prompt, move))
            else:
                move = rng.choice(prompt["legal_moves"])
            to_act = api.move(created["id"], tokens[seat], move,
                              expected_version=prompt["version"])["to_act"]
        finals.append(api.match(created["id"], token=tokens[seats.index("H")]))
    return asked, seconds, finals


def test_choose_returns_a_listed_move(prompts):
    """Over every decision of three matches (3-4 players, the 2-player and set-up variants),
    choose answers one of the listed moves (the service accepted each). Its speed is a
    figure, not asserted: the arena tests play it under the real move limits."""
    asked, _, finals = prompts
    assert all(f["status"] == "over" and f["result"]["termination"] == "rules" for f in finals)
    assert all(move in prompt["legal_moves"] for prompt, move in asked)
    kinds = {prompt["decision"]["kind"] for prompt, _ in asked}
    assert {"action", "after_action", "resupply", "bid", "place_strip"} <= kinds, kinds
    assert len(asked) > 300


def test_bids_lie_in_one_colour_and_resupply_is_taken(prompts):
    """A sealed bid is four `bid` moves: the heuristic lays cards in at most one colour (two
    would be void), and never passes up a free resupply card."""
    asked, _, _ = prompts
    stakes: dict = {}
    for prompt, move in asked:
        if move["type"] == "bid":
            key = (prompt["match"], prompt["seat"], prompt["view"]["round"],
                   prompt["view"]["poker"]["round"])
            stakes.setdefault(key, []).append(move["count"])
        if prompt["decision"]["kind"] == "resupply":
            assert move["type"] == "resupply"
    assert stakes and all(len(c) == 4 and sum(1 for n in c if n) <= 1 for c in stakes.values())
    assert sum(1 for c in stakes.values() if any(c)) > len(stakes) / 2  # it does bid


def test_plan_bid_follows_the_market_card():
    """With cards in two colours, the bid goes to the colour the market card pays more for:
    one card against opponents who rarely bid, all of them in round 10; nothing when we hold
    no card of an open colour."""
    view = {"you": 0, "round": 2, "players": 3,
            "market": {"card": {"white": 1, "brown": 4, "lilac": "S", "orange": 2},
                       "settled": []},
            "seats": [{"hand": {"white": 3, "brown": 2, "lilac": 0, "orange": 0},
                       "hand_size": 5, "open_cards": []},
                      {"hand": None, "hand_size": 6, "open_cards": []},
                      {"hand": None, "hand_size": 6, "open_cards": []}],
            "poker": {"open": ["white", "brown", "lilac", "orange"], "my_stake": {}}}
    assert dschunke_strategy.plan_bid(view, {1: 0.1, 2: 0.1}) == ("brown", 1)
    view["round"] = 10  # cards are worth nothing after the last poker: lay them all
    assert dschunke_strategy.plan_bid(view, {1: 0.1, 2: 0.1}) == ("brown", 2)
    view["poker"]["open"] = ["lilac", "orange"]  # open colours we hold no cards of
    assert dschunke_strategy.plan_bid(view) == (None, 0)


def test_the_bot_plays_arena_matches_against_builtin_random(shared_service_url, bots):
    """The bot process in the first and the last seat of 3-seat arena matches against
    builtin:random: complete matches ended by the rules, the bot's moves timed, no failure."""
    api = local_client(shared_service_url)
    bot = f"bot:{bots['heuristic']}"
    ids = [api.create_arena_match("dschunke", seats, seed=11 + i, rated=False)["id"]
           for i, seats in enumerate([[bot, "builtin:random", "builtin:random"],
                                      ["builtin:random", "builtin:random", bot]])]
    for match_id in ids:
        final = api.wait_for_match(match_id, timeout=60)
        assert final["result"]["termination"] == "rules", final["result"]
        moves = api.log(match_id)["moves"]
        assert not any(m.get("failure") for m in moves)
        assert any(m.get("latency_ms") is not None for m in moves)
    health = api.bot(bots["heuristic"])["health"]
    assert sum(health[k] for k in ("timeouts", "crashes", "bad_responses", "illegal_moves")) == 0


def test_a_tournament_on_the_service(shared_service_url, bots):
    """heuristic, builtin:random and the Python random bot at a 3-player round robin table
    (every seat rotation): all matches complete, the heuristic first in the standings."""
    api = local_client(shared_service_url)
    tour = api.create_tournament("dschunke", [bots["heuristic"], "builtin:random",
                                              bots["random"]], players=3, seeds_per_table=1,
                                 seed=5)
    done = api.wait_for_tournament(tour["id"], timeout=90)
    assert done["status"] == "finished" and done["progress"]["finished"] == 3
    rows = {row["entrant"]: row for row in done["standings"]}
    top = rows[bots["heuristic"]]
    assert top["place"] == 1 and top["matches"] == 3 and top["failure_rate"] == 0
    assert top["average_score"] > max(r["average_score"] for e, r in rows.items()
                                      if e != bots["heuristic"])


def test_the_heuristic_beats_builtin_random_offline(kit_bots):
    """12 offline arena matches (4 seeds x 3 seats) of the kit-served heuristic against two
    builtin:random seats. A random player would win about a third (P(>= 10 of 12) < 1e-3)."""
    from arena.offline import offline_arena, run_to_end, seat_for

    bot = kit_bots(dschunke_bot.choose, name="dschunke-heuristic", games=["dschunke"])
    arena = offline_arena()
    seat = seat_for(arena, "dschunke", bot.url)
    wins, ranks, mine, theirs = 0, [], [], []
    limits = {"move_ms": 2000, "bank_ms": 20_000, "start_ms": 5000, "strikes": 0}
    for seed in range(4):
        for where in range(3):
            seats = ["builtin:random"] * 3
            seats[where] = seat
            created = arena.create_match("dschunke", seats, {}, 100 + seed, limits, rated=False)
            run_to_end(arena, created.meta.id)
            result = arena.service.load(created.meta.id)[1].result
            assert result["termination"] == "rules", result
            ranks.append(result["ranks"][where])
            wins += result["ranks"][where] == 1
            mine.append(result["scores"][where])
            theirs += [s for i, s in enumerate(result["scores"]) if i != where]
    assert wins >= 10, ranks
    assert sum(ranks) / len(ranks) <= 1.3
    assert sum(mine) / len(mine) > 2 * sum(theirs) / len(theirs)


def test_the_renderer_draws_real_views(prompts):
    """Views from the matches render without error and show the facts a player needs: the
    round, the market card, every junk with its crates and merchants, the seat's own hand,
    what is being decided; the final view shows the score breakdown."""
    from referee_client.render.dschunke import DschunkeRenderer

    assert registered()["dschunke"] is DschunkeRenderer
    renderer = renderer_for("dschunke")
    asked, _, finals = prompts
    for prompt, move in asked:
        view, seat = prompt["view"], prompt["seat"]
        text = renderer.view(view, seat)
        assert f"round {view['round']} of 10" in text
        assert all(f"  {junk} " in text for junk in dschunke_strategy.RING)
        hand = view["seats"][seat]["hand"]
        assert f"{seat} {view['colours'][seat]} (you): " in text
        assert ", ".join(f"{g} {hand[g]}" for g in dschunke_strategy.GOODS) in text
        if view["market"]["card"]:
            card = view["market"]["card"]
            assert " | ".join(f"{g} {card[g]}" for g in dschunke_strategy.GOODS) in text
        renderer.decision(prompt["decision"])
        assert renderer.move(move) in renderer.moves(prompt["legal_moves"])
    bid = next(p for p, _ in asked if p["decision"]["kind"] == "bid")
    assert "goods poker, bidding round" in renderer.view(bid["view"], bid["seat"])
    assert f"how many {bid['decision']['prompt']['goods']} cards" in renderer.decision(
        bid["decision"])
    action = next(p for p, _ in asked if p["decision"]["kind"] == "action")
    text = renderer.view(action["view"], action["seat"])
    assert "merchant: sell 1/crate (min 3)" in text and "takes an action" in text
    final = finals[0]["view"]
    text = renderer.view(final, finals[0].get("you"))
    assert "game over" in text and "final score" in text
    for row in final["final"]:
        assert f"= {row['total']} ({row['goods_cards']})" in text


def test_the_bot_imports_nothing_of_the_service():
    """With only clients/python on the path, the bot module loads neither referee nor arena."""
    code = ("import sys; sys.path.insert(0, %r); import dschunke_bot; "
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('referee', 'arena')); "
            "assert not bad, bad" % str(EXAMPLES))
    env = {**os.environ, "PYTHONPATH": str(CLIENTS_PY)}
    done = subprocess.run([sys.executable, "-c", code], cwd="/", env=env, capture_output=True,
                          text=True, timeout=30)
    assert done.returncode == 0, done.stderr
