"""`referee serve`'s own refusals as problem details: the embedded server (werkzeug's, on
Python's http.server) answers a request line over 65,536 bytes (414), a header line over
65,536 or more than 100 headers (431) and an unreadable request (400) before the app sees
them, as an HTML page; this handler writes the same envelope as gunicorn's workers
(referee/gunicorn_errors.py) and the app."""

from __future__ import annotations

from http import HTTPStatus

from werkzeug.serving import WSGIRequestHandler

from referee.gunicorn_errors import problem_body


class ProblemRequestHandler(WSGIRequestHandler):
    """werkzeug's request handler, its refusals written as application/problem+json."""

    def send_error(self, code, message=None, explain=None):
        """http.server's send_error (status, log line, connection closed), with a problem
        detail for a body instead of its HTML page."""
        try:
            reason = HTTPStatus(code).phrase
        except ValueError:
            reason = "Error"
        self.log_error("code %d, message %s", code, message or reason)
        # a request line it cannot read leaves the version at HTTP/0.9, whose answers have
        # no status line nor headers: answer as 1.0, so the client reads status and type
        if self.request_version == "HTTP/0.9":
            self.request_version = "HTTP/1.0"
        self.send_response(code, message or reason)
        self.send_header("Connection", "close")
        self.close_connection = True
        body = b""
        if code >= 200 and code not in (HTTPStatus.NO_CONTENT, HTTPStatus.RESET_CONTENT,
                                        HTTPStatus.NOT_MODIFIED):
            body = problem_body(code, message or reason)
            self.send_header("Content-Type", "application/problem+json")
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD" and body:
            self.wfile.write(body)
