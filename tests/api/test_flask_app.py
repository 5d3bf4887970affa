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
