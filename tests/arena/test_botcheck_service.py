"""Issue 39 on the service: POST /v1/bots/{id}/check and the bot page's check, the re-key's grace
period, and a bot's declared games enforced wherever it is seated."""

from __future__ import annotations

import json


from tests.arena.helpers import arena_match, finished, register
from tests.conftest import account_client




def _registry(app):
    return app.extensions["referee"].extensions["arena"].bots


def test_the_check_route_runs_botcheck_and_the_page_shows_it(app, client, bots):
    """The owner's check of a good bot registered for yunnan passes, one /move line per
    decision kind; the answer and the page never show the secret; the page shows the lines."""
    bot = bots("good", games=["yunnan", "gops"])
    bot_id = register(client, bot, games=("yunnan",))
    assert "Never checked" in client.get(f"/bots/{bot_id}").get_data(as_text=True)
    r = client.post(f"/v1/bots/{bot_id}/check")
    assert r.status_code == 200, r.json
    assert r.json["passed"] and r.json["failed"] == 0, r.json["lines"]
    names = [line["name"] for line in r.json["lines"]]
    assert "yunnan /move bid" in names and "keep-alive" in names
    assert not any(n.startswith("gops") for n in names)   # its registered games only
    assert bot.secret not in json.dumps(r.json)
    page = client.get(f"/bots/{bot_id}").get_data(as_text=True)
    assert "Last check" in page and "yunnan /move bid" in page and bot.secret not in page


def test_a_stranger_may_not_check_a_bot_an_organiser_may(app, client, bots):
    """Owner or organiser only (the route table of tests/api/test_access.py, too)."""
    owner, _ = account_client(app, "owner")
    stranger, _ = account_client(app, "stranger")
    bot = bots("good", games=["yunnan"])
    bot_id = register(owner, bot, games=("yunnan",))
    r = stranger.post(f"/v1/bots/{bot_id}/check")
    assert (r.status_code, r.json["code"]) == (403, "auth.forbidden")


def test_a_bot_that_refuses_every_signature_fails_the_check(client, bots):
    bot = bots("good", games=["yunnan"])
    bot_id = register(client, bot, games=("yunnan",))
    bot.secret = "another secret"
    r = client.post(f"/v1/bots/{bot_id}/check").json
    assert not r["passed"]
    bid = next(line for line in r["lines"] if line["name"] == "yunnan /move bid")
    assert not bid["ok"] and bid["got"] == "bot.signature_refused (status 401)", bid


def test_after_a_rekey_the_old_secret_is_valid_for_the_grace_period(app, client, bots):
    """Rotate: the next match against the bot still holding the old secret finishes without
    a forfeit (each refused call is signed again with the old secret); once the grace period
    is over (the old secret's key expired), the bot's refusal is bot.signature_refused."""
    bot = bots("good", "rotating")
    bot_id = register(client, bot)
    old = bot.secret
    r = client.post(f"/v1/bots/{bot_id}/secret")
    assert r.status_code == 201 and r.json["secret"] != old
    assert bot.secret == old   # the bot has not heard of the new one
    registry = _registry(app)
    ttl = registry.redis.ttl(registry._key(bot_id, "secret-old"))
    assert 0 < ttl <= 600
    match = finished(client, arena_match(client, [f"bot:{bot_id}", "builtin:random"])["id"])
    assert match["result"]["termination"] == "rules" and not match["result"].get("failures")
    assert bot.refused and set(bot.refused) == {"bad signature"}   # new secret, then old
    registry.redis.delete(registry._key(bot_id, "secret-old"))      # the grace period ends
    match = finished(client, arena_match(client, [f"bot:{bot_id}", "builtin:random"],
                                         seed=2)["id"])
    assert match["result"]["failures"]["0"]["code"] == "bot.signature_refused"


def test_a_bot_is_seated_only_in_the_games_it_was_registered_for(client, bots):
    """Registered for gops, a bot is refused in a yunnan arena match and a yunnan /v1/matches
    match (422 bot.game_not_declared), as tournaments refuse it."""
    bot = bots("good", games=["gops", "yunnan"])
    bot_id = register(client, bot, games=("gops",))
    for url in ("/v1/arena/matches", "/v1/matches"):
        r = client.post(url, json={"game": "yunnan", "seats": [f"bot:{bot_id}",
                                                                "builtin:random"]})
        assert (r.status_code, r.json["code"]) == (422, "bot.game_not_declared"), (url, r.json)
        assert "yunnan" in r.json["detail"]
    assert client.post("/v1/arena/matches", json={
        "game": "gops", "seats": [f"bot:{bot_id}", "builtin:random"],
        "options": {"cards": 4}}).status_code == 201


def test_the_check_of_a_bot_of_an_extra_game(client, bots):
    """gops, a game of the tests' registry only (not the shipped GAMES): the service checks
    it from its own registry, one /move line per decision kind, all PASS."""
    bot = bots("good")
    bot_id = register(client, bot)
    r = client.post(f"/v1/bots/{bot_id}/check")
    assert r.status_code == 200 and r.json["passed"], r.json
    names = [line["name"] for line in r.json["lines"]]
    assert "gops /move bid" in names and "gops /move award" in names
    assert "forged /move: replayed nonce" in names
