"""The floor `referee bench http` compares the service with: a bare Flask JSON endpoint on the
same server setup (gunicorn, the README's gevent workers), no Redis, no validation.

    gunicorn -c python:referee.gunicorn_conf -k gevent 'referee.bench.floor:create_app()'

GET /floor/prompt answers a small JSON object; POST /floor/moves parses the JSON body and
answers a small JSON object: the least a JSON API over HTTP costs per request here.
"""

from __future__ import annotations

from flask import Flask, jsonify, request


def create_app() -> Flask:
    """The bare app."""
    app = Flask(__name__)

    @app.get("/v1/health")
    def health():
        return jsonify({"status": "ok"})

    @app.get("/floor/prompt")
    def prompt():
        return jsonify({"version": 1, "must_act": True, "legal_moves": [{"type": "pass"}]})

    @app.post("/floor/moves")
    def moves():
        body = request.get_json()
        return jsonify({"version": body.get("expected_version", 0) + 1, "status": "active"})

    return app
