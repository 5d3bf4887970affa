"""Hot answers encoded once, by orjson, instead of dumped by marshmallow and then by json.

The prompt and the move answer carry a whole view and the legal moves and are sent on every
move; flask-smorest passes a Response through untouched, so its schema still documents the
route (the OpenAPI document is unchanged) while the body is written directly. Only bodies
that are already exactly their schema's dump come here: tests/api/test_answers.py holds the
prompt and the move answer of every game to it.
"""

from __future__ import annotations

from flask import Response

from referee.service import fastjson

_FIXED_BY_WERKZEUG = frozenset(("location", "content-location"))
"""Headers werkzeug rewrites as it sends a response (made absolute URIs)."""


class JsonAnswer(Response):
    """A Response holding its whole body, sent as werkzeug sends it but without its general
    steps when none of them changes anything.

    werkzeug copies the headers to fix a Location, a Content-Location and the length for
    statuses without a body, and wraps the body in an iterator closing the response; for a
    body of one bytes value already measured (set_data), with no such header, no close
    callback and a status with a body, the headers and the body go out as they are (about
    37,000 instructions a request less, cg.sh)."""

    def get_wsgi_response(self, environ):
        """werkzeug's (body iterable, status, headers) for `environ`."""
        status = self.status_code
        body = self.response
        if (environ["REQUEST_METHOD"] == "HEAD" or status < 200 or status in (204, 304)
                or self.direct_passthrough or self._on_close or type(body) is not list
                or len(body) != 1 or type(body[0]) is not bytes):
            return super().get_wsgi_response(environ)
        headers = self.headers.to_wsgi_list()
        measured = False
        for key, _ in headers:
            key = key.lower()
            if key in _FIXED_BY_WERKZEUG:
                return super().get_wsgi_response(environ)
            measured = measured or key == "content-length"
        if not measured:
            return super().get_wsgi_response(environ)
        return body, self.status, headers


def json_answer(body: dict, status: int = 200, headers: dict | None = None) -> Response:
    """`body` as an application/json response."""
    # the content type as is: werkzeug would add no charset to this mimetype
    return JsonAnswer(fastjson.dumpb(body), status=status, headers=headers,
                      content_type="application/json")
