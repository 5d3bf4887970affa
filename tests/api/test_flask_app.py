"""The app's Flask subclass (referee/api/__init__.py): remembering which callables are
coroutine functions changes nothing of what Flask calls."""

from __future__ import annotations

import functools

import pytest
from flask import Flask

from referee.api import RefereeFlask


def test_sync_callables_come_back_as_they_are_and_coroutines_wrapped():
    app = RefereeFlask(__name__)

    def plain():
        return "plain"

    async def coroutine():
        return "coroutine"

    class View:
        def get(self):
            return "method"

        async def aget(self):
            return "async method"

    for _ in range(2):   # the second time from the memory
        assert app.ensure_sync(plain) is plain
        bound = View().get
        assert app.ensure_sync(bound) is bound
        partial = functools.partial(plain)
        assert app.ensure_sync(partial) is partial
        for async_callable in (coroutine, View().aget):
            try:   # Flask's own answer: a wrapper, or (without its async extra) a refusal
                expected = Flask.ensure_sync(app, async_callable)
            except RuntimeError as err:
                with pytest.raises(RuntimeError, match=str(err)[:20]):
                    app.ensure_sync(async_callable)
            else:
                assert expected is not async_callable
                assert app.ensure_sync(async_callable) is not async_callable


def test_an_unhashable_callable_is_still_answered():
    app = RefereeFlask(__name__)

    class Unhashable:
        __hash__ = None

        def __call__(self):
            return 1

    call = Unhashable()
    assert app.ensure_sync(call) is call


def _session_app(secret_key=None) -> RefereeFlask:
    from flask import session

    app = RefereeFlask(__name__)
    app.secret_key = secret_key

    @app.get("/read")
    def read():
        return {"keys": sorted(session), "null": type(session._get_current_object()).__name__}

    @app.get("/write")
    def write():
        session["seen"] = True
        return {"ok": True}
    return app


def test_without_a_secret_key_every_request_reads_an_empty_session_and_cannot_write_one():
    """As Flask's own NullSession: empty, a write refused (500), nothing kept."""
    app = _session_app()
    client = app.test_client()
    assert client.get("/read").json == {"keys": [], "null": "NullSession"}
    app.testing = False
    assert client.get("/write").status_code == 500
    assert client.get("/read").json == {"keys": [], "null": "NullSession"}


def test_with_a_secret_key_sessions_are_flasks_cookie_sessions():
    client = _session_app("a secret").test_client()
    assert client.get("/write").json == {"ok": True}
    assert client.get("/read").json == {"keys": ["seen"], "null": "SecureCookieSession"}
