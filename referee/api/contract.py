"""The OpenAPI document tells the truth about errors: every error response is
`application/problem+json` with the Problem schema (what problems.py serves), never
flask-smorest's default `application/json` Error.

flask-smorest writes each documented response with the API's one default content type, so
the document is corrected as it is produced: a post-processing step over `spec.to_dict()`
(whatever asks for the document, the /v1/openapi.json route or `flask openapi write`, gets
the same). Plug-ins add their own steps in `app.extensions["referee.spec_steps"]` (the limits
document their 429s that way).
"""

from __future__ import annotations

import copy
import json
import threading

from flask_smorest import Api

from referee.api.problems import PROBLEM_TYPE
from referee.service.schemas import ProblemSchema

JSON = "application/json"


class RefereeApi(Api):
    """flask-smorest's Api with our Problem as the schema of its generic error responses,
    writing the document only when someone first asks for it.

    Registering a blueprint routes its views at once; documenting them (apispec resolving
    every schema, flask-smorest deep-copying each view's doc) waits in `later` until the
    document is produced. That was some 60 ms of CPU per app, paid by every process and test
    app that never serves /v1/openapi.json. The steps run once, in registration order, so
    the document is the same as when written eagerly."""

    ERROR_SCHEMA = ProblemSchema

    def __init__(self, *args, **kwargs):
        self._doc_steps: list = []
        self._doc_lock = threading.Lock()
        super().__init__(*args, **kwargs)

    def register_blueprint(self, blp, *, parameters=None, **options):
        """Route `blp` now (as flask-smorest does); document it when the document is made."""
        name = options.get("name", blp.name)
        self._app.extensions["flask-smorest"]["blp_name_to_api"][name] = self
        self._app.register_blueprint(blp, **options)

        def document():
            blp.register_views_in_doc(self, self._app, self.spec, name=name,
                                      parameters=parameters)
            self.spec.tag({"name": name, "description": blp.description})
        self.later(document)

    def later(self, step) -> None:
        """Run `step()` (which writes into `self.spec`) before the document is first made."""
        self._doc_steps.append(step)

    def complete_spec(self) -> None:
        """Run the documentation steps still waiting, once, in the order they came."""
        with self._doc_lock:
            steps, self._doc_steps = self._doc_steps, []
            for step in steps:
                step()


def _is_error(status: str) -> bool:
    return status == "default" or (status.isdigit() and int(status) >= 400)


def _problem_content(response: dict) -> None:
    content = response.get("content")
    if content and JSON in content:
        content[PROBLEM_TYPE] = content.pop(JSON)


def problem_responses(spec: dict) -> dict:
    """Every error response of every operation and of the shared components, as problem+json."""
    for status, response in spec.get("components", {}).get("responses", {}).items():
        if status not in ("OK", "CREATED"):
            _problem_content(response)
    for item in spec.get("paths", {}).values():
        for operation in item.values():
            if not isinstance(operation, dict):
                continue
            for status, response in operation.get("responses", {}).items():
                if _is_error(status):
                    _problem_content(response)
    return spec


NULL_BRANCH = {"type": "object", "nullable": True, "enum": [None]}
"""The `null` branch of a nullable `$ref` (`anyOf: [ref, NULL_BRANCH]`): null and nothing else.
apispec writes `{type: object, nullable: true}`, which any object matches: openapi-typescript
made it `Record<string, never> | null`, so `{}` type-checked as a seeded move or commitment."""


def _strict_property(prop: dict) -> None:
    """One property as the server treats it: a nullable `allOf`/`anyOf` field (apispec
    writes `anyOf: [ref, {nullable}]` beside `type: object`) is nullable itself, and a
    default is said in words: openapi-typescript types a property with a `default` as
    always present, so `{game, seats}` would not type-check as a match to create."""
    branches = prop.get("anyOf") or ()
    if any(isinstance(b, dict) and b.get("nullable") for b in branches):
        prop["nullable"] = True
        _null_or_ref(prop)
    if "default" in prop:
        default = prop.pop("default")
        said = f"default {json.dumps(default)}"
        text = prop.get("description", "").rstrip().rstrip(".")
        if default is not None and said not in text:   # null: omitted means "not given"
            prop["description"] = f"{text}; {said}" if text else said.capitalize()


def _null_or_ref(prop: dict) -> None:
    """`anyOf: [ref, {type: object, nullable}]`: the referenced schema or null, exactly.
    The `type: object` and open `additionalProperties` apispec puts beside a view's `anyOf`
    went into the generated union as `{[key: string]: unknown}`, so `view.game` was
    `unknown` instead of the View's discriminator."""
    branches = prop["anyOf"]
    if not any("$ref" in b for b in branches if isinstance(b, dict)):
        return
    prop["anyOf"] = [copy.deepcopy(NULL_BRANCH)
                     if isinstance(b, dict) and b.get("nullable") and "$ref" not in b else b
                     for b in branches]
    if prop.get("type") == "object" and prop.get("additionalProperties") in ({}, True):
        del prop["type"], prop["additionalProperties"]


def strict_schemas(spec: dict) -> dict:
    """Every component schema's properties made as strict as the server (`_strict_property`)."""
    for schema in spec.get("components", {}).get("schemas", {}).values():
        for prop in (schema.get("properties") or {}).values():
            if isinstance(prop, dict):
                _strict_property(prop)
    return spec


def init_app(app, api: Api) -> None:
    """Correct the document `api` produces for `app` (call after every blueprint is in)."""
    produce = api.spec.to_dict

    def to_dict() -> dict:
        api.complete_spec()
        spec = strict_schemas(problem_responses(copy.deepcopy(produce())))
        for step in app.extensions.get("referee.spec_steps", ()):
            step(spec)
        return spec
    api.spec.to_dict = to_dict
