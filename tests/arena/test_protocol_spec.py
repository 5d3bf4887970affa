"""The bot protocol as an exact spec (issue 39): the served document is valid OpenAPI 3.1, every
game's decision kinds are in it (a union told apart by `kind`) and in GET /v1/games/{game}, and
the committed examples (clients/protocol/examples/, from seeded matches) fit it and are what
regenerating them writes."""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

import pytest
from schemathesis.specs.openapi.definitions import OPENAPI_31_VALIDATOR

from arena.protocol import sign as sign_headers
from arena.protocol_kinds import kind_name
from arena.protocol_spec import protocol_openapi
from referee.games import GAMES
from tests.support import protocol

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "clients" / "protocol" / "examples"
sys.path.insert(0, str(ROOT / "clients" / "protocol"))
import make_examples  # noqa: E402

DOC = protocol_openapi(GAMES)


def validator(name: str, doc: dict = DOC):
    return protocol.validator(doc, name)


def errors(name: str, instance, doc: dict = DOC) -> list[str]:
    return protocol.errors(doc, name, instance)


def test_the_served_document_is_valid_openapi_3_1(embedded_app):
    """Served anonymously at /v1/bot-protocol/openapi.json, OpenAPI 3.1 by its meta-schema,
    every component a JSON Schema that compiles; POSTs take the signature headers and answer
    401 for a refusal."""
    client = embedded_app.test_client()
    answer = client.get("/v1/bot-protocol/openapi.json")
    assert answer.status_code == 200
    doc = answer.json
    assert doc["openapi"] == "3.1.0"
    assert [str(e)[:300] for e in OPENAPI_31_VALIDATOR.iter_errors(doc)] == []
    for name in doc["components"]["schemas"]:
        validator(name, doc)
    for path in ("/start", "/move", "/end"):
        post = doc["paths"][path]["post"]
        assert [p["name"] for p in post["parameters"]] == [
            "X-Referee-Timestamp", "X-Referee-Nonce", "X-Referee-Signature"]
        assert "bot.signature_refused" in post["responses"]["401"]["description"]
    assert "parameters" not in doc["paths"]["/"]["get"]   # GET / is unsigned
    page = client.get("/bot-protocol").get_data(True)
    assert "/v1/bot-protocol/openapi.json" in page and "/bot-protocol/readme" in page
    assert 'id="examples"' in page and "<code>command:transport</code>" in page
    readme = client.get("/bot-protocol/readme")
    assert readme.status_code == 200 and 'id="refusing-a-call-and-what-it-costs"' in \
        readme.get_data(True)


def test_the_protocol_page_states_the_code_s_figures():
    """clients/protocol/README.md names the headers, the window and the refusal's health
    code as arena/protocol.py and the document have them."""
    from arena.protocol import MAX_SKEW_SECONDS, NONCE_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER
    from arena.protocol import verify

    text = (ROOT / "clients" / "protocol" / "README.md").read_text()
    for header in (TIMESTAMP_HEADER, NONCE_HEADER, SIGNATURE_HEADER):
        assert f"`{header}`" in text
    assert f"**{MAX_SKEW_SECONDS} s**" in text and "`bot.signature_refused`" in text
    # the refusal order it states is verify's: unsigned, stale, bad, replayed; the nonce is
    # recorded only after a good signature
    seen, now = set(), 1_765_000_000
    good = sign_headers("s", b"{}", now)
    assert verify("s", {}, b"{}", now, seen) == "unsigned request"
    assert verify("s", {**good, SIGNATURE_HEADER: "v1=00"}, b"{}", now + 301, seen) == \
        "stale timestamp"
    assert verify("s", {**good, SIGNATURE_HEADER: "v1=00"}, b"{}", now, seen) == \
        "bad signature" and seen == set()
    assert verify("s", good, b"{}", now, seen) is None and seen == {good[NONCE_HEADER]}
    assert verify("s", good, b"{}", now, seen) == "replayed nonce"


