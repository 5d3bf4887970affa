"""Every shipped game, played by the example clients: the Python and JavaScript bots in the
arena, the JavaScript pull client and the Python Seat through the REST API."""

from __future__ import annotations

import random
import subprocess

import pytest

from referee.games import GAMES
from tests.clients.support import JS_DIR, NODE, LineReader, needs_node, start_example_bot
from tests.support.http import local_client, start_process

GAME_NAMES = GAMES.names()
LANGUAGES = ["python", pytest.param("js", marks=needs_node)]


def table(game: str) -> int:
    """The smallest regular table of a game."""
    return GAMES.get(game).spec.min_players


@pytest.fixture(scope="module")
def bots(shared_service_url, tmp_path_factory):
    """Both example bots, registered once for every shipped game."""
    readers, ids = [], {}

    def start(args, **kwargs):
        reader = LineReader(start_process(args, **kwargs))
        readers.append(reader)
        return reader

    folder = tmp_path_factory.mktemp("every-game")
    for language in ("python", "js"):
        if language == "js" and NODE is None:
            continue
        ids[language], _, _ = start_example_bot(start, language, shared_service_url,
                                                f"{language}-every", folder / language,
                                                games=",".join(GAME_NAMES))
    yield ids
    for reader in readers:
        reader.stop()


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", GAME_NAMES)
def test_example_bot_plays_every_game_in_the_arena(shared_service_url, bots, game, language):
    """A complete arena match of each game against builtin:random, ended by the rules, with
    no failure on the bot's record."""
    api = local_client(shared_service_url)
    seats = [f"bot:{bots[language]}"] + ["builtin:random"] * (table(game) - 1)
    match_id = api.create_arena_match(game, seats, seed=11, rated=False)["id"]
    final = api.wait_for_match(match_id, timeout=120)
    assert final["status"] == "over" and final["result"]["termination"] == "rules"
    moves = api.log(match_id)["moves"]
    assert not any(m.get("failure") for m in moves)
    assert sum(1 for m in moves if m["seat"] == 0 and m["by"] == "seat") > 5


@needs_node
@pytest.mark.parametrize("game", GAME_NAMES)
def test_js_pull_client_plays_every_game(shared_service_url, game):
    """pull.js plays a remote seat of each game to the end against builtin bots."""
    api = local_client(shared_service_url)
    created = api.create_match(game, ["remote"] + ["builtin:random"] * (table(game) - 1),
                               seed=5)
    done = subprocess.run([NODE, str(JS_DIR / "pull.js"), "--url", shared_service_url,
                           "--match", created["id"], f"--token={created['tokens']['0']}"],
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    final = api.match(created["id"])
    assert final["status"] == "over" and final["result"]["termination"] == "rules"


@pytest.mark.parametrize("game", GAME_NAMES)
def test_python_seat_plays_every_game(shared_service_url, game):
    """The library's Seat.play drives a remote seat of each game to the end."""
    api = local_client(shared_service_url)
    created = api.create_match(game, ["remote"] + ["builtin:random"] * (table(game) - 1),
                               seed=6)
    rng = random.Random(6)
    api.seat(created["id"], created["tokens"]["0"]).play(
        lambda prompt: rng.choice(prompt["legal_moves"]))
    assert api.match(created["id"])["result"]["termination"] == "rules"
