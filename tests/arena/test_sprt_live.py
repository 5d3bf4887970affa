"""The live SPRT block of a tournament page (issue 43): its fragment route, which the
page's script fetches every 2 s while the test runs, and stops fetching after."""

from __future__ import annotations

import pytest

from tests.conftest import built_app, organiser_client


@pytest.fixture
def client(needs_real_redis):
    """No worker threads: the tournament stays running until it is stopped."""
    with built_app(needs_real_redis, INLINE_WORKERS=0) as app:
        yield organiser_client(app)


def test_the_sprt_block_is_live_while_running_and_still_after(client):
    r = client.post("/v1/tournaments", json={
        "game": "gops", "format": "sprt", "entrants": ["builtin:random", "builtin:random"],
        "players": 2, "options": {"cards": 3}, "max_matches": 8, "seed": 4})
    assert r.status_code == 201, r.json
    tid = r.json["id"]
    live = client.get(f"/tournaments/{tid}/sprt")
    text = live.get_data(as_text=True)
    assert live.status_code == 200 and live.headers["Cache-Control"] == "no-store"
    assert 'data-status="running"' in text and "0 / 8 matches finished" in text
    assert "<b>running</b>" in text and "<html" not in text.lower()
    page = client.get(f"/tournaments/{tid}").get_data(as_text=True)
    assert 'data-running="1"' in page and "sprt.js" in page and 'http-equiv="refresh"' in page
    assert client.post(f"/v1/tournaments/{tid}/stop").status_code == 200
    text = client.get(f"/tournaments/{tid}/sprt").get_data(as_text=True)
    assert 'data-status="stopped"' in text
    page = client.get(f"/tournaments/{tid}").get_data(as_text=True)
    assert "sprt.js" not in page and 'data-running' not in page and 'id="sprt"' in page
    assert client.get("/static/arena/sprt.js").status_code == 200


def test_another_format_has_no_sprt_block(client):
    r = client.post("/v1/tournaments", json={
        "game": "gops", "format": "ladder", "entrants": ["builtin:random"] * 3, "players": 2,
        "options": {"cards": 3}, "max_matches": 2, "rated": False})
    assert client.get(f"/tournaments/{r.json['id']}/sprt").status_code == 404
    assert client.get("/tournaments/tnothing/sprt").status_code == 404
