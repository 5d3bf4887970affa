"""Checking JSON against a component of an OpenAPI 3.1 document (the bot protocol's)."""

from __future__ import annotations

import jsonschema_rs


def validator(doc: dict, name: str):
    """A JSON Schema 2020-12 validator of the component `name`, its references resolved in
    the document."""
    return jsonschema_rs.Draft202012Validator(
        {"components": doc["components"], "$ref": f"#/components/schemas/{name}"})


def errors(doc: dict, name: str, instance) -> list[str]:
    """Why `instance` does not fit the component `name` ([] if it does)."""
    return [f"{e.instance_path}: {e.message}"[:300]
            for e in validator(doc, name).iter_errors(instance)]
