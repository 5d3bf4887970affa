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

from flask_smorest import Api

from referee.api.problems import PROBLEM_TYPE
from referee.service.schemas import ProblemSchema

JSON = "application/json"


class RefereeApi(Api):
    """flask-smorest's Api with our Problem as the schema of its generic error responses."""

    ERROR_SCHEMA = ProblemSchema


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


def init_app(app, api: Api) -> None:
    """Correct the document `api` produces for `app` (call after every blueprint is in)."""
    produce = api.spec.to_dict

    def to_dict() -> dict:
        spec = problem_responses(copy.deepcopy(produce()))
        for step in app.extensions.get("referee.spec_steps", ()):
            step(spec)
        return spec
    api.spec.to_dict = to_dict
