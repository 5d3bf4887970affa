"""Flask's request hooks run without walking the request's blueprints when every hook is the
app's own (the service's case: the access check, the body guard, the limiter).

Before a view, after it and at teardown Flask looks up the request's blueprint names (through
the `request` proxy, each time) to run each blueprint's hooks, then the app's. With no hook
registered for any blueprint the walk finds nothing; skipping it runs the same hooks in the
same order with the same arguments, and saved about 45,000 instructions a request (cg.sh:
Dschunke prompts and moves, in-process; each alone: before 17k, after 8k, teardown 16k). A
blueprint hook (or a URL value preprocessor) sends the request through Flask's own walk.
"""

from __future__ import annotations

import sys
from importlib.metadata import version

from flask import Flask
from flask.globals import request_ctx
from flask.signals import request_tearing_down

_UNSET = object()


def release(dist: str) -> tuple[int, int]:
    """The installed (major, minor) release of distribution `dist`."""
    major, minor = version(dist).split(".")[:2]
    return int(major), int(minor)


FOLLOWS_FLASK = release("flask") == (3, 1)
"""Whether the installed Flask is the one whose request code these methods (and
RefereeFlask.create_url_adapter) follow: under any other, Flask's own runs."""

FOLLOWS_WERKZEUG = release("werkzeug") == (3, 1)
"""Whether the installed werkzeug is the one whose binding (routing.py) and Response
constructor (answers.py `JsonAnswer.built`) are followed: under any other, werkzeug's own
code runs."""


def _app_only(hooks: dict) -> bool:
    """Whether `hooks` (by blueprint name, None for the app's) holds only the app's."""
    return not hooks or (len(hooks) == 1 and None in hooks)


class AppHooks(Flask):
    """Flask, running app-level request hooks without the blueprint walk."""

    def preprocess_request(self):
        """The before-request hooks, as Flask runs them (the first answer stops the request)."""
        if not FOLLOWS_FLASK or self.url_value_preprocessors or \
                not _app_only(self.before_request_funcs):
            return super().preprocess_request()
        for before in self.before_request_funcs.get(None, ()):
            answer = self.ensure_sync(before)()
            if answer is not None:
                return answer
        return None

    def process_response(self, response):
        """The after-request hooks (this request's, then the app's, last added first) and
        the session's save, as Flask runs them."""
        if not FOLLOWS_FLASK or not _app_only(self.after_request_funcs):
            return super().process_response(response)
        ctx = request_ctx._get_current_object()
        for after in ctx._after_request_functions:
            response = self.ensure_sync(after)(response)
        for after in reversed(self.after_request_funcs.get(None, ())):
            response = self.ensure_sync(after)(response)
        if not self.session_interface.is_null_session(ctx._session):
            self.session_interface.save_session(self, ctx._session, response)
        return response

    def do_teardown_request(self, exc=_UNSET):
        """The teardown hooks (last added first), then Flask's request_tearing_down signal."""
        if not FOLLOWS_FLASK or not _app_only(self.teardown_request_funcs):
            return super().do_teardown_request(*(() if exc is _UNSET else (exc,)))
        if exc is _UNSET:
            exc = sys.exc_info()[1]
        for teardown in reversed(self.teardown_request_funcs.get(None, ())):
            self.ensure_sync(teardown)(exc)
        request_tearing_down.send(self, _async_wrapper=self.ensure_sync, exc=exc)
        return None
