"""Hot answers encoded once, by orjson, instead of dumped by marshmallow and then by json.

The prompt and the move answer carry a whole view and the legal moves and are sent on every
move; flask-smorest passes a Response through untouched, so its schema still documents the
route (the OpenAPI document is unchanged) while the body is written directly. Only bodies
that are already exactly their schema's dump come here: tests/api/test_answers.py holds the
prompt and the move answer of every game to it.
"""

from __future__ import annotations

from flask import Response
from werkzeug.datastructures import Headers

from referee.api.lifecycle import FOLLOWS_WERKZEUG
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

    @classmethod
    def built(cls, data: bytes, status: int) -> "JsonAnswer":
        """What `cls(data, status=status, content_type="application/json")` makes, without
        werkzeug's general steps: its headers set one by one (each checked for newlines,
        looked up, lower-cased), its mimetype and body type asked. Follows werkzeug 3.1's
        Response.__init__ and set_data (tests/api/test_answers.py compares the two)."""
        answer = cls.__new__(cls)
        answer.headers = Headers()
        # what set() appends for these two: our own constants and a number, no newline
        answer.headers._list = [("Content-Type", "application/json"),
                                ("Content-Length", str(len(data)))]
        answer.status = status
        answer.direct_passthrough = False
        answer._on_close = []
        answer.response = [data]
        return answer


def json_answer(body: dict, status: int = 200, headers: dict | None = None,
                view_json: bytes | None = None) -> Response:
    """`body` as an application/json response; `view_json`: the JSON of `body["view"]`,
    written before (MatchReading.view_json), copied in as it is."""
    data = fastjson.dumpb(body) if view_json is None else \
        fastjson.dumpb_with(body, "view", view_json)
    if FOLLOWS_WERKZEUG and not headers and JsonAnswer.automatically_set_content_length:
        return JsonAnswer.built(data, status)   # 18k instructions a request less (cg.sh)
    # the content type as is: werkzeug would add no charset to this mimetype
    return JsonAnswer(data, status=status, headers=headers, content_type="application/json")
