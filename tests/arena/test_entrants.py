"""Issue 15 item 3: who may sit at a table. The game's own player-count rule (with the options)
decides the table size; a builtin may fill several seats, and a match that seats one builtin
twice is played unrated, saying so."""

from __future__ import annotations

import pytest

from arena.errors import InvalidTournament
from arena.offline import offline_arena, run_to_end, seat_for
from referee.core.errors import InvalidPlayers
from referee.service.errors import InvalidSeats
from tests.arena.helpers import arena_match, finished, register
from tests.support.bots import BotServer


@pytest.fixture
def bot():
    server = BotServer("good", "solo", games=("gops", "dschunke"))
    yield server
    server.stop()


def _tournament(arena, bot, game, entrants, **spec):
    bot_id = seat_for(arena, game, bot.url).removeprefix("bot:")
    named = [bot_id if e == "BOT" else e for e in entrants]
    return bot_id, arena.tournaments.create({"game": game, "entrants": named, **spec})


def test_one_bot_against_two_randoms_at_dschunke(bot):
    """`[bot, builtin:random, builtin:random]` at 3-player Dschunke tables: accepted, the
    randoms kept apart in the standings, every match played, none rated (a builtin twice)."""
    arena = offline_arena()
    bot_id, tour = _tournament(arena, bot, "dschunke", ["BOT", "builtin:random",
                                                        "builtin:random"], seeds_per_table=1,
                               seed=4)
    assert tour["players"] == 3
    assert tour["entrants"] == [bot_id, "builtin:random", "builtin:random#2"]
    assert tour["unrated_matches"] == tour["planned"] == 3 and "not rated" in tour["note"]
    for match_id in arena.tournaments.match_ids(tour["id"]):
        run_to_end(arena, match_id)
        meta, live = arena.service.load(match_id)
        assert meta.labels["rated"] is False and not live.forfeits
        assert sorted(s["kind"] for s in meta.seats) == [f"bot:{bot_id}", "builtin:random",
                                                         "builtin:random"]
    final = arena.tournaments.get(tour["id"])
    assert final["status"] == "finished"
    assert {r["entrant"]: r["matches"] for r in final["standings"]} == {
        bot_id: 3, "builtin:random": 3, "builtin:random#2": 3}
    assert arena.leaderboards.applied_results("dschunke") == []


def test_two_player_dschunke_takes_the_variant_option(bot):
    """players=2 is the game's to judge: refused with default options (players.invalid, the
    game's own message), accepted with two_player_variant, which also makes 2 the default."""
    arena = offline_arena()
    with pytest.raises(InvalidPlayers, match="3-4 players, not 2 .2 only with one of its op"):
        _tournament(arena, bot, "dschunke", ["BOT", "builtin:random"], players=2)
    variant = {"two_player_variant": True}
    _, tour = _tournament(arena, bot, "dschunke", ["BOT", "builtin:random"], players=2,
                          options=variant, seeds_per_table=1)
    assert tour["players"] == 2 and tour["planned"] == 2 and tour["unrated_matches"] == 0
    _, default = _tournament(arena, bot, "dschunke", ["BOT", "builtin:random",
                                                      "builtin:random"], options=variant,
                             seeds_per_table=1)
    assert default["players"] == 2 and default["planned"] == 3 * 2
    assert default["unrated_matches"] == 2  # the table random v random#2, in 2 rotations
    with pytest.raises(InvalidPlayers, match="two_player_variant is for 2 players"):
        _tournament(arena, bot, "dschunke", ["BOT", "builtin:random", "builtin:random"],
                    players=3, options=variant)


def test_a_bot_is_still_entered_once(bot):
    arena = offline_arena()
    with pytest.raises(InvalidTournament, match="each bot may be entered once"):
        _tournament(arena, bot, "gops", ["BOT", "BOT", "builtin:random"])


def test_tables_with_a_builtin_twice_are_unrated_the_rest_rated(bot):
    """gops, 2-player tables of [bot, random, random]: bot v random and bot v random#2 feed
    the leaderboard; random v random#2 does not."""
    arena = offline_arena()
    bot_id, tour = _tournament(arena, bot, "gops", ["BOT", "builtin:random", "builtin:random"],
                               players=2, seeds_per_table=1, options={"cards": 3})
    for match_id in arena.tournaments.match_ids(tour["id"]):
        run_to_end(arena, match_id)
    rated = {}
    for match_id in arena.tournaments.match_ids(tour["id"]):
        meta = arena.service.store.meta(match_id)
        rated[tuple(meta.labels["entrants"])] = meta.labels["rated"]
    assert rated == {(bot_id, "builtin:random"): True, ("builtin:random", bot_id): True,
                     (bot_id, "builtin:random#2"): True, ("builtin:random#2", bot_id): True,
                     ("builtin:random", "builtin:random#2"): False,
                     ("builtin:random#2", "builtin:random"): False}
    final = arena.tournaments.get(tour["id"])
    assert sorted(r["matches"] for r in final["standings"]) == [4, 4, 4]
    applied = arena.leaderboards.applied_results("gops")
    assert len(applied) == 4 and all(bot_id in r["entrants"] for r in applied)


def test_the_natural_arena_test_is_not_refused(client, bot):
    """POST /v1/arena/matches with [bot, builtin:random, builtin:random] and `rated` left out:
    created and played, unrated, and the answer says why; asking for rated is refused."""
    bot_id = register(client, bot)
    seats = [f"bot:{bot_id}", "builtin:random", "builtin:random"]
    body = arena_match(client, seats)
    assert body["rated"] is False and "builtin:random holds several seats" in body["unrated"]
    match = finished(client, body["id"])
    assert match["result"]["termination"] == "rules" and match["labels"]["rated"] is False
    refused = client.post("/v1/arena/matches", json={"game": "gops", "seats": seats,
                                                     "options": {"cards": 3}, "rated": True})
    assert refused.status_code == 422 and refused.json["code"] == "seats.invalid"
    assert arena_match(client, seats[:2])["rated"] is True


def test_arena_create_match_rated_none_is_the_default_rule():
    arena = offline_arena()
    with pytest.raises(InvalidSeats, match="leave rated out"):
        arena.create_match("gops", ["builtin:random", "builtin:random"], {"cards": 3}, 1,
                           rated=True)
    created = arena.create_match("gops", ["builtin:random", "builtin:random"], {"cards": 3}, 1,
                                 rated=None)
    assert created.meta.labels["rated"] is False and "unrated" in created.meta.labels


def test_a_ladder_with_a_builtin_twice_says_its_matches_may_be_unrated(bot):
    arena = offline_arena()
    _, ladder = _tournament(arena, bot, "gops", ["BOT", "builtin:random", "builtin:random"],
                            format="ladder", players=2, max_matches=3, concurrency=1,
                            options={"cards": 3})
    assert "not rated" in ladder["note"]
    assert ladder["entrants"][1:] == ["builtin:random", "builtin:random#2"]