def test_the_meta_schema_check_can_fail():
    broken = copy.deepcopy(DOC)
    broken["paths"]["/move"]["post"]["responses"] = {"200": {"content": {}}}  # no description
    assert list(OPENAPI_31_VALIDATOR.iter_errors(broken))


@pytest.mark.parametrize("game", GAMES, ids=GAMES.names())
def test_every_decision_kind_is_a_union_member_and_in_the_games_description(embedded_app, game):
    """`<game>.Decision` is one of the kinds by `kind`; GET /v1/games/{game} lists the same
    kinds with the same prompt and move schemas."""
    name = game.spec.name
    schemas = DOC["components"]["schemas"]
    kinds = embedded_app.test_client().get(f"/v1/games/{name}").json["decision_kinds"]
    assert kinds and [k["kind"] for k in kinds] == [k["kind"] for k in game.decision_kinds()]
    mapping = schemas[f"{name}.Decision"]["discriminator"]["mapping"]
    assert schemas[f"{name}.Decision"]["discriminator"]["propertyName"] == "kind"
    assert list(mapping) == [k["kind"] for k in kinds]
    for kind in kinds:
        prefix = kind_name(name, kind["kind"])
        assert mapping[kind["kind"]] == f"#/components/schemas/{prefix}.Decision"
        assert schemas[f"{prefix}.Prompt"] == kind["prompt"]
        assert schemas[f"{prefix}.Move"] == kind["move"]
    assert schemas["MoveRequest"]["discriminator"]["mapping"][name] == \
        f"#/components/schemas/{name}.MoveRequest"


def _example(game):
    return json.loads((EXAMPLES / f"{game.spec.name}.json").read_text())


@pytest.mark.parametrize("game", GAMES, ids=GAMES.names())
def test_examples_cover_every_kind_and_fit_the_document(game):
    """One /move request and answer per decision kind, a /start and an /end: each fits its
    schema (the request as `MoveRequest` and as its game's and kind's, the answer as its
    kind's `MoveAnswer`) and the answer is one of the request's legal moves."""
    data = _example(game)
    name = game.spec.name
    assert data["missing"] == [] and list(data["kinds"]) == [k["kind"] for k in
                                                             game.decision_kinds()]
    assert errors("StartRequest", data["start"]["request"]) == []
    assert errors("EndRequest", data["end"]["request"]) == []
    for kind, example in data["kinds"].items():
        request, answer = example["request"], example["answer"]
        prefix = kind_name(name, kind)
        assert request["decision"]["kind"] == kind
        assert errors("MoveRequest", request) == [], kind
        assert errors(f"{name}.MoveRequest", request) == [], kind
        assert errors(f"{prefix}.Decision", request["decision"]) == [], kind
        assert errors(f"{prefix}.MoveAnswer", answer) == [], kind
        assert answer["move"] in request["legal_moves"], kind


def test_a_request_of_another_kind_or_game_does_not_fit():
    """The union is strict: a Dschunke bid prompt under another kind, or a request naming
    another game, is refused (the checks above can fail)."""
    request = _example(GAMES.get("dschunke"))["kinds"]["bid"]["request"]
    wrong_kind = copy.deepcopy(request)
    wrong_kind["decision"]["kind"] = "resupply"
    assert errors("MoveRequest", wrong_kind)
    wrong_game = {**request, "game": "yunnan"}
    assert errors("MoveRequest", wrong_game)
    assert errors("dschunke.bid.MoveAnswer", {"move": {"type": "bid", "yuan": -1}})


@pytest.mark.parametrize("game", GAMES, ids=GAMES.names())
def test_regenerating_the_examples_gives_the_committed_file(game):
    """clients/protocol/make_examples.py writes exactly the committed file."""
    assert make_examples.text(game) == (EXAMPLES / f"{game.spec.name}.json").read_text(), (
        "regenerate with .venv/bin/python clients/protocol/make_examples.py")
