"""Hot answers encoded once, by orjson, instead of dumped by marshmallow and then by json.

The prompt and the move answer carry a whole view and the legal moves and are sent on every
move; flask-smorest passes a Response through untouched, so its schema still documents the
route (the OpenAPI document is unchanged) while the body is written directly. Only bodies
that are already exactly their schema's dump come here: tests/api/test_answers.py holds the
prompt and the move answer of every game to it.
"""

from __future__ import annotations

from flask import Response

from referee.service import fastjson


def json_answer(body: dict, status: int = 200, headers: dict | None = None) -> Response:
    """`body` as an application/json response."""
    return Response(fastjson.dumpb(body), status=status, headers=headers,
                    mimetype="application/json")
