"""The Yunnan renderer takes the board's numbers (incomes, bid spaces) from the game
description GET /v1/games/yunnan serves, not from copies of its own."""

from __future__ import annotations

import json

from referee.games.yunnan import GAME
from referee.service.described import describe
from referee_client.render import renderer_for


def _view():
    s = GAME.setup(3, GAME.spec.resolve_options({}), 4)
    return json.loads(json.dumps(GAME.view(s, 0)))


def test_incomes_and_spaces_come_from_the_description():
    info = json.loads(json.dumps(describe(GAME)))
    text = renderer_for("yunnan", info).view(_view(), 0)
    assert "  qinghai  12" in text and "  yunnan    4" in text
    assert "Temple          2=.  4=.  6=." in text
    assert "5, 7 and the Temple are small spaces" in text
    info["board"]["province_income"]["value"]["qinghai"]["value"] = 99
    info["board"]["temple_spaces"]["value"]["value"] = [3, 5, 8]
    text = renderer_for("yunnan", info).view(_view(), 0)
    assert "  qinghai  99" in text and "Temple          3=.  5=.  8=." in text


def test_without_a_description_no_number_is_made_up():
    text = renderer_for("yunnan", None).view(_view(), 0)
    assert "  qinghai   ?" in text and "Temple          #1=." in text
