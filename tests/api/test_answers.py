"""The hot answers written without marshmallow (referee/api/answers.py) are exactly what their
schemas would have dumped: the prompt and the move answer of every game, from the first move
to the result (a small move cap ends each match early)."""

from __future__ import annotations

import pytest

from referee.service.schemas import MoveAcceptedSchema, PromptSchema
from tests.api.helpers import auth, create
from tests.conftest import ALL_GAMES


def _schema_dump_is_identity(schema, body: dict) -> None:
    dumped = schema.dump(body)
    assert dumped == body
    assert list(dumped) == list(body)


@pytest.mark.parametrize("game", ALL_GAMES, ids=lambda g: g.spec.name)
def test_prompt_and_move_answers_are_their_schemas_dump(embedded_app, game):
    """Every key is documented, in the documented order, with the documented types."""
    client = embedded_app.test_client()
    players = game.spec.min_players
    created = create(client, game=game.spec.name, seats=["remote"] * players, seed=3,
                     max_moves=25)
    match_id, tokens = created["id"], created["tokens"]
    prompts, moves, finished = PromptSchema(), MoveAcceptedSchema(), None
    while finished is None:
        for token in tokens.values():
            prompt = client.get(f"/v1/matches/{match_id}/prompt", headers=auth(token))
            assert prompt.mimetype == "application/json"
            _schema_dump_is_identity(prompts, prompt.json)
            if prompt.json["status"] != "active":
                finished = prompt.json
                break
            if prompt.json["must_act"]:
                answer = client.post(f"/v1/matches/{match_id}/moves", headers=auth(token),
                                     json={"move": prompt.json["legal_moves"][-1],
                                           "expected_version": prompt.json["version"]})
                assert answer.status_code == 200, answer.json
                _schema_dump_is_identity(moves, answer.json)
    assert finished["result"] is not None
