"""Issue 15 item 5: matches and tournaments between Python functions, builtins and HTTP bots,
in this process, returning the service's log and result."""

from __future__ import annotations

import time

from arena.local import play_match, run_tournament
from referee.core import engine
from referee.service.config import Settings
from referee.service.context import registry_for
from tests.support.bots import BotServer


def test_functions_builtins_and_an_http_bot_in_one_match():
    """A named-fields function, a whole-request function, an HTTP bot: all play their seats;
    the log replays through the engine to the result."""
    seen = []

    def by_fields(legal_moves, seat):
        seen.append(seat)
        return legal_moves[0]

    def whole(request):
        assert {"view", "legal_moves", "decision", "time", "version"} <= set(request)
        return request["legal_moves"][-1]

    http = BotServer("good", "remote-bot")
    try:
        run = play_match("gops", [by_fields, whole, http.url], seed=3, options={"cards": 4})
    finally:
        http.stop()
    assert run.result["termination"] == "rules" and not run.result.get("failures")
    assert run.seats == ["by_fields", "whole", "remote-bot"] and set(seen) == {0}
    assert "/move" in http.paths()
    assert {m["seat"] for m in run.log["moves"] if m.get("by", "seat") == "seat"} == {0, 1, 2}
    game = registry_for(Settings(redis_url=None)).get("gops")
    state = engine.replay(game, 3, run.log["options"], run.log["seed"],
                          [(m["seat"], m["move"]) for m in run.log["moves"]])
    assert list(game.outcome(state).ranks) == run.result["ranks"]
    assert run.jsonl().splitlines()[0].startswith('{"type":"match"')


def test_a_function_that_raises_or_dawdles_forfeits():
    """An exception is bot.exception, an answer over move_ms + bank is bot.timeout: each
    forfeits its seat (ranked last), the match still ends."""
    def broken(legal_moves):
        raise ValueError("oops")

    def slow(legal_moves):
        time.sleep(0.03)
        return legal_moves[0]

    run = play_match("gops", [broken, "builtin:random"], seed=1, options={"cards": 3})
    failure = run.result["failures"]["0"]
    assert failure["code"] == "bot.exception" and "ValueError: oops" in failure["detail"]
    assert run.result["ranks"][0] == 2
    run = play_match("gops", ["builtin:random", slow], seed=1, options={"cards": 3},
                     limits={"move_ms": 10, "bank_ms": 10})
    assert run.result["failures"]["1"]["code"] == "bot.timeout"


def test_a_tournament_of_functions():
    """Two functions and a builtin in 2-player tables: every match played, standings named."""
    def first(legal_moves):
        return legal_moves[0]

    def last(legal_moves):
        return legal_moves[-1]

    tour = run_tournament("gops", [first, last, "builtin:random"], players=2, seeds=1,
                          options={"cards": 3})
    assert tour.record["progress"]["finished"] == 6 and len(tour.matches) == 6
    assert {r["name"]: r["matches"] for r in tour.standings} == {
        "py:first": 4, "py:last": 4, "builtin:random": 4}
    assert all(m.result["termination"] == "rules" for m in tour.matches)
