"""App-level hooks run without the blueprint walk (referee/api/lifecycle.py) run as Flask runs
them: the same hooks, in the same order, with the same arguments and answers."""

from __future__ import annotations

import pytest
from flask import Blueprint, Flask, after_this_request

from referee.api import RefereeFlask


def _app(app_class, log: list, blueprint_hooks: bool = False, stop_early: bool = False):
    app = app_class(__name__)
    app.config["PROPAGATE_EXCEPTIONS"] = False
    bp = Blueprint("bp", __name__)

    @bp.get("/bp/<name>")
    def view(name):
        log.append(("view", name))
        if name == "boom":
            raise ValueError("boom")

        @after_this_request
        def this_request(response):
            log.append("after_this_request")
            response.headers["X-This"] = "1"
            return response
        return {"name": name}

    for n in (1, 2):
        @app.before_request
        def before(n=n):
            log.append(("before", n))
            return ("stopped", 418) if stop_early and n == 1 else None

        @app.after_request
        def after(response, n=n):
            log.append(("after", n))
            response.headers[f"X-After-{n}"] = "1"
            return response

        @app.teardown_request
        def teardown(exc, n=n):
            log.append(("teardown", n, type(exc).__name__))

    if blueprint_hooks:
        bp.before_request(lambda: log.append("bp before"))
        bp.after_request(lambda response: log.append("bp after") or response)
        bp.teardown_request(lambda exc: log.append("bp teardown"))
    app.register_blueprint(bp)
    return app


def _run(app_class, path: str, **options) -> tuple:
    log: list = []
    answer = _app(app_class, log, **options).test_client().get(path)
    return answer.status_code, sorted(answer.headers.items()), answer.data, log


@pytest.mark.parametrize("path", ["/bp/x", "/bp/boom", "/nothing"])
@pytest.mark.parametrize("options", [{}, {"blueprint_hooks": True}, {"stop_early": True}])
def test_hooks_run_as_flask_runs_them(path, options):
    ours = _run(RefereeFlask, path, **options)
    assert ours == _run(Flask, path, **options)
    assert ours[3]   # hooks did run


def _teardowns(app_class) -> list:
    log: list = []
    app = _app(app_class, log)
    with app.test_request_context("/bp/x"):
        try:
            raise KeyError("k")
        except KeyError:
            app.do_teardown_request()
        app.do_teardown_request(None)
    return log


def test_teardown_called_directly_gets_the_exception_being_handled():
    log = _teardowns(RefereeFlask)
    assert log[:4] == [("teardown", 2, "KeyError"), ("teardown", 1, "KeyError"),
                       ("teardown", 2, "NoneType"), ("teardown", 1, "NoneType")]
    assert log == _teardowns(Flask)


@pytest.mark.parametrize("path", ["/bp/x", "/bp/boom", "/nothing"])
def test_under_another_flask_or_werkzeug_their_own_code_runs(path, monkeypatch):
    """The shortcuts follow Flask 3.1's and werkzeug 3.1's code: under any other release
    (FOLLOWS_* false) every request goes through theirs, with the same answers."""
    from referee.api import answers, lifecycle, routing

    ours = _run(RefereeFlask, path)
    monkeypatch.setattr(lifecycle, "FOLLOWS_FLASK", False)
    monkeypatch.setattr(routing, "FOLLOWS_WERKZEUG", False)
    monkeypatch.setattr(answers, "FOLLOWS_WERKZEUG", False)
    import referee.api as api
    monkeypatch.setattr(api, "FOLLOWS_FLASK", False)
    assert _run(RefereeFlask, path) == ours == _run(Flask, path)

